// One player/coach benchmark task in a fresh process, on the built code. Prints one JSON line of figures.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { initStore } from '../dist/entities/init.js';
import { buildCoachPrompt } from '../dist/prompt/coach-prompt.js';
import { openStore } from '../dist/store/open.js';
import { buildTurn, recordTurn } from '../dist/turns/record.js';
import { latestTurn, readTurnLog } from '../dist/turns/turn-log.js';

const [task, dir, ...args] = process.argv.slice(2);
const now = () => Number(process.hrtime.bigint()) / 1e6;
const out = (figures) => process.stdout.write(`${JSON.stringify({ ...figures, maxRssKb: process.resourceUsage().maxRSS })}\n`);
const base = Date.parse('2026-01-01T00:00:00Z');

/** A turn log of `count` turns (tasks of 5 turns each), as lore writes it. */
function turnLog(feature, count) {
  return Array.from({ length: count }, (_, i) => JSON.stringify({
    id: `TURN-${feature}-TASK-${Math.floor(i / 5)}-T${i + 1}`, feature_id: feature, task_id: `TASK-${Math.floor(i / 5)}`, turn_number: i + 1,
    player_decision: 'implement the next acceptance criterion', coach_decision: i % 3 === 0 ? 'approve' : 'revise', coach_reason: 'coverage under the threshold',
    blockers_found: [], progress_summary: 'x'.repeat(120), acceptance_criteria_status: { a: 'verified', b: 'pending' }, mode: 'CONTINUING_WORK',
    quality_gate_results: null, timestamp: new Date(base + i * 60_000).toISOString(),
  })).join('\n') + '\n';
}

/** Times `fn` `runs` times in this process (the first run pays for loading and compiling). */
async function times(runs, fn) {
  const list = [];
  for (let i = 0; i < runs; i++) {
    const started = now();
    await fn(i);
    list.push(now() - started);
  }
  return list;
}

if (task === 'setup') {
  // Project "bench": 4 features of 50 turns (200, the project limit). Project "big": one feature log of 200 turns.
  mkdirSync(dir, { recursive: true });
  await initStore({ cwd: dir, store: dir });
  for (const feature of ['FEAT-A', 'FEAT-B', 'FEAT-C', 'FEAT-D']) {
    mkdirSync(join(dir, '.knowledge/turns/bench'), { recursive: true });
    writeFileSync(join(dir, `.knowledge/turns/bench/${feature}.ndjson`), turnLog(feature, 50));
  }
  mkdirSync(join(dir, '.knowledge/turns/big'), { recursive: true });
  writeFileSync(join(dir, '.knowledge/turns/big/FEAT-BIG.ndjson'), turnLog('FEAT-BIG', 200));
  out({});
} else if (task === 'record') {
  const store = await openStore({ cwd: dir });
  const latencies = await times(Number(args[0]), (i) => recordTurn({
    store, project: 'bench',
    turn: buildTurn({ feature_id: 'FEAT-R', task_id: 'TASK-1', turn_number: i + 1, player_decision: 'p', coach_decision: 'revise', progress_summary: 's' }, new Date()),
  }));
  out({ latencies });
} else if (task === 'latest') {
  const store = await openStore({ cwd: dir });
  const [project, feature, runs] = [args[0], args[1], Number(args[2])];
  let id;
  const latencies = await times(runs, async () => {
    id = latestTurn((await readTurnLog({ store, project, feature })).turns)?.id;
  });
  out({ latencies, id });
} else if (task === 'throughput-setup') {
  // Project "tp": feature FEAT-T, in progress, whose log already holds `lines` turns.
  mkdirSync(dir, { recursive: true });
  await initStore({ cwd: dir, store: dir });
  mkdirSync(join(dir, '.knowledge/turns/tp'), { recursive: true });
  writeFileSync(join(dir, '.knowledge/turns/tp/FEAT-T.ndjson'), turnLog('FEAT-T', Number(args[0])));
  out({});
} else if (task === 'throughput-worker') {
  // One record to warm up (loading, compiling, a first read of the log), then says it is ready and
  // waits for the file "go"; records `count` new turns of FEAT-T and reports when it began and ended.
  const [worker, count] = [args[0], Number(args[1])];
  const store = await openStore({ cwd: dir });
  const turn = (i) => buildTurn({ feature_id: 'FEAT-T', task_id: `TASK-W${worker}`, turn_number: 100_000 + i, player_decision: 'p', coach_decision: 'revise', progress_summary: 's' }, new Date());
  await recordTurn({ store, project: 'tp', turn: turn(count) });
  writeFileSync(join(dir, `ready-${worker}`), '');
  while (!existsSync(join(dir, 'go'))) await new Promise((resolve) => setTimeout(resolve, 5));
  const began = Date.now();
  const latencies = await times(count, (i) => recordTurn({ store, project: 'tp', turn: turn(i) }));
  out({ began, ended: Date.now(), latencies });
} else if (task === 'prompt') {
  const store = await openStore({ cwd: dir });
  const latencies = await times(Number(args[0]), () => buildCoachPrompt({ store, project: 'bench', taskType: 'feature', complexity: 5, feature: 'FEAT-A', task: 'TASK-9', turn: 51, maxTurns: 60 }));
  out({ latencies });
} else {
  throw new Error(`unknown task ${task}`);
}

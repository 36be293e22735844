// The store: start-up floor, CLI start, cold and cached loads, bulk import, NDJSON appends and replay.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateStore } from '../generate.js';
import { addRow, ENTRIES, exec, LORE, processBench, reportedPeak, rows, RSS_HOOK, RUNS, task, type BenchContext } from '../harness.js';

/** An empty store in a new git repository (with a git user, as a team's clone has). */
function emptyStore(root: string): void {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, '.knowledge'), { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
  execFileSync('git', ['config', 'user.name', 'Bench'], { cwd: root });
  execFileSync('git', ['config', 'user.email', 'bench@example.com'], { cwd: root });
  writeFileSync(join(root, '.knowledge/config.yaml'), 'version: 1\nproject: bench\n');
}

/**
 * `lore import` of the store's export into an empty store, whole process: the export as it is (a
 * JSON array), and as NDJSON with only what a person writes (lore gives ids, authors, timestamps).
 * The two alternate run by run, so both see the same machine.
 */
async function importBench(dir: string, store: string): Promise<void> {
  process.stderr.write(`lore import of ${ENTRIES} entries...\n`);
  const exported = (await exec([LORE, 'export'], store)).stdout;
  const full = join(dir, 'export.json');
  writeFileSync(full, exported);
  const bare = join(dir, 'bare.ndjson');
  const fields = ['id', 'createdBy', 'createdAt', 'updatedAt', 'source', 'enabled', 'timesApplied', 'timesHelpful', 'lastApplied'];
  writeFileSync(bare, (JSON.parse(exported) as Array<Record<string, unknown>>).map((e) => `${JSON.stringify(Object.fromEntries(Object.entries(e).filter(([k]) => !fields.includes(k))))}\n`).join(''));
  const cases = [
    { name: `lore import, ${ENTRIES} entries (an export, JSON; whole process)`, file: full, times: [] as number[], peak: 0 },
    { name: `lore import, ${ENTRIES} entries (NDJSON without ids, authors or dates; whole process)`, file: bare, times: [] as number[], peak: 0 },
  ];
  const target = join(dir, 'import-target');
  for (let i = 0; i < Math.min(RUNS, 3); i++) {
    for (const c of cases) {
      emptyStore(target);
      const result = await exec(['--import', RSS_HOOK, LORE, 'import', c.file], target);
      if (result.code !== 0 || !result.stdout.includes(`imported: ${ENTRIES} entries: ${ENTRIES} created`)) throw new Error(`lore import failed:\n${result.stderr}`);
      c.times.push(result.ms);
      c.peak = Math.max(c.peak, reportedPeak(result.stderr));
    }
  }
  for (const c of cases) addRow(c.name, c.times, c.peak, 'under 15 s, peak RSS under 300 MiB');
  rmSync(target, { recursive: true, force: true });
}

export async function storeBench({ dir, store }: BenchContext): Promise<void> {
  process.stderr.write('start-up floor and CLI start...\n');
  const floor = await processBench("node -e '' (floor)", ['-e', ''], 'the floor', undefined, 15);
  const cli = await processBench('lore --version (CLI start)', [LORE, '--version'], 'close to the floor', undefined, 15);
  rows[rows.length - 1]!.target += ` (${(cli / floor).toFixed(2)}× floor)`;

  process.stderr.write(`cold load + validate of ${ENTRIES} entries...\n`);
  await processBench(`lore validate, ${ENTRIES} entries (whole process, no cache)`, [LORE, 'validate'], 'figure', store);
  // The same entries as people and agents write them: 40% with details of several lines, 15% with
  // an example, 30% with quotes in the title (generate.ts, enrich).
  const rich = join(dir, 'rich');
  await generateStore(rich, ENTRIES, { rich: true });
  await processBench(`lore validate, ${ENTRIES} entries, with multi-line details, examples and quoted titles (whole process, no cache)`, [LORE, 'validate'], 'under 2 s on 2 cores', rich);
  rmSync(rich, { recursive: true, force: true });
  const loads: number[] = [];
  let peak = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await task<{ ms: number }>('task.mjs', ['load-validate', store]);
    loads.push(r.ms);
    peak = Math.max(peak, r.maxRssKb);
  }
  addRow(`load + validate in-process, ${ENTRIES} entries`, loads, peak, 'figure');
  await task('task.mjs', ['age-files', store]);
  await processBench(`lore list, ${ENTRIES} entries (record cache warm)`, [LORE, 'list'], 'figure', store);
  await importBench(dir, store);

  process.stderr.write('NDJSON appends...\n');
  const single = await task<{ latencies: number[] }>('task.mjs', ['append-single', join(dir, 'single.ndjson'), '2000']);
  addRow('append, 1 process (per append, fsynced)', single.latencies, single.maxRssKb, 'figure');
  const concurrent = join(dir, 'concurrent.ndjson');
  const started = Date.now();
  await Promise.all(Array.from({ length: 8 }, (_, w) => task('task.mjs', ['append-worker', concurrent, '1000', `w${w}`])));
  const elapsed = Date.now() - started;
  const counted = await task<{ lines: number; torn: number }>('task.mjs', ['count-lines', concurrent]);
  addRow(`append, 8 processes × 1,000 at once (${counted.lines} lines back, ${counted.torn} torn)`, [elapsed], undefined, '8,000 lines back, none torn');

  process.stderr.write('replay of 100,000 lines...\n');
  const log = join(dir, 'replay.ndjson');
  await task('task.mjs', ['write-log', log, '100000']);
  const replays: number[] = [];
  let replayPeak = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await task<{ ms: number }>('task.mjs', ['replay', log]);
    replays.push(r.ms);
    replayPeak = Math.max(replayPeak, r.maxRssKb);
  }
  addRow('replay, 100,000 lines (latest per id)', replays, replayPeak, 'under 1 s');
}

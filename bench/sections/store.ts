// The store: start-up floor, CLI start, cold and cached loads, NDJSON appends and replay.
import { join } from 'node:path';
import { addRow, ENTRIES, LORE, processBench, rows, RUNS, task, type BenchContext } from '../harness.js';

export async function storeBench({ dir, store }: BenchContext): Promise<void> {
  process.stderr.write('start-up floor and CLI start...\n');
  const floor = await processBench("node -e '' (floor)", ['-e', ''], 'the floor', undefined, 15);
  const cli = await processBench('lore --version (CLI start)', [LORE, '--version'], 'close to the floor', undefined, 15);
  rows[rows.length - 1]!.target += ` (${(cli / floor).toFixed(2)}× floor)`;

  process.stderr.write(`cold load + validate of ${ENTRIES} entries...\n`);
  await processBench(`lore validate, ${ENTRIES} entries (whole process, no cache)`, [LORE, 'validate'], 'figure', store);
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

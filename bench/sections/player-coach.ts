// The player/coach runtime: recording a turn, the latest turn of a feature (50 turns) and of a
// 200-turn log, and building the coach prompt, in-process and as whole CLI processes.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { addRow, LORE, processBench, RUNS, task, type BenchContext } from '../harness.js';

const IN_PROCESS = 50;

type Timed = { latencies: number[]; maxRssKb: number };

/** Adds a row for warm in-process calls (the first call, which loads and compiles, is its own row). */
function warmRows(name: string, result: Timed): void {
  addRow(`${name}, first call in a process`, result.latencies.slice(0, 1), undefined, 'figure');
  addRow(`${name}, warm (${result.latencies.length - 1} calls)`, result.latencies.slice(1), result.maxRssKb, 'figure');
}

const WORKERS = 8;
const PER_WORKER = 50;

type Throughput = Timed & { began: number; ended: number };

/**
 * Turn record throughput: 8 processes record turns of one feature whose log already holds 1,000,
 * then 8,000 lines; records per second from a common start (each process has loaded and recorded
 * once before it) to the last record. A figure, not a timed test: it should stay flat as the log grows.
 */
export async function turnRecordThroughput({ dir }: BenchContext): Promise<void> {
  process.stderr.write('player/coach: turn record throughput at 1,000 and 8,000 lines...\n');
  for (const lines of [1000, 8000]) {
    const store = join(dir, `throughput-${lines}`);
    await task('player-coach-task.mjs', ['throughput-setup', store, String(lines)]);
    const running = Promise.all(Array.from({ length: WORKERS }, (_, w) => task<Throughput>('player-coach-task.mjs', ['throughput-worker', store, String(w), String(PER_WORKER)])));
    let failed: unknown;
    running.catch((error: unknown) => (failed = error));
    // Every process has loaded and recorded once: start them together.
    while (Array.from({ length: WORKERS }, (_, w) => existsSync(join(store, `ready-${w}`))).includes(false)) {
      if (failed !== undefined) throw failed;
      await sleep(20);
    }
    writeFileSync(join(store, 'go'), '');
    const runs = await running;
    const seconds = (Math.max(...runs.map((r) => r.ended)) - Math.min(...runs.map((r) => r.began))) / 1000;
    const rate = Math.round((WORKERS * PER_WORKER) / seconds);
    addRow(`turn record, ${WORKERS} processes × ${PER_WORKER}, one feature of ${lines.toLocaleString('en')} lines: ${rate} records/s`, runs.flatMap((r) => r.latencies), Math.max(...runs.map((r) => r.maxRssKb)), 'flat from 1k to 8k lines');
  }
}

export async function playerCoachBench(ctx: BenchContext): Promise<void> {
  const { dir } = ctx;
  process.stderr.write('player/coach: turns and the coach prompt...\n');
  const store = join(dir, 'store');
  await task('player-coach-task.mjs', ['setup', store]);
  warmRows('turn record (fsynced, retention checked over 200 turns)', await task<Timed>('player-coach-task.mjs', ['record', store, String(IN_PROCESS)]));
  warmRows('latest turn, feature of 50 turns', await task<Timed>('player-coach-task.mjs', ['latest', store, 'bench', 'FEAT-A', String(IN_PROCESS)]));
  warmRows('latest turn, log of 200 turns', await task<Timed>('player-coach-task.mjs', ['latest', store, 'big', 'FEAT-BIG', String(IN_PROCESS)]));
  warmRows('coach prompt build (turn 51, previous turn from 50)', await task<Timed>('player-coach-task.mjs', ['prompt', store, String(IN_PROCESS)]));
  const prompt = [LORE, 'prompt', 'coach', '--project', 'bench', '--task-type', 'feature', '--complexity', '5', '--feature', 'FEAT-A', '--task', 'TASK-9', '--turn', '51', '--max-turns', '60'];
  await processBench('lore prompt coach (whole process)', prompt, 'figure', store, RUNS);
  await processBench('lore turn latest, 50 turns (whole process)', [LORE, 'turn', 'latest', '--project', 'bench', '--feature', 'FEAT-A'], 'figure', store, RUNS);
  await processBench('lore turn record (whole process)', [LORE, 'turn', 'record', '--project', 'rec', '--feature', 'FEAT-P', '--task', 'TASK-1', '--turn', '1', '--player-decision', 'p', '--coach-decision', 'approve', '--progress', 's'], 'figure', store, RUNS);
}

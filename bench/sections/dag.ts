// The thought DAG: replay of 100,000 nodes across 10 projects, append and critic latency, and
// heads/resume on 10,000 nodes, in-process (per call) and through the CLI (whole process).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { addRow, LORE, ms, percentile, processBench, RUNS, task, type BenchContext } from '../harness.js';

interface Timings { maxRssKb: number }

export async function dagBench({ dir }: BenchContext): Promise<void> {
  process.stderr.write('thought DAG: replay of 100,000 nodes across 10 projects...\n');
  const big = join(dir, 'big');
  await task('dag-task.mjs', ['write-log', big, '100000', '10']);
  const replays: number[] = [];
  const cpu: number[] = [];
  let peak = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await task<Timings & { ms: number; cpuMs: number }>('dag-task.mjs', ['replay', big]);
    replays.push(r.ms);
    cpu.push(r.cpuMs);
    peak = Math.max(peak, r.maxRssKb);
  }
  addRow(`DAG replay, 100,000 nodes across 10 projects (open + indexes; CPU ${ms(percentile(cpu, 50))})`, replays, peak, 'under 1 s');

  process.stderr.write('thought DAG: appends and critic reviews...\n');
  const small = join(dir, 'small');
  await task('dag-task.mjs', ['write-log', small, '1000', '1']);
  const appends = await task<Timings & { actor: number[]; critic: number[] }>('dag-task.mjs', ['append', small, '500']);
  addRow('DAG append, actor node (locked, fsynced)', appends.actor, appends.maxRssKb, 'figure');
  addRow('DAG critic review (2 lines, one locked step)', appends.critic, undefined, 'figure');

  process.stderr.write('thought DAG: heads and resume on 10,000 nodes...\n');
  const one = join(dir, 'one');
  mkdirSync(one);
  await task('dag-task.mjs', ['write-log', one, '10000', '1']);
  const queries = await task<Timings & { heads: number[]; resume: number[] }>('dag-task.mjs', ['queries', one, '1000']);
  addRow('DAG heads, 10,000 nodes (per call, in-process)', queries.heads, queries.maxRssKb, 'figure');
  addRow('DAG resume (window 20), 10,000 nodes (per call)', queries.resume, undefined, 'figure');
  await processBench('lore dag heads, 10,000 nodes (whole process)', [LORE, 'dag', 'heads', '--project', 'project-0'], 'figure', one);
}

// `npm run bench`: figures (median, p95, peak memory) against DESIGN.md §5's targets.
// It never fails on a timing: this machine is shared and noisy.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateStore } from './generate.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TASK = join(ROOT, 'bench/task.mjs');
const RSS_HOOK = join(ROOT, 'bench/rss-hook.mjs');
const LORE = join(ROOT, 'bin/lore.js');

const argValue = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
const ENTRIES = argValue('--entries', 10_000);
const RUNS = argValue('--runs', 5);

interface Row { name: string; median: string; p95: string; memory: string; target: string }
const rows: Row[] = [];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const ms = (n: number): string => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(n < 10 ? 2 : 1)} ms`);
const mb = (kb: number): string => `${(kb / 1024).toFixed(0)} MiB`;

function exec(args: string[], cwd = ROOT): Promise<{ ms: number; stdout: string; stderr: string; code: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, stdout, stderr, code: code ?? -1 }));
  });
}

async function task<T>(args: string[]): Promise<T & { maxRssKb: number }> {
  const result = await exec([TASK, ...args]);
  if (result.code !== 0) throw new Error(`bench task ${args[0]} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop()!) as T & { maxRssKb: number };
}

/** Times a whole process `runs` times; peak memory from the rss hook. */
async function processBench(name: string, args: string[], target: string, cwd = ROOT, runs = RUNS): Promise<number> {
  const times: number[] = [];
  let peak = 0;
  for (let i = 0; i < runs; i++) {
    const result = await exec(['--import', RSS_HOOK, ...args], cwd);
    times.push(result.ms);
    peak = Math.max(peak, Number(/__maxrss_kb=(\d+)/.exec(result.stderr)?.[1] ?? 0));
  }
  rows.push({ name, median: ms(percentile(times, 50)), p95: ms(percentile(times, 95)), memory: mb(peak), target });
  return percentile(times, 50);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lore-bench-'));
  try {
    process.stderr.write(`generating a store of ${ENTRIES} entries...\n`);
    let started = Date.now();
    const store = await generateStore(join(dir, 'store'), ENTRIES);
    process.stderr.write(`  done in ${ms(Date.now() - started)} (${store.prohibitions} prohibitions)\n`);

    process.stderr.write('start-up floor and CLI start...\n');
    const floor = await processBench("node -e '' (floor)", ['-e', ''], 'the floor', ROOT, 15);
    const cli = await processBench('lore --version (CLI start)', [LORE, '--version'], 'close to the floor', ROOT, 15);
    rows[rows.length - 1]!.target += ` (${(cli / floor).toFixed(2)}× floor)`;

    process.stderr.write(`cold load + validate of ${ENTRIES} entries...\n`);
    await processBench(`lore validate, ${ENTRIES} entries (whole process)`, [LORE, 'validate'], 'cold: under 1.5 s (hook target)', store.root);
    const loads: number[] = [];
    let loadPeak = 0;
    for (let i = 0; i < RUNS; i++) {
      const r = await task<{ ms: number; records: number }>(['load-validate', store.root]);
      loads.push(r.ms);
      loadPeak = Math.max(loadPeak, r.maxRssKb);
    }
    rows.push({ name: `load + validate in-process, ${ENTRIES} entries`, median: ms(percentile(loads, 50)), p95: ms(percentile(loads, 95)), memory: mb(loadPeak), target: 'figure' });

    process.stderr.write('NDJSON appends...\n');
    const single = await task<{ latencies: number[] }>(['append-single', join(dir, 'single.ndjson'), '2000']);
    rows.push({ name: 'append, 1 process (per append, fsynced)', median: ms(percentile(single.latencies, 50)), p95: ms(percentile(single.latencies, 95)), memory: mb(single.maxRssKb), target: 'figure' });

    const concurrent = join(dir, 'concurrent.ndjson');
    started = Date.now();
    await Promise.all(Array.from({ length: 8 }, (_, w) => task(['append-worker', concurrent, '1000', `w${w}`])));
    const elapsed = Date.now() - started;
    const counted = await task<{ lines: number; torn: number }>(['count-lines', concurrent]);
    rows.push({ name: `append, 8 processes × 1,000 at once (${counted.lines} lines back, ${counted.torn} torn)`, median: ms(elapsed), p95: '', memory: '', target: '8,000 lines back, none torn' });

    process.stderr.write('replay of 100,000 lines...\n');
    const log = join(dir, 'replay.ndjson');
    await task(['write-log', log, '100000']);
    const replays: number[] = [];
    let replayPeak = 0;
    for (let i = 0; i < RUNS; i++) {
      const r = await task<{ ms: number }>(['replay', log]);
      replays.push(r.ms);
      replayPeak = Math.max(replayPeak, r.maxRssKb);
    }
    rows.push({ name: 'replay, 100,000 lines (latest per id)', median: ms(percentile(replays, 50)), p95: ms(percentile(replays, 95)), memory: mb(replayPeak), target: 'under 1 s' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const header: Row = { name: 'benchmark', median: 'median', p95: 'p95', memory: 'peak RSS', target: 'target (DESIGN.md §5)' };
  const all = [header, ...rows];
  const widths = (Object.keys(header) as Array<keyof Row>).map((k) => Math.max(...all.map((r) => r[k].length)));
  const line = (r: Row): string => `| ${(Object.keys(header) as Array<keyof Row>).map((k, i) => r[k].padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\nlore bench: ${ENTRIES} entries, node ${process.version}, ${new Date().toISOString().slice(0, 10)}\n`);
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

await main();

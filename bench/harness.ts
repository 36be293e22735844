// Shared measuring helpers for `npm run bench`: whole processes, in-process tasks, figures.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const LORE = join(ROOT, 'bin/lore.js');
/** Loaded with --import: the process reports its peak resident memory on stderr as it exits. */
export const RSS_HOOK = join(ROOT, 'bench/rss-hook.mjs');

const argValue = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
export const ENTRIES = argValue('--entries', 10_000);
export const RUNS = argValue('--runs', 5);
/** The prohibitions of the peers section's second fixture (the target is for 3,000). */
export const PROHIBITIONS = argValue('--prohibitions', 3000);

export interface Row { name: string; median: string; p95: string; memory: string; target: string }
export const rows: Row[] = [];

/** Context every bench section receives. */
export interface BenchContext {
  /** A temp directory for the section's own files (removed at the end). */
  dir: string;
  /** The generated store of ENTRIES entries (a git repository). */
  store: string;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
export const ms = (n: number): string => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(n < 10 ? 2 : 1)} ms`);
export const mb = (kb: number): string => `${(kb / 1024).toFixed(0)} MiB`;

/** Adds a row from a list of timings (ms) and a peak memory (KiB). */
export function addRow(name: string, times: readonly number[], peakKb: number | undefined, target: string): void {
  rows.push({ name, median: ms(percentile(times, 50)), p95: times.length > 1 ? ms(percentile(times, 95)) : '', memory: peakKb === undefined ? '' : mb(peakKb), target });
}

export function exec(args: string[], cwd = ROOT, input?: string, env: NodeJS.ProcessEnv = {}): Promise<{ ms: number; stdout: string; stderr: string; code: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, stdout, stderr, code: code ?? -1 }));
    child.stdin.end(input ?? '');
  });
}

/** Runs any command to its end and times it: duration (ms), exit code, stdout and stderr together. */
export function timed(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): { ms: number; code: number; output: string } {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, code: result.status ?? -1, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

/** Runs `bench/<script>` with args in a fresh process; it prints one JSON line of figures last. */
export async function task<T>(script: string, args: string[]): Promise<T & { maxRssKb: number }> {
  const result = await exec([join(ROOT, 'bench', script), ...args]);
  if (result.code !== 0) throw new Error(`bench task ${script} ${args[0]} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop()!) as T & { maxRssKb: number };
}

/** Adds a row of counts (not timings): the figure, a note (shown as p95), the target. */
export function addFigure(name: string, figure: string, note: string, target: string): void {
  rows.push({ name, median: figure, p95: note, memory: '', target });
}

/** The peak resident memory a process run with `--import RSS_HOOK` reported on stderr (KiB), or 0. */
export const reportedPeak = (stderr: string): number => Number(/__maxrss_kb=(\d+)/.exec(stderr)?.[1] ?? 0);

/** A whole process to time again and again (`node --import RSS_HOOK ...args`): each run's time, and the peak memory of all. */
export function wholeProcess(args: string[], cwd: string, input?: string, env: NodeJS.ProcessEnv = {}): { step: () => Promise<number>; peak: () => number } {
  let peak = 0;
  return {
    step: async () => {
      const result = await exec(['--import', RSS_HOOK, ...args], cwd, input, env);
      // 1 is an answer (check-plan's blocked plan); anything else is a failure, a signal included (-1).
      if (result.code !== 0 && result.code !== 1) throw new Error(`node ${args.join(' ')} in ${cwd}: exit ${result.code}\n${result.stderr}`);
      peak = Math.max(peak, reportedPeak(result.stderr));
      return result.ms;
    },
    peak: () => peak,
  };
}

/**
 * Runs every step once per round, in turn (A B C A B C ...), for `runs` rounds after one round
 * that is not counted: pairing keeps a ratio meaningful while the machine's speed drifts. The
 * times of each step, in round order.
 */
export async function interleave(steps: ReadonlyArray<() => number | Promise<number>>, runs: number): Promise<number[][]> {
  for (const step of steps) await step();
  const times = steps.map((): number[] => []);
  for (let round = 0; round < runs; round++) for (const [i, step] of steps.entries()) times[i]!.push(await step());
  return times;
}

/** The ratio of two interleaved series: the median of the per-round ratios, and the ratio of the medians. */
export const ratios = (a: readonly number[], b: readonly number[]): { paired: number; medians: number } => ({
  paired: percentile(a.map((x, i) => x / b[i]!), 50),
  medians: percentile(a, 50) / percentile(b, 50),
});

/** Times a whole process `runs` times and adds a row; returns the median. */
export async function processBench(name: string, args: string[], target: string, cwd = ROOT, runs = RUNS, input?: string): Promise<number> {
  const times: number[] = [];
  let peak = 0;
  for (let i = 0; i < runs; i++) {
    const result = await exec(['--import', RSS_HOOK, ...args], cwd, input);
    times.push(result.ms);
    peak = Math.max(peak, reportedPeak(result.stderr));
  }
  addRow(name, times, peak, target);
  return percentile(times, 50);
}

/** Prints the figures as a markdown table. */
export function printTable(): void {
  const header: Row = { name: 'benchmark', median: 'median', p95: 'p95', memory: 'peak RSS', target: 'target (DESIGN.md §5)' };
  const all = [header, ...rows];
  const keys = Object.keys(header) as Array<keyof Row>;
  const widths = keys.map((k) => Math.max(...all.map((r) => r[k].length)));
  const line = (r: Row): string => `| ${keys.map((k, i) => r[k].padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\nlore bench: ${ENTRIES} entries, node ${process.version}, ${new Date().toISOString().slice(0, 10)}\n`);
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

/**
 * The environment of a project that installed lore: `lore` on PATH (a link in `dir`/bin, as npm
 * makes one), run by the hook `lore hook install` writes; a commit identity.
 */
export function loreOnPath(dir: string): NodeJS.ProcessEnv {
  const shims = join(dir, 'bin');
  mkdirSync(shims);
  symlinkSync(LORE, join(shims, 'lore'));
  return {
    PATH: `${shims}:${process.env.PATH ?? ''}`,
    GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'b@example.com', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'b@example.com',
  };
}

/** `lore hook install` in `repo`, with `env` (loreOnPath's). */
export async function installHook(repo: string, env: NodeJS.ProcessEnv): Promise<void> {
  const result = await exec([LORE, 'hook', 'install'], repo, undefined, env);
  if (result.code !== 0) throw new Error(`lore hook install in ${repo}: exit ${result.code}\n${result.stdout}${result.stderr}`);
}

/**
 * `lore serve` in `repo`, answering its commit hook: resolves once it says so. `answered()` counts
 * the hooks it answered (every measured commit must be one), `stop()` ends it and resolves once it exited.
 */
export async function served(repo: string, env: NodeJS.ProcessEnv, log: string): Promise<{ answered(): number; stop(): Promise<void> }> {
  const fd = openSync(log, 'w');
  const child = spawn(process.execPath, [LORE, 'serve', '--port', '0', '--no-ui'], { cwd: repo, env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const text = (): string => readFileSync(log, 'utf8');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  for (let waited = 0; !/answers the pre-commit hook of /.test(text()); waited += 50) {
    if (waited > 30_000 || child.exitCode !== null) {
      await stop();
      throw new Error(`lore serve in ${repo} did not answer the hook:\n${text()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { answered: () => text().split('\n').filter((line) => /answered a commit hook in /.test(line)).length, stop };
}


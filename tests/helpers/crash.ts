// kill -9 at random moments during an operation that writes many files, then check that the store
// holds all of the operation or none of it, and that `lore validate` finds it valid. Used by the
// crash tests and by the bench's "concurrency and crashes" section.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LORE_BIN, loreInProcess } from './cli.js';
import { testEnv, writeFiles } from './temp.js';

export interface CrashCase {
  name: string;
  /** The store's files before the operation. */
  files: Record<string, string>;
  /** `lore` arguments of the operation. */
  args: string[];
  /** What the store holds afterwards: 'none' (as before), 'all' (as after), or a description of a partial state. */
  outcome(root: string): string;
}

export interface CrashSummary {
  runs: number;
  /** Runs after which the store held none of the operation, and all of it. */
  none: number;
  all: number;
  /** Runs that left something else, described. */
  partial: string[];
  /** Runs after which `lore validate` reported errors (or failed). */
  invalid: string[];
  /** How long the operation takes uninterrupted, `parallel` at once (ms): kills fall from 0.4 to 1.3 times this. */
  durationMs: number;
}

/** A PRNG with a seed, so a failing run can be repeated. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function run(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [LORE_BIN, ...args], { cwd, env: testEnv(), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

/** Runs the operation, killing it with SIGKILL after `delayMs` (when it is still running); resolves when it has exited. */
function runAndKill(args: string[], cwd: string, delayMs: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [LORE_BIN, ...args], { cwd, env: testEnv(), stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function freshStore(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'lore-crash-'));
  writeFiles(root, files);
  return root;
}

/**
 * Kills the operation `runs` times at random moments (`parallel` stores at once) and reports the
 * outcomes. Calibrates first with an uninterrupted run, which must leave 'all'.
 */
export async function crashRuns(c: CrashCase, options: { runs: number; seed: number; parallel?: number }): Promise<CrashSummary> {
  const random = seeded(options.seed);
  const parallel = options.parallel ?? 2;
  // Calibrated under the same load as the killed runs, so the kills spread over the whole operation.
  const calibrations = await Promise.all(Array.from({ length: parallel }, async () => {
    const root = freshStore(c.files);
    const started = performance.now();
    const whole = await run(c.args, root);
    const ms = performance.now() - started;
    const complete = c.outcome(root);
    rmSync(root, { recursive: true, force: true });
    if (whole.code !== 0 || complete !== 'all') throw new Error(`${c.name}: the uninterrupted run left "${complete}" (exit ${whole.code}): ${whole.stderr}`);
    return ms;
  }));
  const durationMs = Math.max(...calibrations);
  const summary: CrashSummary = { runs: options.runs, none: 0, all: 0, partial: [], invalid: [], durationMs };
  // Most of the first half is Node starting and lore loading: the kills fall from 0.4 to 1.3 times the duration.
  const delays = Array.from({ length: options.runs }, () => (0.4 + random() * 0.9) * durationMs);
  const one = async (delay: number): Promise<void> => {
    const root = freshStore(c.files);
    try {
      await runAndKill(c.args, root, delay);
      // Opening the store completes or undoes the interrupted operation: validate sees the result.
      // Any opener does it, lore serve too: validate runs in this process (the kill is what needs one).
      const validate = await loreInProcess(['validate', '--json'], { cwd: root });
      const report = (() => {
        try {
          return JSON.parse(validate.stdout) as { errors: number; problems: Array<{ file: string; message: string; severity: string }> };
        } catch {
          return undefined;
        }
      })();
      if (validate.code !== 0 || report === undefined || report.errors > 0) summary.invalid.push(`killed at ${delay.toFixed(0)} ms: lore validate exit ${validate.code}: ${validate.stdout.slice(0, 400)}${validate.stderr.slice(0, 400)}`);
      const outcome = c.outcome(root);
      if (outcome === 'none') summary.none++;
      else if (outcome === 'all') summary.all++;
      else summary.partial.push(`killed at ${delay.toFixed(0)} ms: ${outcome}`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
  for (let i = 0; i < delays.length; i += parallel) await Promise.all(delays.slice(i, i + parallel).map(one));
  return summary;
}

// Runs the built CLI as a real child process, the way people and agents run it, or in this process
// through the same compiled run() that `lore serve` runs the hook with.
import { execFile } from 'node:child_process';
import { cpSync, symlinkSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir, testEnv } from './temp.js';

export const LORE_BIN = fileURLToPath(new URL('../../bin/lore.js', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Written to stdin; stdin is closed either way. */
  input?: string;
}

/** This checkout of lore: tests run lore in temporary directories, never here. */
const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));

/** A copy of this package as npm installs it (its node_modules linked), for a test that changes one of its files; its CLI is bin/lore.js. */
export function copyPackage(t: TestContext): string {
  const pkg = tempDir(t, 'lore-pkg-');
  for (const part of ['bin', 'dist', 'schemas', 'data', 'packs', 'package.json']) cpSync(join(REPOSITORY, part), join(pkg, part), { recursive: true, preserveTimestamps: true });
  symlinkSync(join(REPOSITORY, 'node_modules'), join(pkg, 'node_modules'));
  return pkg;
}

/** Commands that only read, which a test may run on this repository's own store. */
const READ_ONLY = new Set(['status', 'validate', 'list', 'show', 'query', '--help', '--version']);

/**
 * Refuses to run a command that may write in this repository's working tree (a test that ran
 * `lore hook install` here once left a line in hooks/pre-commit).
 */
export function assertNotInRepository(args: readonly string[], cwd: string): void {
  const inside = resolve(cwd) === resolve(REPOSITORY) || resolve(cwd).startsWith(resolve(REPOSITORY) + sep);
  if (inside && !READ_ONLY.has(args[0] ?? '')) {
    throw new Error(`a test ran "lore ${args.join(' ')}" in ${cwd}, inside lore's own checkout: run it in a temporary directory (tests/helpers/temp.ts)`);
  }
}

/** Runs `lore <args>`; never throws on a non-zero exit. */
export function lore(args: string[], options: RunOptions): Promise<CliResult> {
  assertNotInRepository(args, options.cwd);
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [LORE_BIN, ...args], { cwd: options.cwd, env: options.env ?? testEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number') return reject(error);
      resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr });
    });
    // The child may exit before reading its input; that is not a test failure.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.input ?? '');
  });
}

/** A stream that keeps what is written to it, as a pipe would deliver it (not a terminal). */
class Collect extends Writable {
  private readonly chunks: Buffer[] = [];
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    done();
  }
  async text(): Promise<string> {
    await new Promise<void>((resolve) => this.end(resolve));
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/**
 * Runs `lore <args>` in this process: bin/lore.js's compiled run(), with the cwd, env and stdin a
 * child would get, as `lore serve` runs the hook (the folders on the way into .knowledge/ looked at
 * again, as a new process would). It saves a process start, about 250 ms of CPU a run, for a test
 * of what a command does and prints. A test of what a process does (a signal, a kill -9, a lock a
 * dead process held, several at once) runs `lore`; `lore hook pre-commit` always runs as one.
 */
export async function loreInProcess(args: string[], options: RunOptions): Promise<CliResult> {
  // The hook is a process of its own: bin/lore.js starts git's reads for it before the CLI loads.
  if (args[0] === 'hook' && args[1] === 'pre-commit') return lore(args, options);
  assertNotInRepository(args, options.cwd);
  // What Node reads of its environment when it starts cannot change for one command in this process.
  const fixed = Object.keys(options.env ?? {}).filter((name) => /^(LC_\w+|TZ|NODE_\w+|UV_\w+)$/.test(name) || (name === 'LANG' && options.env![name] !== testEnv().LANG));
  if (fixed.length > 0) throw new Error(`lore ${args.join(' ')} sets ${fixed.join(', ')}, which only a process of its own starts with: run it with lore(), not inProcess`);
  const [{ run }, { forgetCheckedDirs }] = await Promise.all([import('../../dist/cli/main.js'), import('../../dist/fs/no-follow.js')]);
  forgetCheckedDirs();
  const stdout = new Collect();
  const stderr = new Collect();
  const stdin = Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]);
  const code = await run(args, { cwd: options.cwd, env: options.env ?? testEnv(), stdout, stderr, stdin });
  return { code, stdout: await stdout.text(), stderr: await stderr.text() };
}

type Runner = (args: string[], options: RunOptions) => Promise<CliResult>;

/** `run` with --json, its stdout parsed. */
function jsonOf(run: Runner) {
  return async <T = unknown>(args: string[], options: RunOptions): Promise<{ code: number; json: T; stderr: string }> => {
    const result = await run([...args, '--json'], options);
    try {
      return { code: result.code, json: JSON.parse(result.stdout) as T, stderr: result.stderr };
    } catch {
      throw new Error(`lore ${args.join(' ')} --json printed no JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
    }
  };
}

/** Runs lore and parses its stdout as JSON. */
export const loreJson = jsonOf(lore);

/** lore and loreJson in this process (loreInProcess). */
export const inProcess = { lore: loreInProcess, loreJson: jsonOf(loreInProcess) };

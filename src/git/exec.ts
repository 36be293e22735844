// Where lore runs git (and objects.ts its `cat-file --batch`). Plain `git`, spawned or exec'd by a
// stub (_start.ts), never through a shell, so paths and refs can never be interpreted as commands. Every run reads objects and
// history as the repository stores them: `git replace` refs and the deprecated graft file are
// ignored, so a replaced blob, tree or commit, or a commit given other parents, cannot show lore
// other content or another range than what the commits record.
import { LoreError } from '../errors.js';
import { couldNotStart, startGit, type StartedGit } from './_start.js';

export { gitArgv, gitEnv, keepGitStubs } from './_start.js';

export interface GitOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Largest output accepted (default 256 MiB). */
  maxBuffer?: number;
}

/** Commands started before the code that needs them had loaded (see prestartGit), by cwd and arguments. */
const prestarted = new Map<string, { env: NodeJS.ProcessEnv; output: Promise<string> }>();

const prestartKey = (args: readonly string[], cwd: string): string => `${cwd}\0${args.join('\0')}`;

/**
 * Starts a git command now, so git works while Node is still loading the code that wants its
 * output: the next `git` call with the same arguments, cwd and env takes this run instead of
 * starting another. Nothing is lost when nobody takes it. With `after`, the command starts once
 * that settles (a caller taking it meanwhile waits for it).
 */
export function prestartGit(args: readonly string[], options: GitOptions, after?: Promise<unknown>): void {
  const output = after === undefined ? run(args, options) : after.then(() => run(args, options), () => run(args, options));
  // The caller that takes it sees the failure; until then it must not count as unhandled.
  output.catch(() => undefined);
  prestarted.set(prestartKey(args, options.cwd), { env: options.env ?? process.env, output });
}

/** Drops the commands prestarted with `env` that nobody took. */
export function forgetPrestartedGit(env: NodeJS.ProcessEnv): void {
  for (const [key, run] of prestarted) if (run.env === env) prestarted.delete(key);
}

/** Runs git and returns its stdout; a failure becomes a GIT error with git's own message. */
export function git(args: readonly string[], options: GitOptions): Promise<string> {
  const key = prestartKey(args, options.cwd);
  const early = prestarted.get(key);
  if (early !== undefined && early.env === (options.env ?? process.env)) {
    prestarted.delete(key);
    return early.output;
  }
  return run(args, options);
}

function run(args: readonly string[], options: GitOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const max = options.maxBuffer ?? 256 * 1024 * 1024;
    collect(args, startGit(args, options, false), max, reject, (stdout) => resolve(stdout.toString('utf8')));
  });
}

/**
 * Gathers what a started git prints, gives it `input` on stdin (none: stdin closed), and calls
 * `done` with its stdout once it exits 0. A failure to start, another exit and output past `max`
 * (git is stopped) are `failed`, with git's own message when it printed one.
 */
function collect(args: readonly string[], started: StartedGit, max: number, failed: (error: LoreError) => void, done: (stdout: Buffer) => void, input?: string): void {
  const { child } = started;
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let size = 0;
  let ran = true;
  child.stdout!.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > max) child.kill();
    else out.push(chunk);
  });
  child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
  child.on('error', (error) => {
    ran = false;
    failed(new LoreError('GIT', `could not run git: ${error.message}`, { cause: error }));
  });
  child.on('close', (code, signal) => {
    if (!ran) return;
    if (size > max) return failed(new LoreError('GIT', `git ${args.slice(0, 3).join(' ')} printed more than ${max} bytes`));
    if (code === 0) return done(Buffer.concat(out));
    const unstarted = couldNotStart(started, code, Buffer.concat(err));
    if (unstarted !== undefined) return failed(new LoreError('GIT', `could not run git: ${unstarted}`));
    const detail = Buffer.concat(err).toString('utf8').trim().split('\n').slice(0, 5).join('; ') || (signal === null ? `exit code ${code}` : `stopped by ${signal}`);
    failed(new LoreError('GIT', `git ${args.slice(0, 3).join(' ')} failed: ${detail}`, { cause: { exitCode: signal === null ? code : undefined } }));
  });
  // git may exit before reading all of stdin (an unknown object id): not an error of ours.
  child.stdin!.on('error', () => undefined);
  child.stdin!.end(input);
}

/** The exit code of the git run that failed with `error` (git ran and said no); undefined for any other failure. */
export function gitExitCode(error: unknown): number | undefined {
  const cause = error instanceof LoreError && error.code === 'GIT' ? (error.cause as { exitCode?: unknown } | undefined) : undefined;
  return typeof cause?.exitCode === 'number' ? cause.exitCode : undefined;
}

/** The top-level directory of the work tree holding `cwd`, or undefined outside a repository. */
export async function gitTopLevel(cwd: string, env?: NodeJS.ProcessEnv): Promise<string | undefined> {
  try {
    return (await git(['rev-parse', '--show-toplevel'], { cwd, ...(env === undefined ? {} : { env }) })).trim();
  } catch {
    return undefined;
  }
}

/** "Name <email>" from git config, or undefined when neither is set. */
export async function gitUser(cwd: string, env?: NodeJS.ProcessEnv): Promise<string | undefined> {
  const get = async (key: string): Promise<string> => {
    try {
      return (await git(['config', '--get', key], { cwd, ...(env === undefined ? {} : { env }) })).trim();
    } catch {
      return '';
    }
  };
  const [name, email] = await Promise.all([get('user.name'), get('user.email')]);
  if (name === '' && email === '') return undefined;
  return email === '' ? name : name === '' ? `<${email}>` : `${name} <${email}>`;
}

/** Runs git with `input` on stdin and returns stdout as bytes (for `cat-file --batch`). */
export function gitBytes(args: readonly string[], options: GitOptions & { input?: string }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    collect(args, startGit(args, options, false), options.maxBuffer ?? 256 * 1024 * 1024, reject, resolve, options.input);
  });
}

/** Runs git with no stdin and returns its exit code and its stdout and stderr as they came, never throwing on a non-zero exit (for `git hook run`). */
export function gitOutcome(args: readonly string[], options: GitOptions): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const started = startGit(args, options, false);
    const { child } = started;
    const chunks: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      err.push(chunk);
    });
    child.on('error', (error) => reject(new LoreError('GIT', `could not run git: ${error.message}`, { cause: error })));
    child.on('close', (code, signal) => {
      // A stub that could not start git fails as spawn does: git never ran to give an outcome.
      const unstarted = couldNotStart(started, code, Buffer.concat(err));
      if (unstarted !== undefined) return reject(new LoreError('GIT', `could not run git: ${unstarted}`));
      resolve({ code: code ?? (signal === null ? 1 : 128), output: Buffer.concat(chunks).toString('utf8') });
    });
    child.stdin!.on('error', () => undefined);
    child.stdin!.end();
  });
}

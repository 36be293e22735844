// `lore serve` answers the pre-commit hook: the hook's client (a few lines of Perl in the hook
// script, guard/_hook-script.ts) sends its directory, its environment and the lore it would run,
// and the daemon runs `lore hook pre-commit` for it (main.ts run, handed down by the serve
// command): the same command with the same environment, in a process that has it loaded already.
// The client runs lore itself on anything else than a whole answer, so the daemon can only make
// the hook faster, never weaker.
//
// Who may answer: a process of the committing user's that listens in <repository>/.git/lore/run/,
// a folder of the user's own that no one else can write (the client checks the folder and the
// listener's user, the daemon makes the folder so): the same people who can change .git/hooks.
// What it answers with: the hook's own command, run only when the lore the hook would start is
// this daemon's own install, unchanged on disk since the daemon loaded it (a rebuilt or upgraded
// lore, or an updated dependency, is answered by lore itself). An error, an unknown
// request or a check that could not run is declined: the hook runs lore, which says why.
import { accessSync, chmodSync, constants, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { isErrno } from '../errors.js';
import { forgetCheckedDirs } from '../fs/no-follow.js';
import { keepGitStubs } from '../git/exec.js';
import { forgetPrestarted, prestartStagedChange } from '../guard/staged-change.js';
import { HOOK_PROTOCOL as PROTOCOL, HOOK_SOCKET } from '../guard/_hook-script.js';
import type { CliIO } from './command.js';

/** A request is the client's directory and environment: anything larger is not one. */
const MAX_REQUEST = 1024 * 1024;
/** A client sends its request at once; one that does not send it whole within this is dropped. */
const REQUEST_MS = 10_000;

const PACKAGE = fileURLToPath(new URL('../../', import.meta.url));
const OWN_BIN = join(PACKAGE, 'bin', 'lore.js');

/** The stamp of an install changed since this process started: never the stamp an answer needs. */
const CHANGED = 'changed since this process started';

/**
 * What identifies the code a process of this install runs: every file of bin/, dist/ and schemas/,
 * package.json, and the package.json of each dependency where it resolves (an update rewrites it:
 * npm replaces the folder), with its size, times and inode. Equal stamps: the files this daemon
 * loaded are the files a hook would load. Read synchronously: some 750 lstat calls take a few
 * milliseconds in a row, and several times that as promises on the thread pool.
 */
export function installStamp(root = PACKAGE): string {
  const files: string[] = [join(root, 'package.json')];
  // A walk of its own: readdir's `recursive` lists too little on early Node 20 releases, and
  // Dirent.path is gone in later ones.
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (/\.(c?js|json)$/.test(entry.name)) files.push(join(dir, entry.name));
    }
  };
  for (const dir of ['bin', 'dist', 'schemas']) walk(join(root, dir));
  files.push(...dependencyManifests(root));
  files.sort();
  const stats = files.map((file) => lstatSync(file));
  // A file changed since this process started may be newer than the code it loaded: never equal.
  if (stats.some((info) => info.ctimeMs > performance.timeOrigin)) return CHANGED;
  return files.map((file, i) => `${file}\0${stats[i]!.size}\0${stats[i]!.ctimeMs}\0${stats[i]!.mtimeMs}\0${stats[i]!.ino}`).join('\n');
}

/** The package.json of each of lore's dependencies, where Node resolves it from lore's folder (missing: where it would be, and the stamp fails). */
function dependencyManifests(root: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const paths = createRequire(join(root, 'package.json')).resolve.paths;
  return Object.keys(manifest.dependencies ?? {}).map((name) => {
    const found = (paths(name) ?? []).map((dir) => join(dir, name, 'package.json')).find((file) => existsSync(file));
    return found ?? join(root, 'node_modules', name, 'package.json');
  });
}

export interface HookRequest {
  /** The lore the hook would run, as the hook names it (a path, or a name found on PATH), and its arguments. */
  lore: string;
  args: string;
  cwd: string;
  /** Whether the hook's stdout is a terminal, and its width (0: unknown). */
  tty: boolean;
  columns: number;
  env: NodeJS.ProcessEnv;
}

/** Reads a request: NUL-separated fields ending with two NULs. Undefined when it is not one. */
export function parseRequest(bytes: Buffer): HookRequest | undefined {
  if (bytes.length < 2 || bytes[bytes.length - 1] !== 0 || bytes[bytes.length - 2] !== 0) return undefined;
  const fields = bytes.subarray(0, bytes.length - 2).toString('utf8').split('\0');
  const [protocol, lore, args, cwd, tty, columns, ...vars] = fields;
  if (protocol !== PROTOCOL || lore === undefined || lore === '' || args === undefined || cwd === undefined || !isAbsolute(cwd)) return undefined;
  if ((tty !== '0' && tty !== '1') || columns === undefined || !/^[0-9]{1,5}$/.test(columns)) return undefined;
  const env: NodeJS.ProcessEnv = {};
  for (const item of vars) {
    const at = item.indexOf('=');
    if (at <= 0) return undefined;
    env[item.slice(0, at)] = item.slice(at + 1);
  }
  return { lore, args, cwd, tty: tty === '1', columns: Number(columns), env };
}

/** The file the shell would run for `name` in the request's directory and PATH (its real path), or undefined. */
function resolveCommand(request: HookRequest, name: string): string | undefined {
  const candidates = name.includes('/')
    ? [resolve(request.cwd, name)]
    : (request.env.PATH ?? '').split(delimiter).map((dir) => resolve(request.cwd, dir === '' ? '.' : dir, name));
  for (const candidate of candidates) {
    try {
      if (statSync(candidate).isFile()) {
        accessSync(candidate, constants.X_OK);
        return realpathSync(candidate);
      }
    } catch {
      // not there, or not executable: the next one
    }
  }
  return undefined;
}

/** An answer: the exit code and what the command printed on each stream, framed with their lengths. */
function answer(code: number, stdout: Buffer, stderr: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${PROTOCOL} ${code} ${stdout.length} ${stderr.length}\n`), stdout, stderr]);
}

class Capture extends Writable {
  readonly chunks: Buffer[] = [];
  constructor(readonly isTTY: boolean, readonly columns: number | undefined) {
    super();
  }
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    done();
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export interface HookAnswerer {
  /** The socket's path. */
  path: string;
  close(): Promise<void>;
}

/** Runs a lore command in this process (main.ts run, handed down by the serve command). */
export type RunCommand = (argv: readonly string[], io: CliIO) => Promise<number>;

/** Why this daemon does not answer (undefined when it may): before the run, after it, and of the install it runs. */
interface Conditions {
  decline: (request: HookRequest) => string | undefined;
  stopping: () => string | undefined;
  changed: () => string | undefined;
}

/** Runs the hook's command for a request, or says why not. */
async function respond(request: HookRequest, conditions: Conditions, run: RunCommand): Promise<{ code: number; stdout: Buffer; stderr: Buffer } | string> {
  const why = conditions.decline(request);
  if (why !== undefined) return why;
  // As a new process would: the folders on the way into .knowledge/ are looked at again (the
  // watcher ignores .knowledge/.cache/, which a checkout may have turned into a link).
  forgetCheckedDirs();
  // As bin/lore.js does: git reads the staged change while the command parses its arguments.
  // The install is stamped while git reads the blobs, when this thread has least to do: after the
  // request came, as a lore started for it would load what is on disk then.
  const stamped = prestartStagedChange(request.cwd, request.env).then(conditions.changed);
  stamped.catch(() => undefined); // a stamp that fails declines the answer below, when the run got that far
  const stdout = new Capture(request.tty, request.columns > 0 ? request.columns : undefined);
  const stderr = new Capture(false, undefined);
  let code: number;
  try {
    code = await run(['hook', 'pre-commit'], { cwd: request.cwd, env: request.env, stdout, stderr, stdin: Readable.from([]) });
  } finally {
    // A read the check did not take (it stopped before, or ran elsewhere) is not kept for the next one.
    forgetPrestarted(request.env);
  }
  const late = conditions.stopping() ?? (await stamped);
  if (late !== undefined) return late;
  // 0 passed, 1 blocked: an answer. Anything else (the check could not run) is lore's to say.
  if (code !== 0 && code !== 1) return `the check ended with exit ${code}`;
  return { code, stdout: stdout.bytes(), stderr: stderr.bytes() };
}

/** Makes `dir` a folder of this user's that no one else can enter, or says why it cannot be one. */
function privateDir(dir: string): string | undefined {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const info = lstatSync(dir);
  if (!info.isDirectory()) return `${dir} is not a folder`;
  if (process.getuid !== undefined && info.uid !== process.getuid()) return `${dir} belongs to another user`;
  if ((info.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  return undefined;
}

/** Whether something answers on the socket at `path` (another daemon of this repository). */
function answers(path: string): Promise<boolean> {
  return new Promise((done) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      done(true);
    });
    probe.once('error', () => done(false));
  });
}

/**
 * Listens on <top>/.git/lore/run/hook.sock for the pre-commit hooks of the working tree at `top`.
 * Undefined, with the reason logged, where it cannot (no .git folder, a socket another daemon
 * answers on, a platform without Unix sockets).
 */
export async function answerHooks(top: string, run: RunCommand, log: (text: string) => void): Promise<HookAnswerer | undefined> {
  if (process.platform === 'win32') return undefined;
  try {
    return await listenForHooks(top, run, log);
  } catch (error) {
    log(`lore serve: the commit hook runs lore itself: ${(error as Error).message}`);
    return undefined;
  }
}

async function listenForHooks(top: string, run: RunCommand, log: (text: string) => void): Promise<HookAnswerer | undefined> {
  const gitDir = join(top, '.git');
  try {
    if (!lstatSync(gitDir).isDirectory()) return undefined; // a linked worktree or a submodule: its hook runs lore itself
  } catch {
    return undefined;
  }
  const path = join(top, HOOK_SOCKET);
  const dir = dirname(path);
  const problem = privateDir(dir);
  if (problem !== undefined) {
    log(`lore serve: the commit hook runs lore itself: ${problem}`);
    return undefined;
  }
  if (await answers(path)) {
    log('lore serve: another lore serve answers this repository\'s commit hook');
    return undefined;
  }
  try {
    if (lstatSync(path).isSocket()) unlinkSync(path); // left by a daemon that was killed
  } catch (error) {
    if (!isErrno(error, 'ENOENT')) throw error;
  }
  const stamp = installStamp();
  if (stamp === CHANGED) {
    log('lore serve: the commit hook runs lore itself: lore changed on disk while this daemon started (restart lore serve)');
    return undefined;
  }
  const bin = realpathSync(OWN_BIN);
  const node = realpathSync(process.execPath);
  let closed = false;
  const stopping = (): string | undefined => (closed ? 'this daemon is stopping' : undefined);
  const decline = (request: HookRequest): string | undefined => {
    if (closed) return stopping();
    if (request.args !== 'hook pre-commit') return `the hook asks for lore ${request.args}, not lore hook pre-commit`;
    const lore = resolveCommand(request, request.lore);
    if (lore !== bin) return `the hook runs ${lore ?? `${request.lore} (not found)`}, not this daemon's ${bin}`;
    // bin/lore.js starts with #!/usr/bin/env node: the hook's node, with the hook's Node options.
    const theirs = resolveCommand(request, 'node');
    if (theirs !== node) return `the hook's node is ${theirs ?? '(not found)'}, not this daemon's ${node}`;
    for (const name of ['NODE_OPTIONS', 'NODE_PATH']) {
      if (request.env[name] !== process.env[name]) return `the hook's ${name} is not this daemon's`;
    }
    return undefined;
  };
  const changed = (): string | undefined => (installStamp() === stamp ? undefined : 'lore changed on disk since this daemon started (restart lore serve)');
  // Half open: the client ends its side once it has sent, and waits for the answer on the other.
  const server: Server = createServer({ allowHalfOpen: true }, (socket) => serve(socket, { decline, stopping, changed }, run, log));
  try {
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(path, () => {
        server.off('error', fail);
        done();
      });
    });
  } catch (error) {
    log(`lore serve: the commit hook runs lore itself: cannot listen on ${path}: ${(error as Error).message}`);
    return undefined;
  }
  const ino = lstatSync(path).ino;
  // The git processes of each answer start from stubs kept waiting: no fork of this process on the hook's path.
  const stopStubs = keepGitStubs();
  return {
    path,
    close: () => new Promise<void>((done) => {
      closed = true;
      stopStubs();
      server.close(() => done());
      // Ours still (a newer daemon may have replaced it): remove it, so no hook knocks on a closed door.
      try {
        if (lstatSync(path).ino === ino) unlinkSync(path);
      } catch {
        // gone already
      }
    }),
  };
}

function serve(socket: Socket, conditions: Conditions, run: RunCommand, log: (text: string) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  const timer = setTimeout(() => socket.destroy(), REQUEST_MS);
  const end = (text: Buffer | string): void => {
    clearTimeout(timer);
    socket.end(text);
  };
  socket.on('error', () => {
    clearTimeout(timer);
    socket.destroy();
  });
  socket.on('data', (chunk: Buffer) => {
    if (done) return;
    chunks.push(chunk);
    size += chunk.length;
    if (size > MAX_REQUEST) {
      done = true;
      end(`${PROTOCOL} declined\n`);
      return;
    }
    // A request ends with two NULs (they may come in two chunks).
    if (chunk[chunk.length - 1] !== 0) return;
    const bytes = Buffer.concat(chunks, size);
    if (bytes.length < 2 || bytes[bytes.length - 2] !== 0) return;
    done = true;
    clearTimeout(timer);
    const request = parseRequest(bytes);
    if (request === undefined) {
      end(`${PROTOCOL} declined\n`);
      return;
    }
    const started = performance.now();
    respond(request, conditions, run).then((result) => {
      if (typeof result === 'string') {
        log(`lore serve: declined a commit hook in ${request.cwd}: ${result}`);
        end(`${PROTOCOL} declined\n`);
        return;
      }
      log(`lore serve: answered a commit hook in ${request.cwd}: ${result.code === 0 ? 'passed' : 'blocked'} (${Math.round(performance.now() - started)} ms)`);
      end(answer(result.code, result.stdout, result.stderr));
    }, (error: unknown) => {
      log(`lore serve: declined a commit hook in ${request.cwd}: ${(error as Error)?.message ?? String(error)}`);
      end(`${PROTOCOL} declined\n`);
    });
  });
}

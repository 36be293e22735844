// An inter-process lock (a log's, the store's): a lock file created exclusively (by link), holding
// who took it. A lock left by a dead process is broken, carefully, so that two waiters breaking it
// at once cannot both end up holding it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isErrno, LoreError } from '../errors.js';
import { isRunning, thisProcess } from './process.js';
import { assertNoSymlinkedDirs } from '../fs/no-follow.js';

export interface LockOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /**
   * A lock taken on another host (a shared file system, where liveness cannot be checked) is
   * stale after this long (default 30 s). On this host a lock is stale exactly when its holder
   * is gone, however long it has been held.
   */
  staleMs?: number;
  /** What the lock protects, for the timeout message (default: the target's path). */
  label?: string;
}

export interface Holder {
  pid: number;
  host: string;
  nonce: string;
  time: string;
  /** When the holder process started (Linux), so a reused pid is not mistaken for the holder. */
  started?: string;
}

async function readHolder(path: string): Promise<Holder | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Holder;
  } catch {
    return undefined; // missing, or being written this very moment
  }
}

/** Whether a path exists (lstat: a lock is never followed). */
async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

async function isStale(path: string, staleMs: number): Promise<Holder | 'unreadable-stale' | undefined> {
  const holder = await readHolder(path);
  if (holder !== undefined) {
    // A live holder on this host may take as long as it needs (an import of 10,000 entries).
    if (holder.host === hostname()) return isRunning(holder) === true ? undefined : holder;
    return Date.now() - Date.parse(holder.time) > staleMs ? holder : undefined;
  }
  try {
    return Date.now() - (await stat(path)).mtimeMs > staleMs ? 'unreadable-stale' : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Moves a stale lock aside; if what was moved turns out to be a fresh lock, puts it back. Exported
 * for the tests.
 *
 * The holder is read again first: a holder that released the lock and exited between the waiter's
 * read and its liveness check looks dead, and the lock now in place is the next holder's. Moving
 * that one aside and back would leave the path empty for an instant, in which a third waiter could
 * take the lock while the second still holds it: two writers at once, and a lost write.
 */
export async function breakLock(path: string, stale: Holder | 'unreadable-stale'): Promise<'broken' | 'changed'> {
  if (stale !== 'unreadable-stale' && (await readHolder(path))?.nonce !== stale.nonce) return 'changed';
  const aside = `${path}.${randomBytes(6).toString('hex')}.stale`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return 'changed';
    throw error;
  }
  const moved = await readHolder(aside);
  let result: 'broken' | 'changed' = 'broken';
  if (stale !== 'unreadable-stale' && moved !== undefined && moved.nonce !== stale.nonce) {
    // Another waiter broke the stale lock and took a new one in between: restore it.
    await link(aside, path).catch(() => undefined);
    result = 'changed';
  }
  await unlink(aside).catch(() => undefined);
  return result;
}

/**
 * The callers of this process that want each lock, in order: only the first of them tries the
 * lock file; the others wait for it in memory. A hundred calls at once in one server would
 * otherwise poll the file together, and the polling would starve the holder.
 */
const queues = new Map<string, Promise<void>>();

/** The locks the current flow of calls holds: taking one of them again would wait for itself. */
const held = new AsyncLocalStorage<ReadonlySet<string>>();

/**
 * Runs `fn` while holding the lock `<target>.lock`: first in this process (callers take turns,
 * in order), then across processes (the lock file). The timeout counts from this caller's turn.
 */
export async function withLock<T>(target: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const path = resolve(`${target}.lock`);
  const mine = held.getStore() ?? new Set<string>();
  if (mine.has(path)) throw new Error(`lore: ${path} is already held by this call: a lock is not re-entrant`);
  const before = queues.get(path) ?? Promise.resolve();
  let done!: () => void;
  const finished = new Promise<void>((resolveDone) => (done = resolveDone));
  const turn = before.then(() => finished);
  queues.set(path, turn);
  try {
    await before;
    return await held.run(new Set([...mine, path]), () => withLockFile(path, fn, options));
  } finally {
    done();
    if (queues.get(path) === turn) queues.delete(path);
  }
}

async function withLockFile<T>(path: string, fn: () => Promise<T>, options: LockOptions): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const holder: Holder = { ...thisProcess(), nonce: randomBytes(8).toString('hex'), time: new Date().toISOString() };
  const started = Date.now();
  // Before mkdir, which would follow a symlinked folder of the store and create folders (and the
  // lock) wherever it points.
  assertNoSymlinkedDirs(path);
  await mkdir(dirname(path), { recursive: true });
  // The holder is written first and linked into place, so a lock never exists without its
  // contents, even when its taker is killed at any instruction. A waiter writes it once (again
  // only if it waited long, so that its time says when it took the lock, within a second), tries
  // the link only when the lock looks free, and checks the holder's liveness at most every 25 ms:
  // eight processes appending at once spent more time polling than writing.
  const temp = join(dirname(path), `.lock-${holder.nonce}.tmp`);
  let written = -Infinity;
  let checked = -Infinity;
  try {
    for (let attempt = 0; ; attempt++) {
      if (attempt === 0 || !(await exists(path))) {
        if (Date.now() - written > 1000) {
          holder.time = new Date().toISOString();
          await writeFile(temp, JSON.stringify(holder));
          written = Date.now();
        }
        try {
          await link(temp, path);
          break;
        } catch (error) {
          if (!isErrno(error, 'EEXIST')) throw error;
        }
      }
      if (Date.now() - checked >= 25) {
        checked = Date.now();
        const stale = await isStale(path, staleMs);
        if (stale !== undefined) {
          await breakLock(path, stale);
          continue;
        }
      }
      if (Date.now() - started > timeoutMs) {
        const current = await readHolder(path);
        const who = current === undefined ? 'another process' : `process ${current.pid} on ${current.host} since ${current.time}`;
        throw new LoreError('LOCK_TIMEOUT', `could not lock ${options.label ?? path.slice(0, -".lock".length)} within ${timeoutMs} ms: it is held by ${who}`, {
          hint: `if no lore process is running, delete ${path}`,
        });
      }
      // Short waits: a write holds the lock for milliseconds, and a waiter that sleeps long leaves it idle.
      await sleep(Math.min(10, 1 + attempt) + Math.random() * 3);
    }
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  try {
    return await fn();
  } finally {
    // Release only our own lock: if it was broken as stale and retaken, it is no longer ours.
    const current = await readHolder(path);
    if (current?.nonce === holder.nonce) await unlink(path).catch(() => undefined);
  }
}

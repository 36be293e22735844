// An inter-process lock (a log's, the store's): a lock file created exclusively (by link), holding
// who took it. A lock left by a dead process is broken, carefully, so that two waiters breaking it
// at once cannot both end up holding it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';
import { link, lstat, mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isErrno, LoreError } from '../errors.js';
import { isRunning, thisProcess } from './process.js';
import { assertNoSymlinkedDirs } from '../fs/no-follow.js';
import { readCapped } from '../fs/read-text.js';

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

/** The most a holder file may be: a few hundred bytes are written; anything larger is not one. */
const MAX_HOLDER_BYTES = 64 * 1024;

async function readHolder(path: string): Promise<Holder | undefined> {
  try {
    // Never through a symlink, never more than a holder is: a lock planted as a link to a device or
    // to someone else's file is unreadable, and broken once stale.
    const read = readCapped(path, MAX_HOLDER_BYTES);
    return 'bytes' in read ? (JSON.parse(read.bytes.toString('utf8')) as Holder) : undefined;
  } catch {
    return undefined; // missing, a link, or being written this very moment
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
    return Date.now() - (await lstat(path)).mtimeMs > staleMs ? 'unreadable-stale' : undefined;
  } catch {
    return undefined;
  }
}

/** The name of a claim to break a stale lock (`<lock>.break-<nonce>[-<nonce>...]`, see breakLock). */
export const BREAK_CLAIM = /\.lock\.break-[0-9a-z-]+$/;

/**
 * Breaks a stale lock; exported for the tests. 'busy' when another process is breaking it.
 *
 * Only one process breaks a given holder's lock: the one that links `<lock>.break-<nonce>` into
 * place (a claim, holding who made it). Waiters that saw the same dead holder and moved the lock
 * aside at once could otherwise move aside the lock a third one had just taken, and while that one
 * was put back a fourth could take the empty path: two holders at once. A claim whose maker is
 * gone (killed while breaking) is claimed in turn, one level down (`<claim>-<its nonce>`). With
 * the claim, the holder is read again (one that released the lock and exited between the waiter's
 * read and its liveness check looks dead, and the lock now in place is the next holder's), then the
 * lock is moved aside and checked once more: a holder on another host, judged stale by age, may
 * still release it in between, and then what was moved is put back.
 */
export async function breakLock(path: string, stale: Holder | 'unreadable-stale', staleMs = 30_000): Promise<'broken' | 'changed' | 'busy'> {
  let key: string;
  try {
    key = stale === 'unreadable-stale' ? `i${(await lstat(path)).ino}` : stale.nonce;
  } catch {
    return 'changed';
  }
  if (!/^[0-9a-z]{1,32}$/.test(key)) key = createHash('sha1').update(key).digest('hex').slice(0, 16);
  const claims = await claim(`${path}.break-${key}`, staleMs);
  if (claims === undefined) return 'busy';
  try {
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
      await link(aside, path).catch(() => undefined);
      result = 'changed';
    }
    await unlink(aside).catch(() => undefined);
    return result;
  } finally {
    // The deepest first: a claim left by a killed breaker goes too, once its lock is dealt with.
    for (const name of claims.reverse()) await unlink(name).catch(() => undefined);
  }
}

/**
 * Takes the claim `name` (linked from a file written whole, so a claim is never seen empty), or
 * the one below it when its maker is gone; the names taken and passed through, or undefined when
 * a live process holds the claim.
 */
async function claim(name: string, staleMs: number): Promise<string[] | undefined> {
  const mine: Holder = { ...thisProcess(), nonce: randomBytes(8).toString('hex'), time: new Date().toISOString() };
  const temp = join(dirname(name), `.lock-${mine.nonce}.tmp`);
  await writeFile(temp, JSON.stringify(mine));
  try {
    const chain: string[] = [];
    for (let level = name; chain.length < 8; ) {
      try {
        await link(temp, level);
        return [...chain, level];
      } catch (error) {
        if (!isErrno(error, 'EEXIST')) throw error;
      }
      const maker = await isStale(level, staleMs);
      if (maker === undefined) return undefined;
      chain.push(level);
      level = `${level}-${maker === 'unreadable-stale' ? 'x' : maker.nonce.replace(/[^0-9a-z]/g, '').slice(0, 32)}`;
    }
    return undefined;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
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
  // contents, even when its taker is killed at any instruction. A waiter polls with one lstat and
  // writes its holder file only when the lock looks free: eight processes appending at once spent
  // more time writing and linking than holding the lock, and a holder file kept for the whole wait
  // would be left behind by a waiter killed meanwhile (beside a user's file, for the graph's memory
  // file backend). The holder's liveness is checked at most every 25 ms.
  const temp = join(dirname(path), `.lock-${holder.nonce}.tmp`);
  let checked = -Infinity;
  for (let attempt = 0; ; attempt++) {
    if (attempt === 0 || !(await exists(path))) {
      holder.time = new Date().toISOString();
      try {
        await writeFile(temp, JSON.stringify(holder));
        await link(temp, path);
        break;
      } catch (error) {
        if (!isErrno(error, 'EEXIST')) throw error;
      } finally {
        await unlink(temp).catch(() => undefined);
      }
    }
    if (Date.now() - checked >= 25) {
      checked = Date.now();
      const stale = await isStale(path, staleMs);
      if (stale !== undefined) {
        if ((await breakLock(path, stale, staleMs)) !== 'busy') continue;
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
  try {
    return await fn();
  } finally {
    // Release only our own lock: if it was broken as stale and retaken, it is no longer ours.
    const current = await readHolder(path);
    if (current?.nonce === holder.nonce) await unlink(path).catch(() => undefined);
  }
}

// Every write to the store's records goes through here: serialized by the store's write lock
// (`.knowledge/.write.lock`), and all or nothing across a crash. A transaction that touches more
// than one file stages each new file next to its target, records the plan in a journal
// (`.knowledge/.journal.json`), then renames; whoever next takes the lock rolls an interrupted
// plan forward (when the journal was complete) or back (when it was not), so a `kill -9` at any
// instruction leaves all of an operation's files or none of them.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { constants, lstatSync } from 'node:fs';
import { access, lstat, open, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, posix, relative, resolve, sep } from 'node:path';
import { isErrno, LoreError } from '../errors.js';
import { fsyncDir, makeFolder, unlinkDurable, writeFileAtomic } from '../fs/atomic-write.js';
import { assertNoSymlinkedDirs, assertRealDir } from '../fs/no-follow.js';
import { readCapped } from '../fs/read-text.js';
import { withLock } from '../log/lock.js';
import { isRunning, thisProcess } from '../log/process.js';
import { appendVersions } from '../log/ndjson.js';
import { knowledgeDir } from './layout.js';

/** How long a writer waits for another to finish before giving up (with who holds the lock). */
export const WRITE_LOCK_TIMEOUT_MS = 30_000;

/** How many staged files are written and fsynced at once. */
const STAGE_PARALLEL = 8;

/** Progress of a long commit, for a progress line: files staged, then renamed. */
export type WriteProgress = (done: number, total: number, what: string) => void;

/** The lock and journal files, relative to `.knowledge/`. */
export const WRITE_LOCK = '.write.lock';
export const JOURNAL = '.journal.json';
/** The largest journal lore reads: one of an import of 100,000 entries is about 20 MB. */
const MAX_JOURNAL_BYTES = 256 * 1024 * 1024;
/** Staged files carry this in their name: `.<name>.<id>.txn.tmp`. */
const STAGED_SUFFIX = '.txn.tmp';

interface Journal {
  version: 1;
  id: string;
  /** What was being done, for people (`lore graph apply`). */
  operation: string;
  pid: number;
  /** The host and start time of the process applying it: while it runs, readers leave its journal alone. */
  host?: string;
  started?: string;
  time: string;
  /** prepare: staging had begun (roll back); commit: every staged file is durable (roll forward). */
  state: 'prepare' | 'commit';
  /** Paths relative to `.knowledge/`. */
  writes: Array<{ path: string; staged: string }>;
  deletes: string[];
  /** Log lines to append; their ids make appending them twice harmless (replay keeps one per id). */
  appends: Array<{ log: string; records: object[] }>;
}

/** What a recovery did, for a note to the user. */
export interface Recovery {
  operation: string;
  pid: number;
  action: 'completed' | 'undone';
  files: number;
}

/** A folder is listed once this many of its files were asked about: one readdir instead of thousands of lstats. */
const LIST_AFTER = 16;

/** The files one operation writes, deletes and appends to; applied together by writeStore. */
export class StoreTransaction {
  /** Absolute path → new content, or null to delete. */
  readonly files = new Map<string, string | null>();
  readonly appends: Array<{ log: string; records: object[] }> = [];
  /** Folder → its names (listed under the write lock, so they hold until the commit), or how many lookups it had. */
  private readonly listings = new Map<string, Set<string> | number>();

  constructor(readonly root: string) {}

  /** Stages `text` as the new content of `path` (absolute, inside `.knowledge/`). */
  write(path: string, text: string): void {
    this.files.set(this.inside(path), text);
  }

  /** Stages the deletion of `path` (absolute, inside `.knowledge/`). */
  delete(path: string): void {
    this.files.set(this.inside(path), null);
  }

  /** Stages lines to append to a log (absolute path); lines must carry stable ids. */
  append(log: string, records: readonly object[]): void {
    if (records.length > 0) this.appends.push({ log: this.inside(log), records: [...records] });
  }

  /** The content this transaction gives `path`: staged text, null when staged for deletion, undefined when untouched. */
  staged(path: string): string | null | undefined {
    return this.files.get(resolve(path));
  }

  /**
   * Whether `path` exists as this transaction leaves it: staged, else on disk. A symlink counts (reading
   * it is refused later); a folder asked about often is listed once, for bulk writes.
   */
  async exists(path: string): Promise<boolean> {
    const absolute = resolve(path);
    const staged = this.files.get(absolute);
    if (staged !== undefined) return staged !== null;
    const dir = dirname(absolute);
    const known = this.listings.get(dir);
    if (known instanceof Set) return known.has(basename(absolute));
    this.inside(absolute); // a listed folder was checked before it was listed
    if ((known ?? 0) >= LIST_AFTER) {
      const names = await listFolder(dir);
      this.listings.set(dir, names);
      return names.has(basename(absolute));
    }
    this.listings.set(dir, (known ?? 0) + 1);
    assertNoSymlinkedDirs(absolute);
    try {
      await lstat(absolute);
      return true;
    } catch (error) {
      if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return false;
      throw error;
    }
  }

  private inside(path: string): string {
    const absolute = resolve(path);
    const rel = relative(knowledgeDir(this.root), absolute);
    if (rel === '' || rel.startsWith('..') || rel.startsWith(sep)) throw new LoreError('IO', `refusing to write ${absolute}: it is not inside ${knowledgeDir(this.root)}`);
    return absolute;
  }
}

/** The names in a folder of the store (none when it does not exist); never through a symlinked folder. */
async function listFolder(dir: string): Promise<Set<string>> {
  assertRealDir(dir);
  try {
    return new Set(await readdir(dir));
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return new Set();
    throw error;
  }
}

/**
 * The stores whose write lock this flow of calls holds, with the transaction open on each (null
 * while none is): nested writes neither wait for themselves nor split a transaction.
 */
const context = new AsyncLocalStorage<Map<string, StoreTransaction | null>>();

function lockStore<T>(root: string, fn: () => Promise<T>): Promise<T> {
  return withLock(join(knowledgeDir(root), WRITE_LOCK.replace(/\.lock$/, '')), fn, { timeoutMs: WRITE_LOCK_TIMEOUT_MS, label: `the store's write lock (.knowledge/${WRITE_LOCK})` });
}

function within<T>(dir: string, tx: StoreTransaction | null, fn: () => T): T {
  const held = new Map(context.getStore() ?? []);
  held.set(dir, tx);
  return context.run(held, fn);
}

/**
 * Runs `fn` holding the store's write lock (re-entrant within one flow of calls), for a
 * read-modify-write: what it reads cannot change until it is done. An operation that a crash
 * interrupted is completed or undone first.
 */
export async function withWriteLock<T>(root: string, fn: () => Promise<T>): Promise<T> {
  const dir = knowledgeDir(root);
  if (context.getStore()?.has(dir)) return fn();
  return lockStore(root, async () => {
    await recover(root);
    return within(dir, null, fn);
  });
}

/**
 * Runs `fn` with a transaction, under the write lock, and applies what it staged, all or nothing.
 * A write nested in another (the same flow of calls) joins the outer transaction.
 *
 * @example
 * await writeStore(root, 'lore approve', (tx) => { tx.write(learningPath, text); tx.delete(pendingPath); });
 */
export async function writeStore<T>(root: string, operation: string, fn: (tx: StoreTransaction) => T | Promise<T>, options: { onProgress?: WriteProgress } = {}): Promise<T> {
  const dir = knowledgeDir(root);
  const outer = context.getStore()?.get(dir);
  if (outer !== undefined && outer !== null) return fn(outer);
  return withWriteLock(root, async () => {
    const tx = new StoreTransaction(root);
    const result = await within(dir, tx, () => fn(tx));
    await commit(tx, operation, options.onProgress);
    return result;
  });
}

const rel = (root: string, path: string): string => relative(knowledgeDir(root), path).split(sep).join('/');

/** Applies a transaction: one file directly (a rename is atomic), several under the journal. */
async function commit(tx: StoreTransaction, operation: string, onProgress?: WriteProgress): Promise<void> {
  const entries = [...tx.files];
  if (entries.length === 0 && tx.appends.length === 0) return;
  if (entries.length === 1 && tx.appends.length === 0) {
    const [path, text] = entries[0]!;
    if (text === null) await unlinkDurable(path);
    else await writeFileAtomic(path, text);
    return;
  }
  const { root } = tx;
  const id = randomBytes(6).toString('hex');
  const writes = entries.filter((e): e is [string, string] => e[1] !== null).map(([path, text]) => ({ path, text, staged: join(dirname(path), `.${basename(path)}.${id}${STAGED_SUFFIX}`) }));
  const journal: Journal = {
    version: 1, id, operation, ...thisProcess(), time: new Date().toISOString(), state: 'prepare',
    writes: writes.map((w) => ({ path: rel(root, w.path), staged: rel(root, w.staged) })),
    deletes: entries.filter(([, text]) => text === null).map(([path]) => rel(root, path)),
    appends: tx.appends.map((a) => ({ log: rel(root, a.log), records: a.records })),
  };
  const journalPath = join(knowledgeDir(root), JOURNAL);
  // 0. The folders, checked and made: one that cannot be (a file in the way) stops the operation
  // before anything is planned. 1. The plan, so that a crash while staging is undone. 2. Every
  // staged file, durable.
  const dirs = new Set(writes.map((w) => dirname(w.staged)));
  for (const dir of dirs) {
    assertRealDir(dir);
    await makeFolder(dir);
  }
  await writeFileAtomic(journalPath, JSON.stringify(journal));
  try {
    await stage(writes, dirs, onProgress);
    // Every file to delete must be one this process can delete (its folder writable: not another
    // user's, not read-only), or the operation would stop half-way through, after its commit point.
    for (const dir of new Set(entries.filter(([, text]) => text === null).map(([path]) => dirname(path)))) {
      await access(dir, constants.W_OK | constants.X_OK).catch((error: unknown) => {
        if (!isErrno(error, 'ENOENT')) throw error;
      });
    }
  } catch (error) {
    // Before the commit point nothing happened: the staged files and the plan go, as recovery would.
    await Promise.all(writes.map((w) => unlink(w.staged).catch(() => undefined)));
    await unlinkDurable(journalPath).catch(() => undefined);
    throw error;
  }
  // 3. The commit point: from here on the operation happens, whatever stops this process.
  await writeFileAtomic(journalPath, JSON.stringify({ ...journal, state: 'commit' }));
  await apply(root, { ...journal, state: 'commit' }, onProgress);
  await unlinkDurable(journalPath);
}

/**
 * Writes and fsyncs the staged files into their folders (`dirs`, checked and made), a few at a
 * time (fsyncs in flight together share the file system's journal commits), then fsyncs each
 * folder once.
 */
async function stage(writes: ReadonlyArray<{ path: string; text: string; staged: string }>, dirs: ReadonlySet<string>, onProgress?: WriteProgress): Promise<void> {
  await inParallel(writes, async ({ staged, text }) => {
    // 'wx' creates the file or fails: never through a symlink (the folder was checked above).
    const handle = await open(staged, 'wx', 0o644);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }, (done) => onProgress?.(done, writes.length, 'staging files'));
  for (const dir of dirs) await fsyncDir(dir);
}

/** Runs `fn` on every item, STAGE_PARALLEL at a time, telling `onDone` how many have finished. */
async function inParallel<T>(items: readonly T[], fn: (item: T) => Promise<void>, onDone?: (done: number) => void): Promise<void> {
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      try {
        await fn(items[next++]!);
      } catch (error) {
        next = items.length; // the others stop too
        throw error;
      }
      onDone?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(STAGE_PARALLEL, items.length) }, worker));
}

/** Checks that a journal path stays inside `.knowledge/` (a journal is a file like any other). */
function inStore(root: string, path: string): string {
  const absolute = resolve(knowledgeDir(root), path);
  const back = relative(knowledgeDir(root), absolute);
  if (back === '' || back.startsWith('..') || back.startsWith(sep)) throw new LoreError('IO', `the journal ${JOURNAL} names ${JSON.stringify(path)}, which is not inside .knowledge/`, { hint: `delete .knowledge/${JOURNAL} if no lore process is running` });
  return absolute;
}

/**
 * Refuses a journal that stages a file other than as commit() does: next to its target, named
 * after it and the journal's id. A journal is a file like any other (a repository can commit one),
 * and renaming what it names as "staged" could move any file of the store, or one a symlinked
 * folder leads to, over a record.
 */
function checkStaging(journal: Journal): void {
  for (const write of journal.writes) {
    const path = typeof write?.path === 'string' ? write.path : '';
    const expected = posix.join(posix.dirname(path), `.${posix.basename(path)}.${String(journal.id)}${STAGED_SUFFIX}`);
    if (path === '' || write.staged !== expected) {
      throw new LoreError('IO', `the journal ${JOURNAL} stages ${JSON.stringify(write?.staged)} for ${JSON.stringify(write?.path)}, which is not a file lore stages`, { hint: `delete .knowledge/${JOURNAL} if no lore process is running` });
    }
  }
}

/** Renames, deletes and appends a committed journal's plan; safe to run again after a crash. */
async function apply(root: string, journal: Journal, onProgress?: WriteProgress): Promise<void> {
  const dirs = new Set<string>();
  // In any order: a crash leaves some renamed and some staged, and rolling forward renames the rest.
  await inParallel(journal.writes, async ({ path, staged }) => {
    const target = inStore(root, path);
    assertNoSymlinkedDirs(target);
    const from = inStore(root, staged);
    try {
      // Only a regular file lore staged is renamed into place, never a symlink.
      if (!(await lstat(from)).isFile()) throw new LoreError('IO', `the journal ${JOURNAL} stages .knowledge/${staged}, which is not a regular file`, { hint: `delete .knowledge/${JOURNAL} if no lore process is running` });
      await rename(from, target);
    } catch (error) {
      // Already renamed by the run a crash interrupted.
      if (!isErrno(error, 'ENOENT')) throw error;
    }
    dirs.add(dirname(target));
  }, (done) => onProgress?.(done, journal.writes.length, 'renaming files'));
  for (const path of journal.deletes) {
    const target = inStore(root, path);
    assertNoSymlinkedDirs(target);
    try {
      await unlink(target);
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) throw error;
    }
    dirs.add(dirname(target));
  }
  for (const dir of dirs) await fsyncDir(dir);
  // New versions, stamped after the latest of their ids (the one timestamp rule of every log); a
  // roll-forward that appends them again only adds versions that replay to the same records.
  const { logKind } = await import('./log-kinds.js');
  for (const { log, records } of journal.appends) {
    const kind = logKind(log);
    if (kind === undefined) throw new LoreError('IO', `the journal ${JOURNAL} appends to .knowledge/${log}, which is not one of the store's logs`, { hint: `delete .knowledge/${JOURNAL} if no lore process is running` });
    await appendVersions(inStore(root, log), records, { displayPath: `.knowledge/${log}`, validate: kind.lineProblem });
  }
}

/**
 * Completes or undoes an operation a crash interrupted; the caller holds the write lock. Returns
 * what it did, or undefined when there was nothing to do.
 */
export async function recover(root: string): Promise<Recovery | undefined> {
  const journalPath = join(knowledgeDir(root), JOURNAL);
  if (lstatSync(journalPath, { throwIfNoEntry: false }) === undefined) return undefined;
  // Never through a link (readCapped: SYMLINK), never more than a journal of the largest import is.
  const read = readCapped(journalPath, MAX_JOURNAL_BYTES);
  if (!('bytes' in read)) throw new LoreError('IO', `cannot read .knowledge/${JOURNAL}, the record of an interrupted write: it is ${read.size} bytes, more than a journal lore writes`, { hint: `it is not one lore wrote: if no lore process is running, delete .knowledge/${JOURNAL}` });
  const text = read.bytes.toString('utf8');
  let journal: Journal;
  try {
    journal = JSON.parse(text) as Journal;
    if (journal.version !== 1 || !Array.isArray(journal.writes) || !Array.isArray(journal.deletes) || !Array.isArray(journal.appends)) throw new Error('not a journal lore writes');
  } catch (error) {
    throw new LoreError('IO', `cannot read .knowledge/${JOURNAL}, the record of an interrupted write: ${(error as Error).message}`, { cause: error, hint: `if no lore process is running, lore doctor --fix removes it` });
  }
  checkStaging(journal);
  if (journal.state === 'commit') {
    await apply(root, journal);
  } else {
    for (const { staged } of journal.writes) await unlinkDurable(inStore(root, staged));
  }
  await unlinkDurable(journalPath);
  return { operation: journal.operation, pid: journal.pid, action: journal.state === 'commit' ? 'completed' : 'undone', files: journal.writes.length + journal.deletes.length };
}

/**
 * Whether an interrupted operation waits to be completed or undone: a journal whose process is
 * gone. One stat when there is none; a journal whose process still runs (an import being applied)
 * is left to it, so a reader never waits for a long write.
 */
export function hasJournal(root: string): boolean {
  const path = join(knowledgeDir(root), JOURNAL);
  // lstat: a journal planted as a link (to /dev/stdin, to /dev/zero) is one recovery refuses, never read through.
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return false;
  try {
    const read = readCapped(path, MAX_JOURNAL_BYTES);
    if (!('bytes' in read)) return true;
    const owner = JSON.parse(read.bytes.toString('utf8')) as { pid?: unknown; host?: unknown; started?: unknown };
    if (typeof owner.pid === 'number' && isRunning({ pid: owner.pid, ...(typeof owner.host === 'string' ? { host: owner.host } : {}), ...(typeof owner.started === 'string' ? { started: owner.started } : {}) }) === true) return false;
  } catch {
    // unreadable: recovery says what is wrong with it
  }
  return true;
}

/** Completes or undoes an interrupted operation, taking the write lock; for readers that find a journal. */
export async function recoverNow(root: string): Promise<Recovery | undefined> {
  if (context.getStore()?.has(knowledgeDir(root))) return undefined; // the holder recovered when it took the lock
  return lockStore(root, () => recover(root));
}

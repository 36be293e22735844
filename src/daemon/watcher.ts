// Keeps the daemon's view of `.knowledge/` true: chokidar reports paths, which are collected and
// applied in one batch once events stop for a moment (a checkout of hundreds of files is one
// batch). A path counts as changed only when its content hash changed (a touch changes nothing).
// A periodic reconcile walks the folder and repairs anything the watcher missed; a watcher that
// fails is closed, reported, and started again after a reconcile: never silently stale.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isTransient } from '../store/leftovers.js';

/** The part of a chokidar watcher the daemon uses (a test may give its own). */
export interface FileWatcher {
  on(event: 'all', listener: (event: string, path: string) => void): this;
  on(event: 'error', listener: (error: unknown) => void): this;
  on(event: 'ready', listener: () => void): this;
  close(): Promise<void>;
}

/** Starts a watcher on `dir` that ignores what `ignored` says. */
export type WatchFactory = (dir: string, ignored: (path: string) => boolean) => FileWatcher | Promise<FileWatcher>;

/** A batch of changed files, store-relative (forward slashes), each with what happened to it. */
export interface Batch {
  changes: Array<{ path: string; change: 'added' | 'changed' | 'removed' }>;
  /** What found them: the watcher, or a reconcile (which means the watcher had missed them). */
  by: 'watcher' | 'reconcile';
}

export type WatcherState = 'starting' | 'watching' | 'restarting' | 'failed';

export interface WatcherOptions {
  /** The store root (the directory holding `.knowledge/`). */
  root: string;
  watch: WatchFactory;
  /** Called with each batch of real changes, one at a time, in order. */
  onBatch(batch: Batch): Promise<void>;
  /** Called when the watcher's state changes (a failure carries its message). */
  onState(state: WatcherState, message?: string): void;
  /** Quiet time (ms) that ends a batch; a batch is applied at the latest after maxWaitMs. */
  debounceMs?: number;
  maxWaitMs?: number;
  /** How often (ms) to reconcile; 0 = only on demand. */
  reconcileMs?: number;
  /**
   * The repository's index lock (`.git/index.lock`): git holds it while a checkout, pull or rebase
   * rewrites the working tree, so a batch waits for it (up to 10 s) and such a command is one batch.
   */
  gitIndexLock?: string;
}

/** The longest a batch waits for git to release its index lock. */
const GIT_WAIT_MS = 10_000;

/** Names lore writes for a moment or derives: never knowledge, never watched. */
export function isIgnored(knowledge: string, path: string): boolean {
  const rel = relative(knowledge, path);
  if (rel === '' || rel.startsWith('..')) return false;
  const parts = rel.split(sep);
  if (parts[0] === '.cache' || parts[0] === '.git') return true;
  const name = parts[parts.length - 1]!;
  return isTransient(name) || name.endsWith('.lock') || name.startsWith('.journal') || name.endsWith('.swp') || name.endsWith('~');
}

async function hashOf(path: string): Promise<string | undefined> {
  try {
    const info = await lstat(path);
    if (!info.isFile()) return info.isDirectory() ? 'dir' : undefined;
    return createHash('sha1').update(await readFile(path)).digest('hex');
  } catch {
    return undefined;
  }
}

/** The watcher with its batches, hashes and reconcile. */
export class StoreWatcher {
  private readonly knowledge: string;
  private readonly hashes = new Map<string, string>();
  private readonly pending = new Set<string>();
  private watcher: FileWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private firstPending = 0;
  private reconcileTimer: NodeJS.Timeout | undefined;
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  state: WatcherState = 'starting';
  restarts = 0;
  lastReconcile: string | undefined;

  constructor(private readonly options: WatcherOptions) {
    this.knowledge = join(options.root, '.knowledge');
  }

  /** Hashes every file, then starts watching and the periodic reconcile. */
  async start(): Promise<void> {
    for (const [path, hash] of await this.walk()) this.hashes.set(path, hash);
    await this.startWatcher();
    const every = this.options.reconcileMs ?? 30_000;
    if (every > 0) {
      this.reconcileTimer = setInterval(() => void this.reconcile().catch(() => undefined), every);
      this.reconcileTimer.unref();
    }
  }

  private setState(state: WatcherState, message?: string): void {
    this.state = state;
    this.options.onState(state, message);
  }

  private async startWatcher(): Promise<void> {
    const watcher = await this.options.watch(this.knowledge, (path) => isIgnored(this.knowledge, path));
    this.watcher = watcher;
    watcher.on('all', (_event, path) => this.note(path));
    watcher.on('error', (error) => void this.restart(error));
    await new Promise<void>((resolve) => watcher.on('ready', resolve));
    if (!this.closed && this.watcher === watcher) this.setState('watching');
  }

  /** A failed watcher: closed, reported, a reconcile for what it may have missed, started again. */
  private async restart(error: unknown): Promise<void> {
    if (this.closed) return;
    const old = this.watcher;
    this.watcher = undefined;
    this.restarts++;
    this.setState('restarting', `the watcher failed (${(error as Error)?.message ?? String(error)}); restarting it`);
    await old?.close().catch(() => undefined);
    try {
      await this.reconcile();
      if (!this.closed) await this.startWatcher();
    } catch (failure) {
      this.setState('failed', `the watcher cannot start again (${(failure as Error).message}); a reconcile runs every ${Math.round((this.options.reconcileMs ?? 30_000) / 1000)} s`);
    }
  }

  /** A path the watcher reported: collected until events stop for a moment. */
  private note(path: string): void {
    if (isIgnored(this.knowledge, path)) return;
    if (this.pending.size === 0) this.firstPending = Date.now();
    this.pending.add(path);
    clearTimeout(this.timer);
    this.schedule();
  }

  private schedule(): void {
    const waited = Date.now() - this.firstPending;
    const delay = Math.max(0, Math.min(this.options.debounceMs ?? 100, (this.options.maxWaitMs ?? 1000) - waited));
    this.timer = setTimeout(() => this.settle(), delay);
  }

  /** Applies the batch once quiet, unless git is still rewriting the working tree. */
  private settle(): void {
    const lock = this.options.gitIndexLock;
    if (lock !== undefined && existsSync(lock) && Date.now() - this.firstPending < GIT_WAIT_MS) {
      this.timer = setTimeout(() => this.settle(), this.options.debounceMs ?? 100);
      return;
    }
    void this.flush();
  }

  /** Applies what is pending now (the daemon calls it before answering, so an answer is never behind a reported change). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    const paths = [...this.pending];
    this.pending.clear();
    if (paths.length > 0) this.enqueue(async () => this.apply(await this.compare(paths), 'watcher'));
    return this.queue;
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch(() => undefined);
  }

  /** Which of `paths` (absolute) really changed, by content hash; files under a folder included. */
  private async compare(paths: readonly string[]): Promise<Batch['changes']> {
    const changes: Batch['changes'] = [];
    const seen = new Set<string>();
    // Every reported path is read at once (a checkout of 500 files is 500 reads in flight, not in turn).
    const hashes = new Map(paths.map((path) => [path, hashOf(path)]));
    const check = async (path: string): Promise<void> => {
      if (seen.has(path)) return;
      seen.add(path);
      const hash = await (hashes.get(path) ?? hashOf(path));
      if (hash === 'dir') {
        for (const [file, h] of await this.walk(path)) await checkFile(file, h);
        // A folder renamed away: its files are gone.
      }
      if (hash === 'dir' || hash === undefined) {
        // A path that is no folder now (gone, or a link put in its place): its files are gone, never
        // read again through the link (lstat follows the folders above a file).
        for (const known of [...this.hashes.keys()]) if (known.startsWith(`${path}${sep}`) && !seen.has(known)) await (hash === 'dir' ? check(known) : checkFile(known, undefined));
      }
      // A file that became a folder is gone as a file.
      await checkFile(path, hash === 'dir' ? undefined : hash);
    };
    const checkFile = async (path: string, hash: string | undefined): Promise<void> => {
      seen.add(path);
      const before = this.hashes.get(path);
      if (before === hash) return;
      if (hash === undefined) this.hashes.delete(path);
      else this.hashes.set(path, hash);
      changes.push({ path: this.rel(path), change: before === undefined ? 'added' : hash === undefined ? 'removed' : 'changed' });
    };
    for (const path of paths) await check(path);
    return changes;
  }

  private rel(path: string): string {
    return relative(this.options.root, path).split(sep).join('/');
  }

  private async apply(changes: Batch['changes'], by: Batch['by']): Promise<void> {
    if (changes.length > 0) await this.options.onBatch({ changes, by });
  }

  /** Every file under `dir` (default: .knowledge/) with its hash, ignored names left out. */
  private async walk(dir = this.knowledge): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const visit = async (folder: string): Promise<void> => {
      let names;
      try {
        names = await readdir(folder, { withFileTypes: true });
      } catch {
        return;
      }
      await Promise.all(names.map(async (entry) => {
        const path = join(folder, entry.name);
        if (isIgnored(this.knowledge, path)) return;
        if (entry.isDirectory()) return visit(path);
        if (!entry.isFile()) return;
        const hash = await hashOf(path);
        if (hash !== undefined && hash !== 'dir') out.set(path, hash);
      }));
    };
    await visit(dir);
    return out;
  }

  /** Walks the whole folder and applies every difference from what is known; returns them. */
  reconcile(): Promise<Batch['changes']> {
    let found: Batch['changes'] = [];
    this.enqueue(async () => {
      const now = await this.walk();
      const changes: Batch['changes'] = [];
      for (const [path, hash] of now) {
        const before = this.hashes.get(path);
        if (before !== hash) changes.push({ path: this.rel(path), change: before === undefined ? 'added' : 'changed' });
        this.hashes.set(path, hash);
      }
      for (const path of [...this.hashes.keys()]) {
        if (!now.has(path)) {
          this.hashes.delete(path);
          changes.push({ path: this.rel(path), change: 'removed' });
        }
      }
      this.lastReconcile = new Date().toISOString();
      found = changes;
      await this.apply(changes, 'reconcile');
    });
    return this.queue.then(() => found);
  }

  /** Stops watching. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.reconcileTimer);
    await this.watcher?.close();
    await this.queue;
  }
}

/** The real watcher: chokidar, aware of atomic writes (a rename over a file is one change). */
export const chokidarWatch: WatchFactory = async (dir, ignored) => {
  const { watch } = await import('chokidar');
  return watch(dir, { ignoreInitial: true, atomic: true, followSymlinks: false, ignored: (path: string) => ignored(path) }) as unknown as FileWatcher;
};

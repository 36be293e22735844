// A Workspace owns what was loaded from one store: the opened store (config), and, lazily, the
// values computed from its files (entries, the knowledge index, the context graph, the DAG). A CLI
// run makes one and throws it away; a long-lived process (the MCP server, the daemon) keeps one.
// Nothing else caches: a value is recomputed when a file it was built from changed, which the
// workspace sees by the stamps of those files and folders (a write through lore replaces files by
// rename, which changes their folder), or when `invalidate(paths)` names one (a watcher).
import { lstatSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Store } from '../store/open.js';

export interface WorkspaceOptions {
  /** Where the command runs (or the server was started). */
  cwd: string;
  /** `--store DIR`: the directory holding `.knowledge/` (or `.knowledge/` itself). */
  store?: string | undefined;
  env: NodeJS.ProcessEnv;
  /** Notes for people: an interrupted operation completed while the store was opened. */
  onNote?: (text: string) => void;
}

/** A file or folder a cached value depends on, by its stamp: size, modification and change times, inode. */
type Stamps = Map<string, string>;

interface Cached<T> {
  value: Promise<T>;
  /** Absolute paths it was computed from (folders stand for their files). */
  paths: readonly string[];
  stamps: Stamps;
  /** A stamp this close to the moment of computing may hide a second change in the same tick. */
  racy: boolean;
}

/** How close (ms) to the time a value was computed a file may have changed and still be trusted. */
const RACY_MS = 50;

function stampsOf(paths: readonly string[]): { stamps: Stamps; newest: number } {
  // A few synchronous lstat calls (the folders and files a value stands on): a long-lived process
  // asks before every answer, and one trip through libuv's threads costs more than the calls.
  const stamps: Stamps = new Map();
  let newest = 0;
  for (const path of paths) {
    try {
      const info = lstatSync(path, { bigint: true });
      stamps.set(path, `${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.ino}`);
      newest = Math.max(newest, Number(info.mtimeMs));
    } catch {
      stamps.set(path, 'missing');
    }
  }
  return { stamps, newest };
}

function sameStamps(a: Stamps, b: Stamps): boolean {
  if (a.size !== b.size) return false;
  for (const [path, stamp] of a) if (b.get(path) !== stamp) return false;
  return true;
}

/** One opened store and what was loaded from it. */
export class Workspace {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** `--store DIR`, as given. */
  readonly storeDir: string | undefined;
  private readonly onNote: ((text: string) => void) | undefined;
  private readonly cache = new Map<string, Cached<unknown>>();

  constructor(options: WorkspaceOptions) {
    this.cwd = options.cwd;
    this.env = options.env;
    this.storeDir = options.store;
    this.onNote = options.onNote;
  }

  /**
   * The store, opened once and opened again when `config.yaml` changed. With allowInvalidConfig a
   * store whose config.yaml is invalid opens too (for `lore validate`, which reports it).
   */
  async store(options: { allowInvalidConfig?: boolean } = {}): Promise<Store> {
    const key = options.allowInvalidConfig === true ? 'store:lenient' : 'store';
    return this.remember(key, async () => {
      const { findStoreRoot } = await import('../store/locate.js');
      const root = findStoreRoot({ cwd: this.cwd, store: this.storeDir });
      return [join(root, '.knowledge', 'config.yaml')];
    }, async () => {
      const { openStore } = await import('../store/open.js');
      const store = await openStore({ cwd: this.cwd, store: this.storeDir, env: this.env, ...options });
      const done = store.recovered;
      if (done !== undefined) this.onNote?.(`lore: ${done.action} an interrupted ${done.operation} of process ${done.pid} (${done.files} file${done.files === 1 ? '' : 's'}) before going on`);
      return store;
    });
  }

  /** The root of the store (the directory holding `.knowledge/`). */
  async root(): Promise<string> {
    return (await this.store({ allowInvalidConfig: true })).root;
  }

  /**
   * A value computed from files of the store, kept until one of them changes. `paths` lists what
   * it is computed from (absolute; a folder stands for the files in it).
   */
  async remember<T>(key: string, paths: () => Promise<readonly string[]>, compute: () => Promise<T>): Promise<T> {
    const hit = this.cache.get(key) as Cached<T> | undefined;
    if (hit !== undefined && !hit.racy && sameStamps(hit.stamps, stampsOf(hit.paths).stamps)) return hit.value;
    const dependsOn = await paths();
    const started = Date.now();
    const { stamps, newest } = stampsOf(dependsOn);
    const value = compute();
    const entry: Cached<T> = { value, paths: dependsOn, stamps, racy: newest > started - RACY_MS };
    this.cache.set(key, entry as Cached<unknown>);
    // A failure is not remembered: the next call tries again.
    value.catch(() => {
      if (this.cache.get(key) === (entry as Cached<unknown>)) this.cache.delete(key);
    });
    return value;
  }

  /**
   * Drops every value computed from one of `paths` (absolute), or from a folder holding one or
   * held by one: what a watcher calls when files change.
   */
  invalidate(paths: readonly string[]): void {
    const changed = paths.map((p) => resolve(this.cwd, p));
    for (const [key, entry] of this.cache) {
      const affected = changed.some((path) => entry.paths.some((dep) => path === dep || path.startsWith(`${dep}${sep}`) || dep.startsWith(`${path}${sep}`)));
      if (affected) this.cache.delete(key);
    }
  }

  /** The store-relative path of an absolute one, as lore prints paths. */
  async display(path: string): Promise<string> {
    return relative(await this.root(), path).split(sep).join('/');
  }
}

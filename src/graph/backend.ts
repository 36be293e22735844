// Where a graph command's graph lives: `--memory-file PATH` → that JSON file; otherwise the store
// found from the working directory (or --store); outside a store → `context.json` in the
// working directory, as the system-context spec says.
import { relative, resolve } from 'node:path';
import { isErrno, LoreError } from '../errors.js';
import { withLock } from '../log/lock.js';
import { openStore, type Store } from '../store/open.js';
import { writeStore } from '../store/transaction.js';
import { loadMemoryFile, saveMemoryFile, type LoadedGraph } from './memory-file.js';
import type { ContextGraph } from './model.js';
import { loadStoreGraph, saveStoreGraph, type SavedFile } from './store-graph.js';

/** The default memory file, in the working directory. */
export const DEFAULT_MEMORY_FILE = 'context.json';

export interface GraphBackend {
  kind: 'store' | 'memory-file';
  /** For people: the store's entity folder, or the memory file as given. */
  location: string;
  /** The store root, or the memory file's absolute path. */
  path: string;
  load(): Promise<LoadedGraph>;
  /** Saves what changed; returns the files written (unchanged ones included for the store). */
  save(graph: ContextGraph, onProgress?: OnProgress): Promise<SavedFile[]>;
  /** Loads, runs `change`, and saves only when it returns without throwing (memory files: under a lock). */
  update<T>(change: (loaded: LoadedGraph) => T | Promise<T>, onProgress?: OnProgress): Promise<{ result: T; saved: SavedFile[]; loaded: LoadedGraph }>;
}

/** Hears of each file a save writes (for a progress line). */
type OnProgress = (done: number, total: number, what: string) => void;

export interface BackendOptions {
  cwd: string;
  /** `--store DIR`. */
  store?: string | undefined;
  /** `--memory-file PATH`. */
  memoryFile?: string | undefined;
}

async function loadChangeSave<T>(backend: GraphBackend, change: (loaded: LoadedGraph) => T | Promise<T>, onProgress?: OnProgress): Promise<{ result: T; saved: SavedFile[]; loaded: LoadedGraph }> {
  const loaded = await backend.load();
  const result = await change(loaded);
  return { result, saved: await backend.save(loaded.graph, onProgress), loaded };
}

/** The back-end of a memory file: `given` resolved against `cwd`, named as given when it is inside `cwd`. */
export function memoryFileBackend(cwd: string, given: string): GraphBackend {
  const path = resolve(cwd, given);
  const location = relative(cwd, path).startsWith('..') ? path : given;
  const backend: GraphBackend = {
    kind: 'memory-file',
    location,
    path,
    load: () => loadMemoryFile(path, { display: location }),
    save: async (graph) => (graph.pendingChanges().length === 0 ? [] : [{ file: location, status: await saveMemoryFile(path, graph, { display: location }) }]),
    // A lock next to the file, so two agents updating one memory file do not lose each other's changes.
    update: async (change, onProgress) => {
      try {
        return await withLock(path, () => loadChangeSave(backend, change, onProgress));
      } catch (error) {
        if (error instanceof LoreError || !isErrno(error)) throw error;
        throw new LoreError('IO', `could not update the context graph ${location}: ${error.message}`, { cause: error });
      }
    },
  };
  return backend;
}

/** The back-end of an opened store: one file per entity under `.knowledge/graph/entities/`. */
export function storeBackend(store: Pick<Store, 'root' | 'config'>): GraphBackend {
  const backend: GraphBackend = {
    kind: 'store',
    location: '.knowledge/graph/entities/',
    path: store.root,
    load: () => loadStoreGraph(store.root, { limits: store.config.limits }),
    save: (graph, onProgress) => saveStoreGraph(store.root, graph, onProgress),
    // Load, change and save under the store's write lock, as one transaction: concurrent updates
    // all land, and a crash leaves all of an update's entity files or none.
    update: (change, onProgress) => writeStore(store.root, 'lore graph update', () => loadChangeSave(backend, change, onProgress)),
  };
  return backend;
}

/**
 * Picks the back-end a graph command uses.
 *
 * @example
 * const backend = await resolveGraphBackend({ cwd: process.cwd(), memoryFile: 'context.json' });
 * const { graph } = await backend.load();
 */
export async function resolveGraphBackend(options: BackendOptions): Promise<GraphBackend> {
  if (options.memoryFile !== undefined) return memoryFileBackend(options.cwd, options.memoryFile);
  try {
    return storeBackend(await openStore({ cwd: options.cwd, store: options.store }));
  } catch (error) {
    if (error instanceof LoreError && error.code === 'STORE_NOT_FOUND' && options.store === undefined) return memoryFileBackend(options.cwd, DEFAULT_MEMORY_FILE);
    throw error;
  }
}

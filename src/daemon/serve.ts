// `lore serve`: one daemon per store. It takes the store's daemon lock, listens (127.0.0.1 by
// default), reads the records and starts the watcher, then writes daemon.json so the CLI and the
// UI find it; closing releases all of it. Everything it serves goes through the operations.
import type { AddressInfo } from 'node:net';
import { LoreError } from '../errors.js';
import { cacheWritesDone, deferCacheWrites } from '../fs/cache-writes.js';
import { Workspace } from '../workspace/workspace.js';
import { EventHub } from './events.js';
import { createApp } from './http.js';
import { claimInstance } from './instance.js';
import { LiveStore } from './live.js';
import { chokidarWatch, StoreWatcher, type WatchFactory } from './watcher.js';

/** The port `lore serve` tries first; when it is taken and no --port was given, any free one. */
export const DEFAULT_PORT = 7373;

export interface ServeOptions {
  cwd: string;
  store?: string | undefined;
  env: NodeJS.ProcessEnv;
  host: string;
  /** undefined: DEFAULT_PORT, or any free port when it is taken. */
  port: number | undefined;
  ui: boolean;
  version: string;
  /** Where the daemon reports what happens to it (stderr). */
  log(text: string): void;
  /** The file watcher (tests give their own); chokidar by default. */
  watch?: WatchFactory;
  /** How often (ms) to reconcile with the files; default 30 s. */
  reconcileMs?: number;
}

export interface Daemon {
  url: string;
  /** The token that opens the UI and authorises requests. */
  token: string;
  store: string;
  /** Resolves when the daemon stopped (closed, or its lock was taken away). */
  stopped: Promise<void>;
  close(): Promise<void>;
}

async function listen(server: import('node:http').Server, port: number, host: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** Starts the daemon; resolves once it listens, watches, and daemon.json is written. */
export async function startDaemon(options: ServeOptions): Promise<Daemon> {
  const ws = new Workspace({ cwd: options.cwd, store: options.store, env: options.env, onNote: options.log });
  await ws.store();
  const root = await ws.root();
  const instance = await claimInstance(root);
  const hub = new EventHub();
  const { git } = await import('../git/exec.js');
  const indexLock = await git(['rev-parse', '--path-format=absolute', '--git-path', 'index.lock'], { cwd: root, env: options.env }).then((out) => out.trim(), () => undefined);
  const live = new LiveStore(ws, hub);
  const watcher = new StoreWatcher({
    root,
    watch: options.watch ?? chokidarWatch,
    onBatch: (batch) => live.apply(batch),
    ...(indexLock === undefined || indexLock === '' ? {} : { gitIndexLock: indexLock }),
    onState: (state, message) => {
      hub.publish({ type: 'watcher', data: { state, ...(message === undefined ? {} : { message }) } });
      if (message !== undefined) options.log(`lore serve: ${message}`);
    },
    ...(options.reconcileMs === undefined ? {} : { reconcileMs: options.reconcileMs }),
  });
  let bound = { host: options.host, port: 0 };
  const startedAt = new Date().toISOString();
  const app = createApp({ ws, hub, live, watcher, token: instance.token, version: options.version, address: () => bound, ui: options.ui, checkOutput: options.env.LORE_CHECK_OUTPUT === '1', startedAt });
  const { createAdaptorServer } = await import('@hono/node-server');
  const server = createAdaptorServer({ fetch: app.fetch }) as import('node:http').Server;
  // A rebuild's caches are written after the answer that needed it (all made before the daemon stops).
  const stopDeferring = deferCacheWrites();
  try {
    try {
      await listen(server, options.port ?? DEFAULT_PORT, options.host);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      if (options.port !== undefined) throw new LoreError('IO', `port ${options.port} on ${options.host} is taken`, { hint: 'choose another with --port N, or --port 0 for any free one' });
      options.log(`lore serve: port ${DEFAULT_PORT} is taken; using a free one`);
      await listen(server, 0, options.host);
    }
    bound = { host: options.host, port: (server.address() as AddressInfo).port };
    await live.start();
    await watcher.start();
  } catch (error) {
    server.close();
    await watcher.close().catch(() => undefined);
    stopDeferring();
    await cacheWritesDone();
    await instance.release();
    throw error;
  }
  const url = `http://${bound.host.includes(':') ? `[${bound.host}]` : bound.host}:${bound.port}`;
  await instance.publish({ url, host: bound.host, port: bound.port, version: options.version, store: root, startedAt }, options.env);

  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolve) => { resolveStopped = resolve; });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      clearInterval(holdCheck);
      await watcher.close().catch(() => undefined);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Open event streams would keep the server open forever.
        server.closeAllConnections();
      });
      stopDeferring();
      await cacheWritesDone();
      await instance.release();
      resolveStopped();
    })();
    return closing;
  };
  // Another daemon that found this one dead and took the lock wins: this one stops.
  const holdCheck = setInterval(() => {
    void instance.stillHeld().then((held) => {
      if (held === 'held') return;
      options.log(held === 'taken' ? 'lore serve: another lore serve took over this store; stopping' : 'lore serve: its lock in .knowledge/.cache/ was removed; stopping');
      void close();
    });
  }, 2000);
  holdCheck.unref();
  return { url, token: instance.token, store: root, stopped, close };
}

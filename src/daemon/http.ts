// The daemon's HTTP API as a hono app: handlers are functions of Request → Response, so tests call
// `app.request(...)` without a port. Every operation is at POST /api/ops/<name> (input and output
// are the operation's schemas), read-only ones also at GET with ?input=<JSON>; /api/events streams
// changes; /api/health says how the daemon is. Every request must name this daemon by its Host
// (DNS rebinding); every POST must carry the token and, from a browser, this origin.
import { timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { streamSSE } from 'hono/streaming';
import { LoreError } from '../errors.js';
import { findOp, OPS } from '../ops/registry.js';
import { runOp } from '../ops/run.js';
import { bundleSchema } from '../schema/bundle.js';
import type { Workspace } from '../workspace/workspace.js';
import type { EventHub } from './events.js';
import type { LiveStore } from './live.js';
import { CSP, indexPage, uiAsset } from './ui-assets.js';
import type { StoreWatcher } from './watcher.js';

/** The largest request body accepted (an import of a large export fits). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** The most bytes of notes sent in the x-lore-notes header. */
const MAX_NOTES_BYTES = 8 * 1024;

export interface AppOptions {
  ws: Workspace;
  hub: EventHub;
  live?: LiveStore;
  watcher?: StoreWatcher;
  token: string;
  version: string;
  /** The address it listens on (known once listening). */
  address(): { host: string; port: number };
  /** Serve the web UI at / (false with --no-ui). */
  ui: boolean;
  /** Check every output against its schema (LORE_CHECK_OUTPUT=1, as tests run). */
  checkOutput: boolean;
  startedAt: string;
}

type Status = 400 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 500 | 503;

const STATUS: Partial<Record<string, Status>> = {
  USAGE: 400, INVALID_ID: 400, PARSE: 400, NOT_A_GIT_REPO: 400, EMPTY_RANGE: 400, TOO_LARGE: 413,
  NOT_FOUND: 404, STORE_NOT_FOUND: 404, BRANCH_NOT_FOUND: 404,
  CONFLICT: 409, ALREADY_SUMMARIZED: 409, INSUFFICIENT_NODES: 409,
  INVALID_RECORD: 422, INVALID_STORE: 422, BLOCKED: 422, LOCK_TIMEOUT: 503,
};

/** lore's error body (the same shape as `--json` errors and MCP tool errors). */
function errorBody(error: unknown): { status: Status; body: unknown } {
  if (error instanceof LoreError) {
    const problems = error.problems.map(({ frame: _frame, ...rest }) => rest);
    return { status: STATUS[error.code] ?? 500, body: { error: { code: error.code, message: error.message, ...(error.hint === undefined ? {} : { hint: error.hint }), problems } } };
  }
  return { status: 500, body: { error: { code: 'INTERNAL', message: `internal error: ${(error as Error)?.message ?? String(error)} (a bug in lore: please report it)`, problems: [] } } };
}

/** The notes of an operation as a header value: a URI-encoded JSON array, the last ones cut to fit. */
function notesHeader(notes: readonly string[]): string {
  let shown = [...notes];
  let header = JSON.stringify(shown);
  while (header.length > MAX_NOTES_BYTES && shown.length > 1) {
    shown = shown.slice(0, -1);
    header = JSON.stringify([...shown, `(${notes.length - shown.length} more notes not shown)`]);
  }
  return encodeURIComponent(header);
}

function refuse(c: Context, status: Status, code: string, message: string, hint?: string): Response {
  return c.json({ error: { code, message, ...(hint === undefined ? {} : { hint }), problems: [] } }, status);
}

/** The Host header values that name this daemon: the bound address, and localhost for a loopback one. */
function hostNames(address: { host: string; port: number }): Set<string> {
  const { host, port } = address;
  const names = new Set([`${host.includes(':') ? `[${host}]` : host}:${port}`]);
  if (host === '127.0.0.1' || host === '::1') names.add(`localhost:${port}`);
  return names;
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined || given.length !== token.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(token));
}

/** The daemon's app: the API, and the UI unless it is off. */
export function createApp(options: AppOptions): Hono {
  const app = new Hono();

  // Security first, for every request.
  app.use('*', async (c, next) => {
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
    c.header('cache-control', 'no-store');
    const host = c.req.header('host');
    if (host === undefined || !hostNames(options.address()).has(host.toLowerCase())) {
      return refuse(c, 403, 'FORBIDDEN', `the Host header ${JSON.stringify(host ?? '')} does not name this daemon`, `use ${[...hostNames(options.address())][0]}`);
    }
    if (c.req.method === 'POST') {
      const origin = c.req.header('origin');
      const self = `http://${host}`;
      if (origin !== undefined && origin !== self) return refuse(c, 403, 'FORBIDDEN', `a request from ${origin} may not change this store`);
      if (c.req.header('sec-fetch-site') === 'cross-site') return refuse(c, 403, 'FORBIDDEN', 'a cross-site request may not change this store');
      if (!sameToken(c.req.header('x-lore-token'), options.token)) {
        return refuse(c, 403, 'FORBIDDEN', 'this request needs the daemon token (header x-lore-token)', 'the token is in .knowledge/.cache/daemon.json');
      }
      if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) return refuse(c, 415, 'USAGE', 'the body must be JSON (content-type: application/json)');
    } else if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      return refuse(c, 405, 'USAGE', `${c.req.method} is not served here`);
    }
    await next();
  });
  app.use('/api/*', bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => refuse(c, 413, 'TOO_LARGE', `the body is larger than ${MAX_BODY_BYTES} bytes`) }));

  /** Operations answered, by name (health shows them). */
  const served: Record<string, number> = {};
  const run = async (c: Context, name: string, input: unknown): Promise<Response> => {
    if (findOp(name) === undefined) return refuse(c, 404, 'NOT_FOUND', `no operation named ${JSON.stringify(name)}`, 'GET /api/ops lists the operations');
    // An answer is never behind a change the watcher already reported.
    await options.watcher?.flush();
    served[name] = (served[name] ?? 0) + 1;
    const notes: string[] = [];
    try {
      const output = await runOp(name, input, { ws: options.ws, note: (text) => notes.push(text), progress: () => undefined }, { checkOutput: options.checkOutput });
      if (notes.length > 0) c.header('x-lore-notes', notesHeader(notes));
      return c.json(output as object);
    } catch (error) {
      const { status, body } = errorBody(error);
      if (notes.length > 0) c.header('x-lore-notes', notesHeader(notes));
      return c.json(body as object, status);
    }
  };

  app.post('/api/ops/:name', async (c) => {
    const name = c.req.param('name');
    if (findOp(name) === undefined) return run(c, name, {});
    let input: unknown;
    try {
      const text = await c.req.text();
      input = text.trim() === '' ? {} : JSON.parse(text);
    } catch (error) {
      return refuse(c, 400, 'USAGE', `the body is not JSON: ${(error as Error).message}`);
    }
    return run(c, name, input);
  });

  app.get('/api/ops/:name', async (c) => {
    const name = c.req.param('name');
    const op = findOp(name);
    if (op !== undefined && !op.readOnly) return refuse(c, 405, 'USAGE', `${name} changes the store: POST it`);
    const raw = c.req.query('input');
    let input: unknown = {};
    try {
      if (raw !== undefined) input = JSON.parse(raw);
    } catch (error) {
      return refuse(c, 400, 'USAGE', `?input is not JSON: ${(error as Error).message}`);
    }
    return run(c, name, input);
  });

  // Conveniences for reading with a plain GET (curl, a browser's address bar).
  app.get('/api/ops', (c) => c.json(OPS.map((op) => ({ name: op.name, summary: op.summary, readOnly: op.readOnly }))));
  app.get('/api/status', (c) => run(c, 'store.status', {}));
  app.get('/api/records', (c) => run(c, 'record.list', c.req.query('kind') === undefined ? {} : { kind: c.req.query('kind') }));
  app.get('/api/records/:id', (c) => run(c, 'record.show', { id: c.req.param('id') }));
  app.get('/api/query', (c) => {
    const limit = Number(c.req.query('limit'));
    return run(c, 'knowledge.query', { taskDescription: c.req.query('q') ?? '', ...(Number.isInteger(limit) && limit > 0 ? { limit } : {}) });
  });

  app.get('/api/schemas/*', (c) => {
    const file = c.req.path.slice('/api/schemas/'.length);
    if (!/^(ops\/)?[A-Za-z0-9._-]+\.schema\.json$/.test(file) || file.includes('..')) return refuse(c, 404, 'NOT_FOUND', `no schema ${file}`);
    try {
      return c.json(bundleSchema(file));
    } catch {
      return refuse(c, 404, 'NOT_FOUND', `no schema ${file}`);
    }
  });

  app.get('/api/health', async (c) => {
    const root = await options.ws.root().catch(() => undefined);
    const w = options.watcher;
    return c.json({
      ok: w === undefined || w.state === 'watching',
      version: options.version,
      store: root ?? null,
      pid: process.pid,
      startedAt: options.startedAt,
      watcher: { state: w?.state ?? 'off', restarts: w?.restarts ?? 0, lastReconcile: w?.lastReconcile ?? null },
      batches: options.live?.batches ?? 0,
      lastChange: options.live?.lastChange ?? null,
      listeners: options.hub.size,
      served,
      rssBytes: process.memoryUsage().rss,
    });
  });

  // The records' problems the daemon keeps up to date: what a page shows without validating the store.
  app.get('/api/problems', async (c) => {
    await options.watcher?.flush();
    if (options.live === undefined) return run(c, 'store.validate', {});
    return c.json({ problems: await options.live.problems() });
  });

  app.post('/api/reconcile', async (c) => {
    if (options.watcher === undefined) return refuse(c, 503, 'USAGE', 'no watcher runs');
    const changes = await options.watcher.reconcile();
    return c.json({ changes });
  });

  app.get('/api/events', (c) => streamSSE(c, async (stream) => {
    const queue: Array<{ event: string; data: string }> = [];
    let wake: (() => void) | undefined;
    const unsubscribe = options.hub.subscribe((event) => {
      queue.push({ event: event.type, data: JSON.stringify(event.data) });
      wake?.();
    });
    let open = true;
    stream.onAbort(() => {
      open = false;
      unsubscribe();
      wake?.();
    });
    await stream.writeSSE({ event: 'hello', data: JSON.stringify({ version: options.version, store: await options.ws.root().catch(() => null) }) });
    while (open) {
      const next = queue.shift();
      if (next !== undefined) {
        await stream.writeSSE(next);
        continue;
      }
      // A comment every 15 s keeps proxies and idle timeouts from closing the stream.
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 15_000).unref();
      });
      wake = undefined;
      if (open && queue.length === 0) await stream.write(': keep-alive\n\n');
    }
  }));

  app.all('/api/*', (c) => refuse(c, 404, 'NOT_FOUND', `no API ${c.req.method} ${c.req.path}`, 'GET /api/ops lists the operations'));

  app.get('*', async (c) => {
    if (!options.ui) return refuse(c, 404, 'NOT_FOUND', 'the web UI is off (lore serve --no-ui)');
    const path = c.req.path;
    const asset = path === '/' || path === '/index.html' ? indexPage(options.token, (await options.ws.root().catch(() => 'lore')).split('/').pop() ?? 'lore') : uiAsset(path);
    if (asset === undefined) return refuse(c, 404, 'NOT_FOUND', `no page ${path}`);
    c.header('content-security-policy', CSP);
    c.header('x-frame-options', 'DENY');
    c.header('cache-control', 'no-cache');
    c.header('content-type', asset.type);
    return c.body(typeof asset.body === 'string' ? asset.body : new Uint8Array(asset.body));
  });

  return app;
}

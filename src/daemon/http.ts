// The daemon's HTTP API as a hono app: handlers are functions of Request → Response, so tests call
// `app.request(...)` without a port. Every operation is at POST /api/ops/<name> (input and output
// are the operation's schemas), read-only ones also at GET with ?input=<JSON>; /api/events streams
// changes; /api/health says how the daemon is. Every request must name this daemon by its Host
// (DNS rebinding) and carry the token (_security.ts checks every request first).
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { decodeUtf8 } from '../fs/utf8.js';
import { findOp, OPS } from '../ops/registry.js';
import { runOp } from '../ops/run.js';
import { bundleSchema } from '../schema/bundle.js';
import type { Workspace } from '../workspace/workspace.js';
import { errorBody, notesHeader, refuse } from './_respond.js';
import { GET_ROUTES, opMethods } from './routes.js';
import { cookie, sameToken, securityChecks, tokenCookie } from './_security.js';
import type { EventHub } from './events.js';
import type { LiveStore } from './live.js';
import { CSP, indexPage, lockedPage, uiAsset } from './ui-assets.js';
import type { StoreWatcher } from './watcher.js';

/** The largest request body accepted (an import of a large export fits). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** The most pages that may listen to the events at once. */
const MAX_LISTENERS = 64;
/** Events queued for a page that does not read them before it is let go. */
const MAX_QUEUED_EVENTS = 1000;

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

/**
 * Refuses a body over MAX_BODY_BYTES. A body that states its length is judged by it (Node's parser
 * never reads past a stated length), so the handler reads it straight from the socket; one sent in
 * chunks, or with no stated length, is counted as it streams (hono's bodyLimit). Only that path
 * touches the request's body stream, which turns the adapter's light request into a web Request
 * and its body into a stream: about 0.2 ms a call.
 */
function bodyCap(): MiddlewareHandler {
  const tooLarge = (c: Context): Response => refuse(c, 413, 'TOO_LARGE', `the body is larger than ${MAX_BODY_BYTES} bytes`);
  const streamed = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge });
  return async (c, next) => {
    // A GET or HEAD has no body to read: the handlers never look at one.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length === undefined || c.req.header('transfer-encoding') !== undefined) return streamed(c, next);
    if (Number.parseInt(length, 10) > MAX_BODY_BYTES) return tooLarge(c);
    await next();
  };
}

/** Sends the daemon's events to one page until it goes (or stops reading: it is let go). */
async function streamEvents(stream: SSEStreamingApi, options: AppOptions): Promise<void> {
  const queue: Array<{ event: string; data: string }> = [];
  let wake: (() => void) | undefined;
  let open = true;
  const close = (): void => {
    open = false;
    unsubscribe();
    wake?.();
  };
  const unsubscribe = options.hub.subscribe((event) => {
    if (queue.length >= MAX_QUEUED_EVENTS) return void stream.abort();
    queue.push({ event: event.type, data: JSON.stringify(event.data) });
    wake?.();
  });
  stream.onAbort(close);
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
  close();
}

/** The daemon's app: the API, and the UI unless it is off. */
export function createApp(options: AppOptions): Hono {
  const app = new Hono();
  app.onError((error, c) => {
    const { status, body } = errorBody(error);
    return c.json(body as object, status);
  });
  // Whatever no route serves (POST /anything, //api/...) gets lore's error shape, not a line of text.
  app.notFound((c) => refuse(c, 404, 'NOT_FOUND', `no ${c.req.method} ${c.req.path} here`, 'GET /api/ops lists the operations'));

  // Security first, for every request.
  app.use('*', securityChecks(options));
  app.use('/api/*', bodyCap());

  /** Operations answered, by name (health shows them). */
  const served: Record<string, number> = {};
  const run = async (c: Context, name: string, input: unknown): Promise<Response> => {
    if (findOp(name) === undefined) return refuse(c, 404, 'NOT_FOUND', `no operation named ${JSON.stringify(name)}`, 'GET /api/ops lists the operations');
    // An answer is never behind a change the watcher already reported.
    await options.watcher?.flush();
    served[name] = (served[name] ?? 0) + 1;
    const notes: string[] = [];
    const envelope = c.req.header('x-lore-envelope') === '1';
    try {
      const output = await runOp(name, input, { ws: options.ws, note: (text) => notes.push(text), progress: () => undefined, confined: true }, { checkOutput: options.checkOutput });
      // The CLI asks for the notes in the body (all of them, for the same stderr as without a daemon).
      if (envelope) return c.json({ output, notes });
      if (notes.length > 0) c.header('x-lore-notes', notesHeader(notes));
      return c.json(output as object);
    } catch (error) {
      const { status, body } = errorBody(error);
      if (envelope) return c.json({ ...(body as object), notes }, status);
      if (notes.length > 0) c.header('x-lore-notes', notesHeader(notes));
      return c.json(body as object, status);
    }
  };

  app.post('/api/ops/:name', async (c) => {
    const name = c.req.param('name');
    if (findOp(name) === undefined) return run(c, name, {});
    let input: unknown;
    // Strict UTF-8: a bad byte is refused with its place, never read as U+FFFD into the store.
    const decoded = decodeUtf8(new Uint8Array(await c.req.arrayBuffer()));
    if ('fault' in decoded) return refuse(c, 400, 'PARSE', `the body is not valid UTF-8 (byte 0x${decoded.fault.byte.toString(16).padStart(2, '0')} at line ${decoded.fault.line}, column ${decoded.fault.column})`);
    try {
      input = decoded.text.trim() === '' ? {} : JSON.parse(decoded.text);
    } catch (error) {
      return refuse(c, 400, 'USAGE', `the body is not JSON: ${(error as Error).message}`);
    }
    return run(c, name, input);
  });

  app.get('/api/ops/:name', async (c) => {
    const name = c.req.param('name');
    const op = findOp(name);
    if (op !== undefined && !opMethods(op).includes('GET')) return refuse(c, 405, 'USAGE', `${name} changes the store: POST it`);
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
  for (const route of GET_ROUTES) app.get(route.path, (c) => run(c, route.op, route.input((name) => c.req.query(name), (name) => c.req.param(name) ?? '')));

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

  app.get('/api/events', (c) => {
    if (options.hub.size >= MAX_LISTENERS) return refuse(c, 503, 'TOO_LARGE', `${MAX_LISTENERS} pages already listen to this daemon`);
    return streamSSE(c, (stream) => streamEvents(stream, options));
  });

  app.all('/api/*', (c) => refuse(c, 404, 'NOT_FOUND', `no API ${c.req.method} ${c.req.path}`, 'GET /api/ops lists the operations'));

  app.get('*', async (c) => {
    if (!options.ui) return refuse(c, 404, 'NOT_FOUND', 'the web UI is off (lore serve --no-ui)');
    const path = c.req.path;
    let asset = uiAsset(path);
    if (path === '/' || path === '/index.html') {
      // The page holds the token, so it goes only to a browser that has it: from the link lore serve
      // printed (kept in a strict, HTTP-only cookie, and dropped from the address bar) or the cookie.
      const given = c.req.query('token');
      if (given !== undefined && sameToken(given, options.token)) {
        c.header('set-cookie', `${tokenCookie(options.address().port)}=${options.token}; Path=/; HttpOnly; SameSite=Strict`);
        return c.redirect('/', 303);
      }
      const store = (await options.ws.root().catch(() => 'lore')).split('/').pop() ?? 'lore';
      if (!sameToken(cookie(c, tokenCookie(options.address().port)), options.token)) {
        c.status(401);
        asset = lockedPage(store);
      } else {
        asset = indexPage(options.token, store);
      }
    }
    if (asset === undefined) return refuse(c, 404, 'NOT_FOUND', `no page ${path}`);
    c.header('content-security-policy', CSP);
    c.header('x-frame-options', 'DENY');
    c.header('cache-control', 'no-cache');
    c.header('content-type', asset.type);
    return c.body(typeof asset.body === 'string' ? asset.body : new Uint8Array(asset.body));
  });

  return app;
}

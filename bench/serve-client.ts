// A `lore serve` child process for the bench, and a small client for it: operations over HTTP
// (a new connection per call as the CLI makes, or a kept-alive one for calls back to back: the
// server closes a connection idle for 5 s, and a call racing that close would fail), /api/health,
// and the change events of /api/events with the moment each arrived.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request, type ClientRequest } from 'node:http';
import { join } from 'node:path';
import { LORE } from './harness.js';

export interface Serve {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT` */
  url: string;
  token: string;
  /** From spawn until it printed its URL. */
  ms: number;
  exited: Promise<void>;
  /** What it printed on stdout and stderr. */
  output(): string;
}

/** Starts `lore serve --port 0` on `store`; resolves once it printed its URL. */
export async function startServe(store: string): Promise<Serve> {
  const started = performance.now();
  const { LORE_NO_DAEMON: _, ...env } = process.env;
  const child = spawn(process.execPath, [LORE, 'serve', '--port', '0'], { cwd: store, env: { ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`lore serve did not print its URL in 120 s:\n${output}`)), 120_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (found !== null) {
        clearTimeout(timer);
        resolve(found[0]);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`lore serve exited before it listened:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  const ms = performance.now() - started;
  // Should the bench itself die, the daemon goes with it.
  const kill = (): void => void child.kill('SIGTERM');
  process.once('exit', kill);
  void exited.then(() => process.off('exit', kill));
  const { token } = JSON.parse(readFileSync(join(store, '.knowledge', '.cache', 'daemon.json'), 'utf8')) as { token: string };
  return { child, url, token, ms, exited, output: () => output };
}

/** SIGTERM, then SIGKILL when it has not exited within 5 s; resolves once it exited. */
export async function stopServe(serve: Serve): Promise<void> {
  if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGTERM');
  const timer = setTimeout(() => serve.child.kill('SIGKILL'), 5000);
  await serve.exited;
  clearTimeout(timer);
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** Closes the kept-alive connection; the next keep-alive call opens a new one. */
export function closeAgent(): void {
  agent.destroy();
}

function call(serve: Serve, method: string, path: string, body: unknown, keepAlive: boolean): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { 'x-lore-token': serve.token, ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }) };
    const req = request(`${serve.url}${path}`, { method, agent: keepAlive ? agent : false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** The output of an operation (POST /api/ops/<name>); anything but 200 throws. */
export async function op(serve: Serve, name: string, input: unknown, keepAlive = false): Promise<Record<string, unknown>> {
  const { status, json } = await call(serve, 'POST', `/api/ops/${name}`, input, keepAlive);
  if (status !== 200) throw new Error(`${name} answered ${status}: ${JSON.stringify(json).slice(0, 500)}`);
  return json as Record<string, unknown>;
}

/** GET /api/health. */
export async function health(serve: Serve): Promise<{ rssBytes: number; batches: number; served: Record<string, number> }> {
  return (await call(serve, 'GET', '/api/health', undefined, false)).json as { rssBytes: number; batches: number; served: Record<string, number> };
}

/** The daemon's change events (/api/events), each with the moment (performance.now()) it arrived. */
export class ChangeEvents {
  private readonly changes: Array<{ at: number; paths: string[] }> = [];
  private readonly waiters = new Set<() => void>();
  private req: ClientRequest | undefined;

  /** Opens the stream; resolves once the daemon said hello, rejects when it refused or ended the stream before. */
  static open(serve: Serve): Promise<ChangeEvents> {
    const events = new ChangeEvents();
    return new Promise((resolve, reject) => {
      events.req = request(`${serve.url}/api/events`, { agent: false, headers: { accept: 'text/event-stream', 'x-lore-token': serve.token } }, (res) => {
        // A daemon gone mid-stream: no more events, and a waiter says so when its time is up.
        res.on('error', () => undefined);
        // Once hello arrived this rejects nothing: a promise settles once.
        res.on('end', () => reject(new Error(`/api/events answered ${res.statusCode} and ended before its hello`)));
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          const at = performance.now();
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: ?(.*)$/m.exec(block)?.[1];
            const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.replace(/^data: ?/, '')).join('\n');
            if (event === 'hello') resolve(events);
            if (event === 'change') events.changes.push({ at, paths: (JSON.parse(data) as { paths: string[] }).paths });
            for (const wake of events.waiters) wake();
          }
        });
      });
      events.req.on('error', reject);
      events.req.end();
    });
  }

  /** How many change events arrived so far. */
  get count(): number {
    return this.changes.length;
  }

  /** The arrival of the change event after which the paths of the events from index `from` on satisfy `done`. */
  waitFor(from: number, done: (paths: ReadonlySet<string>) => boolean, timeoutMs: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const paths = new Set<string>();
        for (let i = from; i < this.changes.length; i++) {
          for (const path of this.changes[i]!.paths) paths.add(path);
          if (done(paths)) {
            finish();
            return resolve(this.changes[i]!.at);
          }
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`no change event within ${timeoutMs} ms (${this.changes.length - from} arrived)`));
      }, timeoutMs);
      const finish = (): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  close(): void {
    this.req?.destroy();
  }
}

// Asking a running daemon instead of reading the files: for the read commands that name
// `daemon` in their spec, when daemon.json names a live daemon of this lore version serving this
// store. The answer is the operation's output, printed by the same code, so the output is the same
// byte for byte. Anything short of an answer (no daemon, a refused connection, a daemon that
// stopped mid-way) means: read the files here. LORE_NO_DAEMON=1 never asks.
import { request } from 'node:http';
import { LoreError, type LoreErrorCode, type Problem } from '../errors.js';
import { liveDaemon } from '../daemon/address.js';
import { findStoreRoot } from '../store/locate.js';

/** How long a daemon may stay silent (not connecting, not answering) before the files are read instead. */
const TIMEOUT_MS = 15_000;

interface Answer {
  status: number;
  body: string;
  notes: string[];
}

function post(url: string, token: string, body: string): Promise<Answer | undefined> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-lore-token': token, 'content-length': Buffer.byteLength(body) }, timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', () => resolve(undefined));
      res.on('end', () => {
        const header = res.headers['x-lore-notes'];
        let notes: string[] = [];
        try {
          if (typeof header === 'string') notes = JSON.parse(decodeURIComponent(header)) as string[];
        } catch {
          notes = [];
        }
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), notes });
      });
    });
    req.on('error', () => resolve(undefined));
    req.on('timeout', () => req.destroy());
    req.end(body);
  });
}

/**
 * The output of `op` for `input` from the store's daemon, or undefined when there is none to ask
 * (the caller runs the operation itself). A refusal of the operation is thrown as the LoreError
 * the operation threw in the daemon.
 */
export async function askDaemon(options: { cwd: string; store: string | undefined; env: NodeJS.ProcessEnv; version: string; note(text: string): void }, op: string, input: unknown): Promise<{ output: unknown } | undefined> {
  if (options.env.LORE_NO_DAEMON === '1') return undefined;
  let root: string;
  try {
    root = findStoreRoot({ cwd: options.cwd, store: options.store });
  } catch {
    return undefined;
  }
  const daemon = liveDaemon(root, options.version);
  if (daemon === undefined) return undefined;
  const answer = await post(`${daemon.url}/api/ops/${op}`, daemon.token, JSON.stringify(input));
  if (answer === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return undefined;
  }
  for (const text of answer.notes) options.note(text);
  if (answer.status === 200) return { output: body };
  const error = (body as { error?: { code: string; message: string; hint?: string; problems?: Problem[] } }).error;
  // A refusal of the request itself (a token from an older daemon.json), or a bug: read the files.
  if (error === undefined || error.code === 'FORBIDDEN' || error.code === 'INTERNAL') return undefined;
  throw new LoreError(error.code as LoreErrorCode, error.message, { problems: error.problems ?? [], ...(error.hint === undefined ? {} : { hint: error.hint }) });
}

// Asking a running daemon instead of reading the files: for the read commands that name
// `daemon` in their spec, when daemon.json names a live daemon of this lore version serving this
// store. The answer is the operation's output, printed by the same code, so the output is the same
// byte for byte (notes and error frames included). Anything short of an answer (no daemon, one
// started with other settings, a refused connection, no answer in time) means: read the files
// here. LORE_NO_DAEMON=1 never asks.
import { request } from 'node:http';
import { LoreError, type LoreErrorCode, type Problem } from '../errors.js';
import { liveDaemon } from '../daemon/address.js';
import { findStoreRoot } from '../store/locate.js';

/** How long a daemon may take to accept the connection: a live one on this machine does it at once. */
const CONNECT_MS = 500;
/** How long it may take to answer (the first build of an index at 10,000 entries is well under it). */
const ANSWER_MS = 10_000;

interface Answer {
  status: number;
  body: string;
}

function post(url: string, token: string, body: string): Promise<Answer | undefined> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (answer: Answer | undefined): void => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      resolve(answer);
      req.destroy();
    };
    // A stopped or stuck daemon must not hold a command up: past the deadline, read the files.
    let deadline = setTimeout(() => finish(undefined), CONNECT_MS);
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-lore-token': token, 'x-lore-envelope': '1', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', () => finish(undefined));
      res.on('end', () => finish({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('socket', (socket) => socket.once('connect', () => {
      clearTimeout(deadline);
      deadline = setTimeout(() => finish(undefined), ANSWER_MS);
    }));
    req.on('error', () => finish(undefined));
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
  const daemon = liveDaemon(root, options.version, options.env);
  if (daemon === undefined) return undefined;
  const answer = await post(`${daemon.url}/api/ops/${op}`, daemon.token, JSON.stringify(input));
  if (answer === undefined) return undefined;
  let body: { output?: unknown; notes?: unknown; error?: { code: string; message: string; hint?: string; problems?: Problem[] } };
  try {
    body = JSON.parse(answer.body) as typeof body;
  } catch {
    return undefined;
  }
  const notes = Array.isArray(body.notes) ? body.notes.filter((n): n is string => typeof n === 'string') : [];
  if (answer.status === 200 && 'output' in body) {
    for (const text of notes) options.note(text);
    return { output: body.output };
  }
  const error = body.error;
  // A refusal of the request itself (a token from an older daemon.json), or a bug: read the files.
  if (error === undefined || error.code === 'FORBIDDEN' || error.code === 'INTERNAL') return undefined;
  for (const text of notes) options.note(text);
  throw new LoreError(error.code as LoreErrorCode, error.message, { problems: error.problems ?? [], ...(error.hint === undefined ? {} : { hint: error.hint }) });
}

// Asking a running daemon instead of reading the files: for the read commands that name
// `daemon` in their spec, when daemon.json names a live daemon of this lore version serving this
// store. The answer is the operation's output, printed by the same code, so the output is the same
// byte for byte (notes and error frames included). Anything short of an answer (no daemon, one
// started with other settings, a refused connection, no answer in time) means: read the files
// here. LORE_NO_DAEMON=1 never asks.
import { connect } from 'node:net';
import { LoreError, type LoreErrorCode, type Problem } from '../errors.js';
import { liveDaemon } from '../daemon/address.js';
import { findStoreRoot } from '../store/locate.js';

/** How long a daemon may take to accept the connection: a live one on this machine does it at once. */
const CONNECT_MS = 500;
/** How long it may take to answer (the first build of an index at 10,000 entries is well under it). */
const ANSWER_MS = 10_000;
/**
 * The most an answer may hold: a list of some 40,000 entries. A larger one (or a server that
 * streams without end) is dropped as it arrives and the files are read instead, which gives the
 * same output; held whole, it could outgrow the longest string Node makes and crash the command.
 */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

interface Answer {
  status: number;
  body: string;
}

/**
 * POSTs `body` to `path` of the daemon as HTTP/1.0 over a plain socket: the daemon (Node's HTTP
 * server) then answers with its body as it is (never chunked) and closes the connection, so the
 * answer is the status line's code and everything after the headers. Node's HTTP client would take
 * about 5 ms more of a command that lasts 90 (loading it and its first request). The request is
 * written, not ended: Node's server closes a connection its client half-closed as soon as it sees
 * that, before an operation that awaits anything has answered.
 */
function post(host: string, port: number, path: string, token: string, body: string): Promise<Answer | undefined> {
  // What goes into the request comes from daemon.json: a port, and text printable and without spaces, or no request.
  if (!Number.isInteger(port) || port < 1 || port > 65535 || ![host, path, token].every((text) => /^[!-~]+$/.test(text))) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let done = false;
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (answer: Answer | undefined): void => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      resolve(answer);
      socket.destroy();
    };
    // A stopped or stuck daemon must not hold a command up: past the deadline, read the files.
    let deadline = setTimeout(() => finish(undefined), CONNECT_MS);
    const socket = connect(port, host, () => {
      clearTimeout(deadline);
      deadline = setTimeout(() => finish(undefined), ANSWER_MS);
      // The Host header as the daemon checks it (_security.ts): an IPv6 address in brackets.
      const head = [`POST ${path} HTTP/1.0`, `host: ${host.includes(':') ? `[${host}]` : host}:${port}`, 'content-type: application/json', `x-lore-token: ${token}`, 'x-lore-envelope: 1', `content-length: ${Buffer.byteLength(body)}`];
      socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_ANSWER_BYTES) finish(undefined);
      else chunks.push(chunk);
    });
    socket.on('error', () => finish(undefined));
    socket.on('end', () => finish(parseAnswer(Buffer.concat(chunks))));
  });
}

/** The status and body of an HTTP response read to its end; undefined when it is not one. */
function parseAnswer(bytes: Buffer): Answer | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  const status = /^HTTP\/1\.[01] (\d{3}) /.exec(bytes.toString('latin1', 0, Math.max(0, end)));
  return end < 0 || status === null ? undefined : { status: Number(status[1]), body: bytes.toString('utf8', end + 4) };
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
  const answer = await post(daemon.host, daemon.port, `/api/ops/${op}`, daemon.token, JSON.stringify(input));
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

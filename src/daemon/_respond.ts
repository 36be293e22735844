// How the daemon answers what went wrong: lore's error shape (the same as `--json` errors and
// MCP tool errors) with an HTTP status for each error code, and the notes of an operation.
import type { Context } from 'hono';
import { LoreError, systemError } from '../errors.js';

/** The most bytes of notes sent in the x-lore-notes header. */
const MAX_NOTES_BYTES = 8 * 1024;

export type Status = 400 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 500 | 503;

const STATUS: Partial<Record<string, Status>> = {
  USAGE: 400, INVALID_ID: 400, PARSE: 400, NOT_A_GIT_REPO: 400, EMPTY_RANGE: 400, TOO_LARGE: 413,
  NOT_FOUND: 404, STORE_NOT_FOUND: 404, BRANCH_NOT_FOUND: 404,
  CONFLICT: 409, ALREADY_SUMMARIZED: 409, INSUFFICIENT_NODES: 409,
  INVALID_RECORD: 422, INVALID_STORE: 422, BLOCKED: 422, LOCK_TIMEOUT: 503,
};

/** lore's error body (the same shape as `--json` errors and MCP tool errors). */
export function errorBody(thrown: unknown): { status: Status; body: unknown } {
  const error = systemError(thrown) ?? thrown;
  if (error instanceof LoreError) {
    const problems = error.problems;
    return { status: STATUS[error.code] ?? 500, body: { error: { code: error.code, message: error.message, ...(error.hint === undefined ? {} : { hint: error.hint }), problems } } };
  }
  return { status: 500, body: { error: { code: 'INTERNAL', message: `internal error: ${(error as Error)?.message ?? String(error)} (a bug in lore: please report it)`, problems: [] } } };
}

/** The notes of an operation as a header value: a URI-encoded JSON array, the last ones cut to fit. */
export function notesHeader(notes: readonly string[]): string {
  let shown = [...notes];
  let header = JSON.stringify(shown);
  while (header.length > MAX_NOTES_BYTES && shown.length > 1) {
    shown = shown.slice(0, -1);
    header = JSON.stringify([...shown, `(${notes.length - shown.length} more notes not shown)`]);
  }
  return encodeURIComponent(header);
}

/** A refusal: status, lore's error code and message, and a hint. */
export function refuse(c: Context, status: Status, code: string, message: string, hint?: string): Response {
  return c.json({ error: { code, message, ...(hint === undefined ? {} : { hint }), problems: [] } }, status);
}


// The one append-only NDJSON engine. Appends are serialised by a lock, written with a single
// write and fsynced before they are acknowledged. Replay streams the file, keeps the latest line
// per id by (timestamp, then line order), and reports and skips torn or unparsable lines.
import { isUtf8 } from 'node:buffer';
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fsyncDir, writeFileAtomic } from '../fs/atomic-write.js';
import { assertNoSymlinkedDirs, O_NOFOLLOW, READ_NOFOLLOW, rethrowSymlink } from '../fs/no-follow.js';
import { decodeUtf8 } from '../fs/utf8.js';
import { isErrno, type Problem } from '../errors.js';
import { withLock, type LockOptions } from './lock.js';

/** One parsed line of a log. */
export interface LogLine<T = Record<string, unknown>> {
  /** 1-based line number in the file. */
  line: number;
  value: T;
}

export interface LogReadOptions<T> {
  /** Path shown in problems (default: the file path). */
  displayPath?: string;
  /** Returns why a parsed line is not a valid record, or undefined when it is. */
  validate?: (value: unknown) => string | undefined;
  /** Stop with a problem past this many bytes in one line (default 1 MiB). */
  maxLineBytes?: number;
  /** Receives each valid line in file order. */
  onLine?: (line: LogLine<T>) => void;
}

export interface LogReadResult {
  /** Lines in the file, valid or not. */
  lines: number;
  problems: Problem[];
}

/** Parses one line at a time into `onLine`, recording problems; shared by file and text readers. */
function lineReader<T>(shown: string, options: LogReadOptions<T>, problems: Problem[]): { handle: (text: string, complete: boolean) => void; skip: (problem: Omit<Problem, 'severity' | 'file' | 'line'>) => void; count: () => number } {
  let lineNumber = 0;
  const handle = (text: string, complete: boolean): void => {
    lineNumber++;
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      const message = complete ? 'is not valid JSON and was skipped' : 'is incomplete (a write was cut off) and was skipped';
      problems.push({ severity: 'error', file: shown, line: lineNumber, column: 1, message: `line ${lineNumber} ${message}` });
      return;
    }
    const invalid = value === null || typeof value !== 'object' || Array.isArray(value) ? 'is not a JSON object' : options.validate?.(value);
    if (invalid !== undefined) {
      problems.push({ severity: 'error', file: shown, line: lineNumber, column: 1, message: `line ${lineNumber} ${invalid}; skipped` });
      return;
    }
    options.onLine?.({ line: lineNumber, value: value as T });
  };
  const skip = (problem: Omit<Problem, 'severity' | 'file' | 'line'>): void => {
    lineNumber++;
    problems.push({ severity: 'error', file: shown, line: lineNumber, ...problem });
  };
  return { handle, skip, count: () => lineNumber };
}

/**
 * Feeds the lines of `bytes` (no trailing newline) to the reader, decoding strictly: one check of
 * the whole block when it is UTF-8 (the usual case), line by line to find the bad one when not.
 */
function handleBlock(reader: ReturnType<typeof lineReader>, bytes: Buffer, complete: boolean): void {
  if (isUtf8(bytes)) {
    const lines = bytes.toString('utf8').split('\n');
    const last = lines.length - 1;
    lines.forEach((line, i) => reader.handle(line, complete || i < last));
    return;
  }
  let start = 0;
  for (;;) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    const lineComplete = complete || newline !== -1;
    const decoded = decodeUtf8(bytes.subarray(start, end));
    if ('text' in decoded) reader.handle(decoded.text, lineComplete);
    else if (!lineComplete) reader.skip({ column: 1, message: `line ${reader.count() + 1} is incomplete (a write was cut off) and was skipped` });
    else reader.skip({ column: decoded.fault.column, message: `line ${reader.count() + 1} is not valid UTF-8 (byte 0x${decoded.fault.byte.toString(16).padStart(2, '0')}) and was skipped` });
    if (newline === -1) return;
    start = newline + 1;
  }
}

/** Streams a log line by line; a missing file is an empty log. Bytes that are not UTF-8 skip their line, with a problem. */
export async function readLog<T = Record<string, unknown>>(file: string, options: LogReadOptions<T> = {}): Promise<LogReadResult> {
  const shown = options.displayPath ?? file;
  const maxLine = options.maxLineBytes ?? 1024 * 1024;
  const problems: Problem[] = [];
  const reader = lineReader(shown, options, problems);
  let rest: Buffer = Buffer.alloc(0);
  try {
    assertNoSymlinkedDirs(file);
    const fd = await open(file, READ_NOFOLLOW);
    const stream = fd.createReadStream({ highWaterMark: 1024 * 1024 });
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const data = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
      const newline = data.lastIndexOf(0x0a);
      if (newline === -1) {
        rest = data;
      } else {
        handleBlock(reader, data.subarray(0, newline), true);
        rest = data.subarray(newline + 1);
      }
      if (rest.length > maxLine) {
        problems.push({ severity: 'error', file: shown, line: reader.count() + 1, column: 1, message: `line ${reader.count() + 1} is longer than ${maxLine} bytes; the rest of the log was not read` });
        stream.destroy();
        return { lines: reader.count() + 1, problems };
      }
    }
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return { lines: 0, problems };
    return rethrowSymlink(error, file);
  }
  if (rest.length > 0) handleBlock(reader, rest, false);
  return { lines: reader.count(), problems };
}

/**
 * Reads a log held in memory (e.g. `git show REV:<path>`), exactly as readLog reads a file. Give
 * the bytes when you have them, so that bytes that are not UTF-8 are found, not replaced.
 *
 * @example
 * readLogText('{"id":"a","timestamp":"2026-01-01T00:00:00Z"}\n', { onLine: (l) => console.log(l.value.id) }); // → { lines: 1, problems: [] }
 */
export function readLogText<T = Record<string, unknown>>(text: string | Uint8Array, options: LogReadOptions<T> = {}): LogReadResult {
  const problems: Problem[] = [];
  const reader = lineReader(options.displayPath ?? '<text>', options, problems);
  if (typeof text !== 'string') {
    const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
    const newline = bytes.lastIndexOf(0x0a);
    if (newline !== -1) handleBlock(reader, bytes.subarray(0, newline), true);
    if (newline + 1 < bytes.length) handleBlock(reader, bytes.subarray(newline + 1), false);
    return { lines: reader.count(), problems };
  }
  const parts = text.split('\n');
  const last = parts.pop()!;
  for (const part of parts) reader.handle(part, true);
  if (last !== '') reader.handle(last, false);
  return { lines: reader.count(), problems };
}

export interface ReplayOptions<T> extends Omit<LogReadOptions<T>, 'onLine'> {
  /** The identity of a record (default: its id). */
  keyOf?: (value: T) => string;
  /** The time that orders versions of a record, in ms (default: Date.parse of `timestamp`). */
  timeOf?: (value: T) => number;
}

export interface ReplayResult<T> extends LogReadResult {
  /** The latest version of every record, tombstoned ones removed, in order of first appearance. */
  records: Map<string, LogLine<T>>;
  /** The keys whose latest line is a tombstone: deleted on purpose, not just absent. */
  deleted: Set<string>;
}

/** Keeps the latest line per key while lines are read; `finish` drops tombstoned records. */
function latestPerKey<T>(options: ReplayOptions<T>): { onLine: (line: LogLine<T>) => void; finish: () => Pick<ReplayResult<T>, 'records' | 'deleted'> } {
  const keyOf = options.keyOf ?? ((value: T) => String((value as { id?: unknown }).id));
  const timeOf = options.timeOf ?? ((value: T) => Date.parse(String((value as { timestamp?: unknown }).timestamp)));
  const latest = new Map<string, { line: LogLine<T>; time: number }>();
  const onLine = (line: LogLine<T>): void => {
    const key = keyOf(line.value);
    const parsed = timeOf(line.value);
    const time = Number.isNaN(parsed) ? -Infinity : parsed;
    const current = latest.get(key);
    // Equal times: the later line wins. A line without a valid time never beats one with.
    if (current === undefined || time >= current.time) latest.set(key, { line, time });
  };
  const finish = (): Pick<ReplayResult<T>, 'records' | 'deleted'> => {
    const records = new Map<string, LogLine<T>>();
    const deleted = new Set<string>();
    for (const [key, { line }] of latest) {
      if ((line.value as { deleted?: unknown }).deleted !== true) records.set(key, line);
      else deleted.add(key);
    }
    return { records, deleted };
  };
  return { onLine, finish };
}

/** Replays a log: the latest line per id by (timestamp, then line order) wins; tombstones delete. */
export async function replayLog<T = Record<string, unknown>>(file: string, options: ReplayOptions<T> = {}): Promise<ReplayResult<T>> {
  const { onLine, finish } = latestPerKey(options);
  const result = await readLog<T>(file, { ...options, onLine });
  return { ...result, ...finish() };
}

/**
 * Replays a log held in memory (the committed version from git), with replayLog's rules.
 *
 * @example
 * replayLogText(await git(['show', 'HEAD:./.knowledge/log/applications.ndjson'], { cwd })).records.size; // → records at HEAD
 */
export function replayLogText<T = Record<string, unknown>>(text: string | Uint8Array, options: ReplayOptions<T> = {}): ReplayResult<T> {
  const { onLine, finish } = latestPerKey(options);
  const result = readLogText<T>(text, { ...options, onLine });
  return { ...result, ...finish() };
}

async function endsWithNewline(handle: import('node:fs/promises').FileHandle, size: number): Promise<boolean> {
  if (size === 0) return true;
  const buffer = Buffer.alloc(1);
  await handle.read(buffer, 0, 1, size - 1);
  return buffer[0] === 0x0a;
}

/** Appends records while the caller already holds the log's lock (see withLog). */
async function appendUnlocked(file: string, records: readonly object[]): Promise<void> {
  if (records.length === 0) return;
  let created = false;
  try {
    await stat(file);
  } catch (error) {
    if (!isErrno(error, 'ENOENT')) throw error;
    created = true;
  }
  assertNoSymlinkedDirs(file);
  const handle = await open(file, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | O_NOFOLLOW, 0o644).catch((error: unknown) => rethrowSymlink(error, file));
  try {
    const { size } = await handle.stat();
    // A torn last line (a crash mid-append) must not swallow the first new record.
    const prefix = (await endsWithNewline(handle, size)) ? '' : '\n';
    const text = prefix + records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    await handle.write(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (created) await fsyncDir(dirname(file));
}

/** What a caller may do while holding a log's lock. */
export interface LogWriter {
  append(records: readonly object[]): Promise<void>;
}

/** Runs `fn` with the log locked, so it can read state and append in one step (read-modify-append). */
export async function withLog<T>(file: string, fn: (writer: LogWriter) => Promise<T>, options: LockOptions = {}): Promise<T> {
  return withLock(file, () => fn({ append: (records) => appendUnlocked(file, records) }), options);
}

/** Appends records to a log: locked, one write, fsynced before it returns. */
export async function appendRecords(file: string, records: readonly object[], options: LockOptions = {}): Promise<void> {
  await withLog(file, (writer) => writer.append(records), options);
}

/**
 * Rewrites a log atomically under its lock (compaction, pruning): `transform` receives the valid
 * lines in file order and returns the records to keep. Unparsable lines are dropped and reported.
 */
export async function rewriteLog<T = Record<string, unknown>>(
  file: string,
  transform: (lines: LogLine<T>[]) => readonly object[],
  options: LockOptions & Omit<LogReadOptions<T>, 'onLine'> = {},
): Promise<{ before: number; after: number; problems: Problem[] }> {
  return withLock(file, async () => {
    const lines: LogLine<T>[] = [];
    const result = await readLog<T>(file, { ...options, onLine: (line) => lines.push(line) });
    const kept = transform(lines);
    await writeFileAtomic(file, kept.map((r) => JSON.stringify(r) + '\n').join(''));
    return { before: result.lines, after: kept.length, problems: result.problems };
  }, options);
}

// The one append-only NDJSON engine. Appends are serialised by a lock, written with a single
// write and fsynced before they are acknowledged; a record that would make a line over
// MAX_LINE_BYTES is refused, so readers read back every line lore wrote. Replay streams the file,
// keeps the latest line per id by (timestamp, then line order), and reports and skips torn,
// unparsable and over-long lines, reading on past them. A rewrite refuses a log with such a line.
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fsyncDir, writeFileAtomic } from '../fs/atomic-write.js';
import { assertNoSymlinkedDirs, O_NOFOLLOW, rethrowSymlink } from '../fs/no-follow.js';
import { isErrno, LoreError, type Problem } from '../errors.js';
import { lineParser, MAX_LINE_BYTES, splitBytes, splitFile, splitText, type SkipKind } from './_lines.js';
import { withLock, type LockOptions } from './lock.js';
import { stampVersions, type VersionRule } from './versions.js';

export { MAX_LINE_BYTES } from './_lines.js';

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
  /** Receives each valid line in file order. */
  onLine?: (line: LogLine<T>) => void;
}

export interface LogReadResult {
  /** Lines in the file, valid or not. */
  lines: number;
  problems: Problem[];
}

/** The problem of a skipped line, as every reader reports it. */
export function skippedLine(file: string, line: number, reason: string, kind: SkipKind, column = 1): Problem {
  const tail = kind === 'invalid' ? '; skipped' : kind === 'long' ? ', and was skipped' : ' and was skipped';
  return { severity: 'error', file, line, column, message: `line ${line} ${reason}${tail}` };
}

/** Streams a log line by line; a missing file is an empty log. Lines over MAX_LINE_BYTES are reported and skipped. */
export async function readLog<T = Record<string, unknown>>(file: string, options: LogReadOptions<T> = {}): Promise<LogReadResult> {
  const shown = options.displayPath ?? file;
  const problems: Problem[] = [];
  const parser = lineParser<T>(options, (line, reason, kind, column) => problems.push(skippedLine(shown, line, reason, kind, column)));
  try {
    await splitFile(file, MAX_LINE_BYTES, parser);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return { lines: 0, problems };
    throw error;
  }
  return { lines: parser.count(), problems };
}

/**
 * Reads a log held in memory (e.g. `git show REV:<path>`), exactly as readLog reads a file.
 *
 * @example
 * readLogText('{"id":"a","timestamp":"2026-01-01T00:00:00Z"}\n', { onLine: (l) => console.log(l.value.id) }); // → { lines: 1, problems: [] }
 */
export function readLogText<T = Record<string, unknown>>(text: string | Uint8Array, options: LogReadOptions<T> = {}): LogReadResult {
  const shown = options.displayPath ?? '<text>';
  const problems: Problem[] = [];
  const parser = lineParser<T>(options, (line, reason, kind, column) => problems.push(skippedLine(shown, line, reason, kind, column)));
  // Bytes (from git) are split and decoded like a file's, so a byte that is not UTF-8 is found, not replaced.
  if (typeof text === 'string') splitText(text, MAX_LINE_BYTES, parser);
  else splitBytes(Buffer.isBuffer(text) ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength), MAX_LINE_BYTES, parser);
  return { lines: parser.count(), problems };
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
  /** The keys whose latest line is a tombstone (deleted on purpose, not just absent), with that line. */
  deleted: Map<string, LogLine<T>>;
}

/** A log's identity and ordering rules with their defaults (id; Date.parse of `timestamp`, -Infinity when unreadable). */
export function replayRules<T>(options: Pick<ReplayOptions<T>, 'keyOf' | 'timeOf'>): { keyOf: (value: T) => string; timeOf: (value: T) => number } {
  const keyOf = options.keyOf ?? ((value: T) => String((value as { id?: unknown }).id));
  const given = options.timeOf ?? ((value: T) => Date.parse(String((value as { timestamp?: unknown }).timestamp)));
  return { keyOf, timeOf: (value) => {
    const time = given(value);
    return Number.isNaN(time) ? -Infinity : time;
  } };
}

/** Keeps the latest line per key while lines are read; `finish` drops tombstoned records. */
function latestPerKey<T>(options: ReplayOptions<T>): { onLine: (line: LogLine<T>) => void; finish: () => Pick<ReplayResult<T>, 'records' | 'deleted'> } {
  const { keyOf, timeOf } = replayRules(options);
  const latest = new Map<string, { line: LogLine<T>; time: number }>();
  const onLine = (line: LogLine<T>): void => {
    const key = keyOf(line.value);
    const time = timeOf(line.value);
    const current = latest.get(key);
    // Equal times: the later line wins. A line without a valid time never beats one with.
    if (current === undefined || time >= current.time) latest.set(key, { line, time });
  };
  const finish = (): Pick<ReplayResult<T>, 'records' | 'deleted'> => {
    const records = new Map<string, LogLine<T>>();
    const deleted = new Map<string, LogLine<T>>();
    for (const [key, { line }] of latest) {
      if ((line.value as { deleted?: unknown }).deleted !== true) records.set(key, line);
      else deleted.set(key, line);
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

/** The lines of records, refusing any over MAX_LINE_BYTES before anything is written. */
function serialize(records: readonly object[], shown: string): string[] {
  return records.map((record) => {
    const text = JSON.stringify(record);
    // Only a long string can be over the cap: a UTF-16 unit is at most 3 bytes of UTF-8.
    const bytes = text.length * 3 > MAX_LINE_BYTES ? Buffer.byteLength(text) : 0;
    if (bytes > MAX_LINE_BYTES) {
      const id = (record as { id?: unknown }).id;
      throw new LoreError('TOO_LARGE', `${typeof id === 'string' ? `record ${id}` : 'a record'} would be a line of ${bytes} bytes in ${shown}, over the limit of ${MAX_LINE_BYTES} bytes (64 MiB) for one log line; nothing was written`, {
        hint: 'make the record smaller (its longest text fields)',
      });
    }
    return text;
  });
}

/** Appends records while the caller already holds the log's lock (see withLog). */
async function appendUnlocked(file: string, records: readonly object[], shown: string): Promise<void> {
  if (records.length === 0) return;
  const lines = serialize(records, shown);
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
    const bytes = Buffer.from(`${prefix}${lines.join('\n')}\n`);
    try {
      // One write, unless the system writes less than asked (a disk filling up, a file size limit):
      // then the rest, and an error for what cannot be written.
      for (let written = 0; written < bytes.length; ) {
        const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
        if (bytesWritten === 0) throw new Error('nothing more could be written');
        written += bytesWritten;
      }
      await handle.sync();
    } catch (error) {
      // Never a line cut short: the log goes back to what it was before this append.
      await handle.truncate(size).then(() => handle.sync()).catch(() => undefined);
      throw new LoreError('IO', `could not append to ${shown}: ${(error as Error).message}`, { cause: error });
    }
  } finally {
    await handle.close();
  }
  if (created) await fsyncDir(dirname(file));
}

export interface LogWriteOptions extends LockOptions {
  /** Path shown in errors (default: the file path). */
  displayPath?: string;
}

/** What a caller may do while holding a log's lock. */
export interface LogWriter {
  /**
   * Appends records in one write, fsynced before it returns. With `versions`, each record is first
   * stamped as a new version of its key (see versions.ts), in place.
   */
  append<R extends object>(records: readonly R[], versions?: VersionRule<R>): Promise<void>;
}

/** Runs `fn` with the log locked, so it can read state and append in one step (read-modify-append). */
export async function withLog<T>(file: string, fn: (writer: LogWriter) => Promise<T>, options: LogWriteOptions = {}): Promise<T> {
  const shown = options.displayPath ?? file;
  return withLock(file, () => fn({
    append: async (records, versions) => {
      if (versions !== undefined) stampVersions(records, versions);
      await appendUnlocked(file, records, shown);
    },
  }), options);
}

/** Appends records to a log: locked, one write, fsynced before it returns. */
export async function appendRecords(file: string, records: readonly object[], options: LogWriteOptions = {}): Promise<void> {
  await withLog(file, (writer) => writer.append(records), options);
}

/**
 * Appends new versions of records, stamped after the latest version of their keys in the log
 * (replayed under the lock), so each one wins replay even when an older line carries a later time.
 * For logs written rarely; a log written often keeps its own state (a key index, the DAG's state).
 *
 * @example
 * await appendVersions(file, [{ id: 'learn-x', reason: 'again', timestamp: new Date().toISOString() }]);
 */
export async function appendVersions<R extends object>(file: string, records: R[], options: LogWriteOptions & ReplayOptions<R> & { field?: string } = {}): Promise<R[]> {
  const { keyOf, timeOf } = replayRules(options);
  const field = options.field ?? 'timestamp';
  await withLog(file, async (writer) => {
    const keys = new Set(records.map(keyOf));
    const latest = new Map<string, number>();
    const track = (line: LogLine<R>): void => {
      const key = keyOf(line.value);
      if (keys.has(key)) latest.set(key, Math.max(latest.get(key) ?? -Infinity, timeOf(line.value)));
    };
    await readLog<R>(file, { ...options, onLine: track });
    await writer.append(records, { keyOf, timeOf, latest: (key) => latest.get(key), stamp: (record, at) => Object.assign(record, { [field]: at }) });
  }, options);
  return records;
}

/** A line a reader skipped, and why. */
export interface SkippedLine {
  line: number;
  reason: string;
  kind: SkipKind;
}

/**
 * The error of a rewrite refused because some lines could not be read: rewriting would lose them.
 *
 * @example
 * rewriteRefusal('log.ndjson', [{ line: 3, reason: 'is not valid JSON', kind: 'parse' }]).message;
 * // → 'refusing to rewrite log.ndjson: line 3 is not valid JSON, and a rewrite would lose it'
 */
export function rewriteRefusal(shown: string, skipped: readonly SkippedLine[]): LoreError {
  const first = skipped[0]!;
  const more = skipped.length > 1 ? ` (and ${skipped.length - 1} more line${skipped.length === 2 ? '' : 's'})` : '';
  return new LoreError('INVALID_STORE', `refusing to rewrite ${shown}: line ${first.line} ${first.reason}${more}, and a rewrite would lose ${skipped.length === 1 ? 'it' : 'them'}`, {
    problems: skipped.map((s) => skippedLine(shown, s.line, s.reason, s.kind)),
    hint: 'fix or remove the line by hand (lore validate lists every such line); the log was not changed',
  });
}

/**
 * Rewrites a log atomically under its lock (compaction, pruning): `transform` receives the valid
 * lines in file order and returns the records to keep. A log with a line that cannot be read (not
 * JSON, torn, over MAX_LINE_BYTES, refused by `validate`) is never rewritten: it throws
 * INVALID_STORE naming the file and line, and the log is left as it was.
 */
export async function rewriteLog<T = Record<string, unknown>>(
  file: string,
  transform: (lines: LogLine<T>[]) => readonly object[],
  options: LogWriteOptions & Omit<LogReadOptions<T>, 'onLine'> = {},
): Promise<{ before: number; after: number }> {
  const shown = options.displayPath ?? file;
  return withLock(file, async () => {
    const lines: LogLine<T>[] = [];
    const skipped: SkippedLine[] = [];
    const parser = lineParser<T>({ ...options, onLine: (line) => lines.push(line) }, (line, reason, kind) => skipped.push({ line, reason, kind }));
    try {
      await splitFile(file, MAX_LINE_BYTES, parser);
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) throw error;
    }
    if (skipped.length > 0) throw rewriteRefusal(shown, skipped);
    const kept = serialize(transform(lines), shown);
    await writeFileAtomic(file, kept.map((line) => `${line}\n`).join(''));
    return { before: parser.count(), after: kept.length };
  }, options);
}

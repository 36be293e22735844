// Splitting a log's bytes into lines, for the readers in ndjson.ts and key-index.ts. It works on
// bytes, so the line cap is in bytes and a character split across two chunks is never decoded in
// halves. A line over the cap is counted, not kept: its bytes are dropped as they arrive, so
// skipping it takes no more memory than the cap, and the next line is read as usual.
import { createReadStream } from 'node:fs';

const NEWLINE = 0x0a;

/** Where the lines go. */
export interface LineSink {
  /** A line within the cap, without its newline; `complete` is false for a last line with none. */
  line(text: string, complete: boolean): void;
  /** A line over the cap, `bytes` long (without its newline); its text was not kept. */
  tooLong(bytes: number, complete: boolean): void;
}

export interface SplitOptions {
  /** Byte offset to start at (the start of a line). */
  start?: number;
  /**
   * What to do with bytes after the last newline: 'line' hands them over as an incomplete last
   * line (a torn write); 'leave' does not read them, since an append may be under way.
   */
  tail?: 'line' | 'leave';
  /** About how many bytes there are to read: a short read (the tail of a log) uses a small buffer. */
  expect?: number;
}

/** Splits a stream of chunks into lines; returns how many bytes were handed over as lines. */
export async function splitChunks(chunks: AsyncIterable<Buffer>, maxBytes: number, sink: LineSink, tail: 'line' | 'leave' = 'line'): Promise<number> {
  let pieces: Buffer[] = [];
  let size = 0;
  let over = false;
  let consumed = 0;
  for await (const chunk of chunks) {
    let from = 0;
    let newline: number;
    while ((newline = chunk.indexOf(NEWLINE, from)) !== -1) {
      const length = size + newline - from;
      if (over || length > maxBytes) sink.tooLong(length, true);
      else if (pieces.length === 0) sink.line(chunk.toString('utf8', from, newline), true);
      else sink.line(Buffer.concat([...pieces, chunk.subarray(from, newline)], length).toString('utf8'), true);
      consumed += length + 1;
      pieces = [];
      size = 0;
      over = false;
      from = newline + 1;
    }
    if (from < chunk.length) {
      size += chunk.length - from;
      if (over || size > maxBytes) {
        over = true;
        pieces = [];
      } else {
        pieces.push(chunk.subarray(from));
      }
    }
  }
  if (size > 0 && tail === 'line') {
    if (over) sink.tooLong(size, false);
    else sink.line(Buffer.concat(pieces, size).toString('utf8'), false);
    consumed += size;
  }
  return consumed;
}

/** Splits a file into lines from `start`; returns the offset just after the last line handed over. A missing file throws ENOENT. */
export async function splitFile(file: string, maxBytes: number, sink: LineSink, options: SplitOptions = {}): Promise<number> {
  const start = options.start ?? 0;
  const highWaterMark = Math.min(1024 * 1024, Math.max(16 * 1024, options.expect ?? Infinity));
  const stream = createReadStream(file, { start, highWaterMark });
  return start + (await splitChunks(stream as AsyncIterable<Buffer>, maxBytes, sink, options.tail));
}

/**
 * The longest line a log may hold, in bytes without its newline: 64 MiB, the largest input a
 * command reads. Writers refuse a record that would make a longer line, so readers read every line
 * lore wrote whole; a longer line (made by hand) is reported and skipped, and reading goes on.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Why a line was skipped: it could not be parsed, it was over the cap, or its validator refused it. */
export type SkipKind = 'parse' | 'long' | 'invalid';

export interface ParseOptions<T> {
  validate?: ((value: unknown) => string | undefined) | undefined;
  onLine?: ((line: { line: number; value: T }) => void) | undefined;
  /** The number of the first line handed over (default 1). */
  firstLine?: number;
  maxBytes?: number;
}

/** Parses lines into `onLine` and reports the ones it skips; `count()` is the last line number seen. */
export function lineParser<T>(options: ParseOptions<T>, skip: (line: number, reason: string, kind: SkipKind) => void): LineSink & { count(): number } {
  let lineNumber = (options.firstLine ?? 1) - 1;
  const maxBytes = options.maxBytes ?? MAX_LINE_BYTES;
  return {
    line(text, complete) {
      lineNumber++;
      if (text.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        skip(lineNumber, complete ? 'is not valid JSON' : 'is incomplete (a write was cut off)', 'parse');
        return;
      }
      const invalid = value === null || typeof value !== 'object' || Array.isArray(value) ? 'is not a JSON object' : options.validate?.(value);
      if (invalid !== undefined) {
        skip(lineNumber, invalid, 'invalid');
        return;
      }
      options.onLine?.({ line: lineNumber, value: value as T });
    },
    tooLong(bytes, complete) {
      lineNumber++;
      if (complete) skip(lineNumber, `is ${bytes} bytes, over the limit of ${maxBytes} bytes for one log line`, 'long');
      else skip(lineNumber, 'is incomplete (a write was cut off)', 'parse');
    },
    count: () => lineNumber,
  };
}

/** Hands the lines of text held in memory to `sink`, as splitChunks does for bytes. */
export function splitText(text: string, maxBytes: number, sink: LineSink): void {
  const parts = text.split('\n');
  const last = parts.pop()!;
  const hand = (part: string, complete: boolean): void => {
    // A UTF-16 unit is at most 3 bytes of UTF-8: only long strings need counting.
    const bytes = part.length * 3 > maxBytes ? Buffer.byteLength(part) : 0;
    if (bytes > maxBytes) sink.tooLong(bytes, complete);
    else sink.line(part, complete);
  };
  for (const part of parts) hand(part, true);
  if (last !== '') hand(last, false);
}

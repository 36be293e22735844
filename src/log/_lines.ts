// Splitting a log's bytes into lines, for the readers in ndjson.ts and key-index.ts. It works on
// bytes, so the line cap is in bytes and a character split across two chunks is never decoded in
// halves, and a line that is not UTF-8 is reported as such, never read with U+FFFD in its place. A line over the cap is counted, not kept: its bytes are dropped as they arrive, so
// skipping it takes no more memory than the cap, and the next line is read as usual.
import { isUtf8 } from 'node:buffer';
import { open } from 'node:fs/promises';
import { assertNoSymlinkedDirs, READ_NOFOLLOW, rethrowSymlink } from '../fs/no-follow.js';
import { decodeUtf8, type Utf8Fault } from '../fs/utf8.js';

const NEWLINE = 0x0a;

/** Where the lines go. */
export interface LineSink {
  /** A line within the cap, without its newline; `complete` is false for a last line with none. */
  line(text: string, complete: boolean): void;
  /** A line over the cap, `bytes` long (without its newline); its text was not kept. */
  tooLong(bytes: number, complete: boolean): void;
  /** A line whose bytes are not UTF-8: where the first bad byte is (its text is not used). */
  notUtf8(fault: Utf8Fault, complete: boolean): void;
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

/** Hands one line's bytes over: decoded when they are UTF-8 (checked natively), its fault when not. */
function emit(sink: LineSink, bytes: Buffer, complete: boolean): void {
  if (isUtf8(bytes)) sink.line(bytes.toString('utf8'), complete);
  else sink.notUtf8((decodeUtf8(bytes) as { fault: Utf8Fault }).fault, complete);
}

/** Splits chunks of bytes into lines as they are pushed; `consumed` counts the bytes handed over. */
class Splitter {
  private pieces: Buffer[] = [];
  private size = 0;
  private over = false;
  consumed = 0;

  constructor(private readonly maxBytes: number, private readonly sink: LineSink) {}

  push(chunk: Buffer): void {
    let from = 0;
    let newline: number;
    while ((newline = chunk.indexOf(NEWLINE, from)) !== -1) {
      const length = this.size + newline - from;
      if (this.over || length > this.maxBytes) this.sink.tooLong(length, true);
      else emit(this.sink, this.pieces.length === 0 ? chunk.subarray(from, newline) : Buffer.concat([...this.pieces, chunk.subarray(from, newline)], length), true);
      this.consumed += length + 1;
      this.pieces = [];
      this.size = 0;
      this.over = false;
      from = newline + 1;
    }
    if (from < chunk.length) {
      this.size += chunk.length - from;
      if (this.over || this.size > this.maxBytes) {
        this.over = true;
        this.pieces = [];
      } else {
        this.pieces.push(chunk.subarray(from));
      }
    }
  }

  end(tail: 'line' | 'leave'): void {
    if (this.size === 0 || tail !== 'line') return;
    if (this.over) this.sink.tooLong(this.size, false);
    else emit(this.sink, Buffer.concat(this.pieces, this.size), false);
    this.consumed += this.size;
  }
}

/** Splits a stream of chunks into lines; returns how many bytes were handed over as lines. */
export async function splitChunks(chunks: AsyncIterable<Buffer>, maxBytes: number, sink: LineSink, tail: 'line' | 'leave' = 'line'): Promise<number> {
  const splitter = new Splitter(maxBytes, sink);
  for await (const chunk of chunks) splitter.push(chunk);
  splitter.end(tail);
  return splitter.consumed;
}

/** Hands the lines of bytes held in memory (a log read from git) to `sink`, as splitChunks does. */
export function splitBytes(bytes: Buffer, maxBytes: number, sink: LineSink): void {
  const splitter = new Splitter(maxBytes, sink);
  splitter.push(bytes);
  splitter.end('line');
}

/** Splits a file into lines from `start`; returns the offset just after the last line handed over. A missing file throws ENOENT. */
export async function splitFile(file: string, maxBytes: number, sink: LineSink, options: SplitOptions = {}): Promise<number> {
  const start = options.start ?? 0;
  const highWaterMark = Math.min(1024 * 1024, Math.max(16 * 1024, options.expect ?? Infinity));
  // Never through a symlink inside the store: a log that is one is SYMLINK, not what it points to.
  assertNoSymlinkedDirs(file);
  const handle = await open(file, READ_NOFOLLOW).catch((error: unknown) => rethrowSymlink(error, file));
  const stream = handle.createReadStream({ start, highWaterMark });
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
export function lineParser<T>(options: ParseOptions<T>, skip: (line: number, reason: string, kind: SkipKind, column?: number) => void): LineSink & { count(): number } {
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
    notUtf8(fault, complete) {
      lineNumber++;
      if (complete) skip(lineNumber, `is not valid UTF-8 (byte 0x${fault.byte.toString(16).padStart(2, '0')})`, 'parse', fault.column);
      else skip(lineNumber, 'is incomplete (a write was cut off)', 'parse');
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

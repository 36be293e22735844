// The framing of lore's binary caches in .knowledge/.cache/ (the BM25 index, the entry vectors,
// the knowledge index): a 4-byte header length, a JSON header (its sum first, then format, key and
// what the cache adds), zeros up to 8 bytes, then the body, whose typed arrays start aligned, then
// an optional tail the sum does not cover (the cache checks each part it reads itself). The sum is
// the CRC-32 (fs/checksum.ts) of the header's bytes, with the sum's own 8 characters as zeros, and
// the body: the header's terms and ids are data too. A file that is missing, foreign, stale, truncated or
// damaged reads as nothing: the caller rebuilds it.
import { closeSync, fstatSync } from 'node:fs';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { checksum } from '../fs/checksum.js';
import { writeCache } from '../fs/cache-writes.js';
import { openIfExistsSync, readExactlySync } from '../fs/read-text.js';

// The header opens with its sum, written over these zeros once the rest is known.
const SUM_OPENING = '{"sum":"';
const SUM_AT = SUM_OPENING.length;
const UNSUMMED = '0'.repeat(8);

/** The sum of a snapshot: its header (the sum as zeros) and its body. */
const sumOf = (json: Buffer, ...body: Uint8Array[]): string => checksum(json, ...body);

/** What every snapshot header holds. */
export interface SnapshotHeader {
  format: string;
  key: string;
  sum: string;
}

/** The bytes of a snapshot: `header` (format, key and the cache's own fields) over `body`, then `tail`. */
export function frameSnapshot(header: Omit<SnapshotHeader, 'sum'> & Record<string, unknown>, body: Buffer, tail?: Buffer): Buffer {
  const json = Buffer.from(JSON.stringify({ sum: UNSUMMED, ...header }));
  json.write(sumOf(json, body), SUM_AT, 'latin1');
  const start = align(4 + json.length);
  const head = Buffer.alloc(start);
  head.writeUInt32LE(json.length, 0);
  json.copy(head, 4);
  return Buffer.concat(tail === undefined ? [head, body] : [head, body, tail]);
}

/** A snapshot's header, when `json` is one of `format` made under `key`; and where its body starts. */
function headerOf<H extends SnapshotHeader>(json: Buffer, format: string, key: string): { header: H; start: number } | undefined {
  const header = JSON.parse(json.toString('utf8')) as H;
  if (header.format !== format || header.key !== key) return undefined;
  return { header, start: align(4 + json.length) };
}

/** Whether the sum in `json` (the header's bytes, changed here) is the one of it and the body, in one part or more. */
function sumHolds(json: Buffer, body: readonly Uint8Array[], sum: string): boolean {
  if (json.toString('latin1', 0, SUM_AT) !== SUM_OPENING) return false;
  json.write(UNSUMMED, SUM_AT, 'latin1');
  return sumOf(json, ...body) === sum;
}

/**
 * The header, body and tail of `bytes` when they are a whole snapshot of `format` made under `key`
 * whose body (undamaged) and tail have the lengths `bodyLength` and `tailLength` compute from the
 * header; otherwise undefined. The body starts on 8 bytes (copied when the buffer does not).
 */
export function unframeSnapshot<H extends SnapshotHeader>(bytes: Buffer, format: string, key: string, bodyLength: (header: H) => number, tailLength: (header: H) => number = () => 0): { header: H; body: Buffer; tail: Buffer } | undefined {
  try {
    if (bytes.length < 4) return undefined;
    const length = bytes.readUInt32LE(0);
    if (4 + length > bytes.length) return undefined;
    const json = Buffer.from(bytes.subarray(4, 4 + length));
    const found = headerOf<H>(json, format, key);
    if (found === undefined) return undefined;
    const { header, start } = found;
    const size = bodyLength(header);
    if (size < 0 || bytes.length !== start + size + tailLength(header)) return undefined;
    // Typed arrays need aligned offsets; a buffer from a pool may not start on 8 bytes.
    const within = bytes.subarray(start, start + size);
    const body = (bytes.byteOffset + start) % 8 === 0 ? within : Buffer.from(within);
    return sumHolds(json, [body], header.sum) ? { header, body, tail: bytes.subarray(start + size) } : undefined;
  } catch {
    return undefined; // damaged: rebuilt by the caller
  }
}

/** After this many ranges of a tail read one by one, the rest comes from the whole tail, read once. */
const RANGES_ONE_BY_ONE = 2048;

/** Closes the file of a snapshot opened by openSnapshot once nothing can read its tail any more. */
const openFiles = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});

/**
 * unframeSnapshot for the file at `path`, reading its header and body only. The body is read into
 * `into(header, length)`'s arrays one after the other (by default one buffer of its own), so a
 * cache can read its rows straight into the memory it keeps them in. The tail stays in the file,
 * and `tail(from, to)` reads that range of it (the file as it was opened: one written over it
 * meanwhile is another file) into bytes that the next call may overwrite: for a cache whose tail
 * is mostly not needed (the knowledge index: a query shows a few entries of thousands). The caller
 * checks what it reads of the tail.
 */
export function openSnapshot<H extends SnapshotHeader>(path: string, format: string, key: string, bodyLength: (header: H) => number, tailLength: (header: H) => number = () => 0, into: (header: H, length: number) => Uint8Array[] = (_, length) => [Buffer.allocUnsafeSlow(length)]): { header: H; body: Uint8Array[]; tail: (from: number, to: number) => Buffer } | undefined {
  let fd: number | undefined;
  try {
    fd = openIfExistsSync(path);
    if (fd === undefined) return undefined;
    const file = fd;
    const total = fstatSync(file).size;
    const read = (length: number, position: number): Buffer => {
      const bytes = Buffer.allocUnsafeSlow(length);
      readExactlySync(file, bytes, position);
      return bytes;
    };
    if (total < 4) return undefined;
    const length = read(4, 0).readUInt32LE(0);
    if (4 + length > total) return undefined;
    const json = read(length, 4);
    const found = headerOf<H>(json, format, key);
    if (found === undefined) return undefined;
    const { header, start } = found;
    const size = bodyLength(header);
    const tailSize = tailLength(header);
    if (size < 0 || total !== start + size + tailSize) return undefined;
    const body = into(header, size);
    if (body.reduce((sum, part) => sum + part.length, 0) !== size) throw new Error(`the body's parts do not add up to ${size} bytes`);
    let at = start;
    for (const part of body) {
      readExactlySync(file, part, at);
      at += part.length;
    }
    if (!sumHolds(json, body, header.sum)) return undefined;
    // Read range by range into one buffer; a process that asks for many ranges (it goes through
    // every entry) gets the whole tail read once.
    let whole: Buffer | undefined;
    let scratch = Buffer.alloc(0);
    let ranges = 0;
    const tail = (from: number, to: number): Buffer => {
      if (!(from >= 0 && from <= to && to <= tailSize)) throw new Error(`no bytes ${from}..${to} in the tail of ${path}`);
      if (from === to) return Buffer.alloc(0);
      if (whole === undefined && ++ranges > RANGES_ONE_BY_ONE) whole = read(tailSize, start + size);
      if (whole !== undefined) return whole.subarray(from, to);
      if (to - from > scratch.length) scratch = Buffer.allocUnsafeSlow(Math.max(64 * 1024, to - from));
      readExactlySync(file, scratch.subarray(0, to - from), start + size + from);
      return scratch.subarray(0, to - from);
    };
    if (tailSize > 0) {
      fd = undefined;
      openFiles.register(tail, file);
    }
    return { header, body, tail };
  } catch {
    return undefined; // a symlink, an unreadable or damaged file: rebuilt by the caller
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes a snapshot atomically, its bytes made by `bytes` when it is written (cache-writes.ts: later,
 * in a long-lived process); a store that cannot take it (read-only checkout) is left as it was.
 */
export async function writeSnapshotFile(path: string, bytes: () => Buffer): Promise<void> {
  await writeCache(path, () => writeFileAtomic(path, bytes(), { durable: false }));
}

function align(offset: number): number {
  return Math.ceil(offset / 8) * 8;
}

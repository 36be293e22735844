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

/** Where a snapshot's bytes come from: a file opened once, or bytes in memory. */
interface Source {
  size: number;
  /** Fills `bytes` from `position` on; throws when the source ends first. */
  read(bytes: Uint8Array, position: number): void;
}

/** A framed snapshot: its header, its body in the parts `into` gave, and a reader of its tail's ranges. */
export interface Unframed<H> {
  header: H;
  body: Uint8Array[];
  /** Bytes `from`..`to` of the tail, to be copied before they are changed: the caller checks what it reads. */
  tail: (from: number, to: number) => Buffer;
}

type BodyParts<H> = (header: H, length: number) => Uint8Array[];

const ownBuffer = (_header: unknown, length: number): Uint8Array[] => [Buffer.allocUnsafeSlow(length)];

/**
 * A tail is read in blocks of this many bytes, each kept once read: a plan check that shows a
 * thousand entries reads a few dozen blocks instead of a thousand ranges (a system call each,
 * 3-4 µs here), and a query that shows five reads five blocks.
 */
const TAIL_BLOCK = 64 * 1024;

/**
 * The snapshot `source` holds when it is a whole one of `format` made under `key`, whose body
 * (undamaged: its sum is checked) and tail have the lengths `bodyLength` and `tailLength` compute
 * from the header; otherwise undefined. The body is read into `into(header, length)`'s arrays one
 * after the other, so a cache can read its rows straight into the memory it keeps them in.
 */
function unframe<H extends SnapshotHeader>(source: Source, name: string, format: string, key: string, bodyLength: (header: H) => number, tailLength: (header: H) => number, into: BodyParts<H>): Unframed<H> | undefined {
  const read = (length: number, position: number): Buffer => {
    const bytes = Buffer.allocUnsafeSlow(length);
    source.read(bytes, position);
    return bytes;
  };
  if (source.size < 4) return undefined;
  const length = read(4, 0).readUInt32LE(0);
  if (4 + length > source.size) return undefined;
  const json = read(length, 4);
  const found = headerOf<H>(json, format, key);
  if (found === undefined) return undefined;
  const { header, start } = found;
  const size = bodyLength(header);
  const tailSize = tailLength(header);
  if (size < 0 || source.size !== start + size + tailSize) return undefined;
  const body = into(header, size);
  if (body.reduce((sum, part) => sum + part.length, 0) !== size) throw new Error(`the body's parts do not add up to ${size} bytes`);
  let at = start;
  for (const part of body) {
    source.read(part, at);
    at += part.length;
  }
  if (!sumHolds(json, body, header.sum)) return undefined;
  const blocks = new Map<number, Buffer>();
  const block = (i: number): Buffer => {
    let bytes = blocks.get(i);
    if (bytes === undefined) blocks.set(i, (bytes = read(Math.min(TAIL_BLOCK, tailSize - i * TAIL_BLOCK), start + size + i * TAIL_BLOCK)));
    return bytes;
  };
  const tail = (from: number, to: number): Buffer => {
    if (!(from >= 0 && from <= to && to <= tailSize)) throw new Error(`no bytes ${from}..${to} in the tail of ${name}`);
    if (from === to) return Buffer.alloc(0);
    const first = Math.floor(from / TAIL_BLOCK);
    const last = Math.floor((to - 1) / TAIL_BLOCK);
    if (first === last) return block(first).subarray(from - first * TAIL_BLOCK, to - first * TAIL_BLOCK);
    const bytes = Buffer.allocUnsafe(to - from);
    for (let i = first; i <= last; i++) {
      const at = i * TAIL_BLOCK;
      block(i).copy(bytes, Math.max(at, from) - from, Math.max(from - at, 0), Math.min(to - at, TAIL_BLOCK));
    }
    return bytes;
  };
  return { header, body, tail };
}

/** unframe for snapshot bytes in memory (a snapshot just made, or a test's). */
export function unframeSnapshot<H extends SnapshotHeader>(bytes: Buffer, format: string, key: string, bodyLength: (header: H) => number, tailLength: (header: H) => number = () => 0, into: BodyParts<H> = ownBuffer): Unframed<H> | undefined {
  const source: Source = {
    size: bytes.length,
    read: (to, position) => {
      if (position + to.length > bytes.length) throw new Error('the snapshot is cut short');
      to.set(bytes.subarray(position, position + to.length));
    },
  };
  try {
    return unframe(source, 'the snapshot', format, key, bodyLength, tailLength, into);
  } catch {
    return undefined; // damaged: rebuilt by the caller
  }
}

/** Closes the file of a snapshot opened by openSnapshot once nothing can read its tail any more. */
const openFiles = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});

/**
 * unframe for the snapshot file at `path`, reading its header and body only. The tail stays in the
 * file, read block by block when asked for (the file as it was opened: one written over it
 * meanwhile is another file): for a cache whose tail is mostly not needed (the knowledge index: a
 * query shows a few entries of thousands). The file is closed once the tail reader is collected.
 */
export function openSnapshot<H extends SnapshotHeader>(path: string, format: string, key: string, bodyLength: (header: H) => number, tailLength: (header: H) => number = () => 0, into: BodyParts<H> = ownBuffer): Unframed<H> | undefined {
  let fd: number | undefined;
  try {
    fd = openIfExistsSync(path);
    if (fd === undefined) return undefined;
    const file = fd;
    const framed = unframe({ size: fstatSync(file).size, read: (bytes, position) => readExactlySync(file, bytes, position) }, path, format, key, bodyLength, tailLength, into);
    if (framed !== undefined && tailLength(framed.header) > 0) {
      fd = undefined;
      openFiles.register(framed.tail, file);
    }
    return framed;
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

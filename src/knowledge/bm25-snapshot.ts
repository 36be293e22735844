// The BM25 index persisted in `.knowledge/.cache/knowledge-bm25.bin`, so a process without the
// daemon loads postings instead of tokenising every entry. Keyed by the content identity of the
// entry files (readRecordsCached) and keyword_boost; a snapshot that is missing, foreign, stale,
// truncated or damaged is ignored and rebuilt. Layout: a 4-byte header length, a JSON header
// (key, size, terms, posting lengths, sha1 of the body), zeros up to 8 bytes, then the body:
// norms (float64 × size), every posting's tfs (float64), every posting's docs (int32).
import { createHash } from 'node:crypto';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { readBytesIfExistsSync } from '../fs/read-text.js';
import { CACHE_DIR, knowledgeDir } from '../store/layout.js';
import type { Bm25Index, Posting } from './bm25.js';

const FORMAT = 'lore-bm25/1';

interface Header {
  format: string;
  key: string;
  size: number;
  terms: string[];
  lengths: number[];
  sum: string;
}

function snapshotPath(root: string): string {
  return join(knowledgeDir(root), CACHE_DIR, 'knowledge-bm25.bin');
}

/** The key of a snapshot: what the entries are, how keywords weigh, and the machine's byte order. */
export function bm25SnapshotKey(identity: string, keywordBoost: number): string {
  return `${identity}:${keywordBoost}:${endianness()}`;
}

/** The bytes of a snapshot of `index` under `key`. */
export function serializeBm25(index: Bm25Index, key: string): Buffer {
  const terms = [...index.postings.keys()];
  const lengths = terms.map((term) => index.postings.get(term)!.docs.length);
  const total = lengths.reduce((a, b) => a + b, 0);
  const body = Buffer.alloc(8 * index.size + 12 * total);
  const norms = new Float64Array(body.buffer, body.byteOffset, index.size);
  const tfs = new Float64Array(body.buffer, body.byteOffset + 8 * index.size, total);
  const docs = new Int32Array(body.buffer, body.byteOffset + 8 * (index.size + total), total);
  norms.set(index.norms);
  let at = 0;
  for (const term of terms) {
    const posting = index.postings.get(term)!;
    tfs.set(posting.tfs, at);
    docs.set(posting.docs, at);
    at += posting.docs.length;
  }
  const header: Header = { format: FORMAT, key, size: index.size, terms, lengths, sum: createHash('sha1').update(body).digest('hex') };
  const json = Buffer.from(JSON.stringify(header));
  const start = align(4 + json.length);
  const head = Buffer.alloc(start);
  head.writeUInt32LE(json.length, 0);
  json.copy(head, 4);
  return Buffer.concat([head, body]);
}

/** The index held by `bytes` when they are a whole, undamaged snapshot made under `key`; otherwise undefined. */
export function parseBm25(bytes: Buffer, key: string): Bm25Index | undefined {
  try {
    if (bytes.length < 4) return undefined;
    const length = bytes.readUInt32LE(0);
    if (4 + length > bytes.length) return undefined;
    const header = JSON.parse(bytes.toString('utf8', 4, 4 + length)) as Header;
    if (header.format !== FORMAT || header.key !== key || header.terms.length !== header.lengths.length) return undefined;
    const total = header.lengths.reduce((a, b) => a + b, 0);
    const start = align(4 + length);
    if (bytes.length !== start + 8 * header.size + 12 * total) return undefined;
    // Typed arrays need aligned offsets; a buffer from a pool may not start on 8 bytes.
    const body = (bytes.byteOffset + start) % 8 === 0 ? bytes.subarray(start) : Buffer.from(bytes.subarray(start));
    if (createHash('sha1').update(body).digest('hex') !== header.sum) return undefined;
    const norms = new Float64Array(body.buffer, body.byteOffset, header.size);
    const tfs = new Float64Array(body.buffer, body.byteOffset + 8 * header.size, total);
    const docs = new Int32Array(body.buffer, body.byteOffset + 8 * (header.size + total), total);
    const postings = new Map<string, Posting>();
    let at = 0;
    header.terms.forEach((term, i) => {
      const end = at + header.lengths[i]!;
      postings.set(term, { docs: docs.subarray(at, end), tfs: tfs.subarray(at, end) });
      at = end;
    });
    return { size: header.size, postings, norms };
  } catch {
    return undefined; // damaged: rebuilt by the caller
  }
}

/** The snapshot of the store's BM25 index made under `key`, when there is a usable one. */
export function readBm25Snapshot(root: string, key: string): Bm25Index | undefined {
  let bytes: Buffer | undefined;
  try {
    bytes = readBytesIfExistsSync(snapshotPath(root));
  } catch {
    return undefined; // a symlink or an unreadable file: not a cache lore wrote
  }
  return bytes === undefined ? undefined : parseBm25(bytes, key);
}

/** Writes the snapshot atomically; a store that cannot take it (read-only checkout) is left as it was. */
export async function writeBm25Snapshot(root: string, key: string, index: Bm25Index): Promise<void> {
  await writeFileAtomic(snapshotPath(root), serializeBm25(index, key), { durable: false }).catch(() => undefined);
}

function align(offset: number): number {
  return Math.ceil(offset / 8) * 8;
}

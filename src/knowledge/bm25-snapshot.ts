// The BM25 index persisted in `.knowledge/.cache/knowledge-bm25.bin`, so a process without the
// daemon loads postings instead of tokenising every entry. Keyed by the lore that made it
// (cacheKey), keyword_boost and the byte order; the header names the content identity of the entry
// files it was made for (readRecordsCached), its size, terms and posting lengths. Framed by
// _snapshot.ts; the body holds norms and document lengths (float64 × size each), every posting's
// tfs (float64), every posting's docs (int32), then each document's text key (bm25.ts
// entryTextKey). A snapshot made for other entry files still serves an index built after an edit:
// the entries whose text it holds are not tokenised again.
import { endianness } from 'node:os';
import { join } from 'node:path';
import { CACHE_DIR, knowledgeDir } from '../store/layout.js';
import { cacheKey } from '../store/cache-key.js';
import type { Bm25Index, Posting } from './bm25.js';
import { TEXT_KEY_BYTES } from './_text-key.js';
import { frameSnapshot, openSnapshot, unframeSnapshot, writeSnapshotFile, type SnapshotHeader } from './_snapshot.js';

const FORMAT = 'lore-bm25/2';

interface Header extends SnapshotHeader {
  /** The content identity of the entry files the index was made for. */
  identity: string;
  size: number;
  terms: string[];
  /** The length of each term's posting. */
  lengths: number[];
}

/** A snapshot's index and the identity of the entry files it was made for. */
export interface Bm25Snapshot {
  index: Bm25Index;
  identity: string;
}

function snapshotPath(root: string): string {
  return join(knowledgeDir(root), CACHE_DIR, 'knowledge-bm25.bin');
}

/** The key of a snapshot: the lore that made it, how keywords weigh, and the machine's byte order. */
export function bm25SnapshotKey(keywordBoost: number): string {
  return `${cacheKey()}:${keywordBoost}:${endianness()}`;
}

/** The bytes of a snapshot of `index`, made for the entry files of `identity`, under `key`. */
export function serializeBm25(index: Bm25Index, identity: string, key: string): Buffer {
  const terms = [...index.postings.keys()];
  const lengths = terms.map((term) => index.postings.get(term)!.docs.length);
  const total = lengths.reduce((a, b) => a + b, 0);
  const body = Buffer.alloc(16 * index.size + 12 * total + TEXT_KEY_BYTES * index.size);
  const norms = new Float64Array(body.buffer, body.byteOffset, index.size);
  const docLengths = new Float64Array(body.buffer, body.byteOffset + 8 * index.size, index.size);
  const tfs = new Float64Array(body.buffer, body.byteOffset + 16 * index.size, total);
  const docs = new Int32Array(body.buffer, body.byteOffset + 16 * index.size + 8 * total, total);
  norms.set(index.norms);
  docLengths.set(index.lengths);
  let at = 0;
  for (const term of terms) {
    const posting = index.postings.get(term)!;
    tfs.set(posting.tfs, at);
    docs.set(posting.docs, at);
    at += posting.docs.length;
  }
  index.keys.copy(body, 16 * index.size + 12 * total);
  return frameSnapshot({ format: FORMAT, key, identity, size: index.size, terms, lengths }, body);
}

const totalOf = (header: Header): number => header.lengths.reduce((a, b) => a + b, 0);

/** A snapshot's body length from its header (-1 when the header is not one: read as damaged). */
const bodyLength = (header: Header): number => (typeof header.identity === 'string' && Number.isSafeInteger(header.size) && header.size >= 0 && Array.isArray(header.terms) && Array.isArray(header.lengths) && header.terms.length === header.lengths.length ? (16 + TEXT_KEY_BYTES) * header.size + 12 * totalOf(header) : -1);

/** The snapshot `bytes` hold when they are whole and undamaged, made under `key`; otherwise undefined. */
export function parseBm25(bytes: Buffer, key: string): Bm25Snapshot | undefined {
  const framed = unframeSnapshot<Header>(bytes, FORMAT, key, bodyLength);
  return framed === undefined ? undefined : bm25Of(framed.header, framed.body[0] as Buffer);
}

function bm25Of(header: Header, body: Buffer): Bm25Snapshot {
  const { size } = header;
  const total = totalOf(header);
  const norms = new Float64Array(body.buffer, body.byteOffset, size);
  const lengths = new Float64Array(body.buffer, body.byteOffset + 8 * size, size);
  const tfs = new Float64Array(body.buffer, body.byteOffset + 16 * size, total);
  const docs = new Int32Array(body.buffer, body.byteOffset + 16 * size + 8 * total, total);
  const keys = body.subarray(16 * size + 12 * total);
  const postings = new Map<string, Posting>();
  let at = 0;
  header.terms.forEach((term, i) => {
    const end = at + header.lengths[i]!;
    postings.set(term, { docs: docs.subarray(at, end), tfs: tfs.subarray(at, end) });
    at = end;
  });
  return { index: { size, postings, norms, lengths, keys }, identity: header.identity };
}

/** The store's BM25 snapshot made under `key`, when there is a usable one (for any entry files). */
export function readBm25Snapshot(root: string, key: string): Bm25Snapshot | undefined {
  const framed = openSnapshot<Header>(snapshotPath(root), FORMAT, key, bodyLength);
  return framed === undefined ? undefined : bm25Of(framed.header, framed.body[0] as Buffer);
}

/** Writes the snapshot atomically; a store that cannot take it (read-only checkout) is left as it was. */
export async function writeBm25Snapshot(root: string, key: string, identity: string, index: Bm25Index): Promise<void> {
  await writeSnapshotFile(snapshotPath(root), () => serializeBm25(index, identity, key));
}

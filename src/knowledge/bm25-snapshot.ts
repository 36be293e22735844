// The BM25 index persisted in `.knowledge/.cache/knowledge-bm25.bin`, so a process without the
// daemon loads postings instead of tokenising every entry. Keyed by the content identity of the
// entry files (readRecordsCached) and keyword_boost. Framed by _snapshot.ts; the header adds
// size, terms and posting lengths, the body holds norms (float64 × size), every posting's tfs
// (float64), every posting's docs (int32).
import { endianness } from 'node:os';
import { join } from 'node:path';
import { CACHE_DIR, knowledgeDir } from '../store/layout.js';
import type { Bm25Index, Posting } from './bm25.js';
import { frameSnapshot, readSnapshotFile, unframeSnapshot, writeSnapshotFile, type SnapshotHeader } from './_snapshot.js';

const FORMAT = 'lore-bm25/1';

interface Header extends SnapshotHeader {
  size: number;
  terms: string[];
  lengths: number[];
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
  return frameSnapshot({ format: FORMAT, key, size: index.size, terms, lengths }, body);
}

const totalOf = (header: Header): number => header.lengths.reduce((a, b) => a + b, 0);

/** The index held by `bytes` when they are a whole, undamaged snapshot made under `key`; otherwise undefined. */
export function parseBm25(bytes: Buffer, key: string): Bm25Index | undefined {
  const framed = unframeSnapshot<Header>(bytes, FORMAT, key, (header) => (header.terms.length === header.lengths.length ? 8 * header.size + 12 * totalOf(header) : -1));
  if (framed === undefined) return undefined;
  const { header, body } = framed;
  const total = totalOf(header);
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
}

/** The snapshot of the store's BM25 index made under `key`, when there is a usable one. */
export function readBm25Snapshot(root: string, key: string): Bm25Index | undefined {
  const bytes = readSnapshotFile(snapshotPath(root));
  return bytes === undefined ? undefined : parseBm25(bytes, key);
}

/** Writes the snapshot atomically; a store that cannot take it (read-only checkout) is left as it was. */
export async function writeBm25Snapshot(root: string, key: string, index: Bm25Index): Promise<void> {
  await writeSnapshotFile(snapshotPath(root), serializeBm25(index, key));
}

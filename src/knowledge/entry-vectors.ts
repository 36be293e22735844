// The built-in word-vector embedding of every entry of a knowledge index (title, description and
// keywords), persisted in `.knowledge/.cache/knowledge-vectors.bin` so a process without the
// daemon reads 400 bytes per entry instead of embedding each one. Framed by _snapshot.ts and keyed
// by lore's cache key (a row is reused only by the lore that embedded it), the word table's
// checksum and the byte order; the header names the entry files' content identity the rows were
// made for, and the body holds float32 × dims per entry (zeros for an entry with no word in the
// table), then each row's text key: the one BM25 keeps (bm25.ts entryTextKey, over all the text
// the vector embeds and the details too), so an index hashes its entries once. A current snapshot
// is read as it is; after entries change, the rows of keys it already holds are reused and only
// the others are embedded (one edit re-embeds one entry, not 10,000). The rows go into the matrix
// the semantic scan runs over (vector-scan.ts).
import { endianness } from 'node:os';
import { join } from 'node:path';
import { cacheKey } from '../store/cache-key.js';
import { CACHE_DIR, knowledgeDir } from '../store/layout.js';
import type { KnowledgeEntry } from '../types.js';
import { frameSnapshot, openSnapshot, unframeSnapshot, writeSnapshotFile, type SnapshotHeader, type Unframed } from './_snapshot.js';
import { keyAt, rowsByKey, TEXT_KEY_BYTES } from './_text-key.js';
import { VectorRows } from './vector-scan.js';
import { embedText, type WordVectors } from './word-vectors.js';
const FORMAT = 'lore-entry-vectors/3';

interface Header extends SnapshotHeader {
  /** The content identity of the entry files the rows were made for. */
  identity: string;
  size: number;
  dims: number;
}

/** What a snapshot holds: the rows, the identity of the entries they were made for, and each row's text key. */
export interface EntryVectorSnapshot {
  matrix: VectorRows;
  identity: string;
  /** TEXT_KEY_BYTES per row: the text key of the entry the row embeds (entryTextKey). */
  keys: Buffer;
}

/** The text of an entry that the built-in vectors embed. */
export function entryVectorText(entry: Pick<KnowledgeEntry, 'title' | 'description' | 'keywords'>): string {
  return [entry.title, entry.description, ...entry.keywords].join('\n');
}

/** The vectors of `entries`, entry i in row i. */
export function computeEntryVectors(entries: ReadonlyArray<Pick<KnowledgeEntry, 'title' | 'description' | 'keywords'>>, vectors: WordVectors): VectorRows {
  const matrix = new VectorRows(entries.length, vectors.dims);
  entries.forEach((entry, i) => {
    const vector = embedText(entryVectorText(entry), vectors);
    if (vector !== undefined) matrix.data.set(vector, i * vectors.dims);
  });
  return matrix;
}

function snapshotPath(root: string): string {
  return join(knowledgeDir(root), CACHE_DIR, 'knowledge-vectors.bin');
}

/**
 * The key of a snapshot: which lore made it, which word table, and the machine's byte order. Rows
 * are reused by their text alone, so another lore (another tokenizer, stop-word list or weighting
 * over the same table) must not read them.
 */
export function vectorSnapshotKey(vectors: WordVectors): string {
  return `${cacheKey()}:${vectors.id}:${endianness()}`;
}

/** The bytes of a snapshot of entry vectors under `key`. */
export function serializeEntryVectors(snapshot: EntryVectorSnapshot, key: string): Buffer {
  const { matrix, identity, keys } = snapshot;
  const { data } = matrix;
  return frameSnapshot({ format: FORMAT, key, identity, size: matrix.rows, dims: matrix.dims }, Buffer.concat([Buffer.from(data.buffer, data.byteOffset, data.byteLength), keys]));
}

/** A snapshot's body length from its header, when it is of `dims`-wide rows (-1 otherwise: read as damaged before anything is allocated for it). */
const bodyLength = (dims: number) => (header: Header): number => (header.dims === dims && Number.isSafeInteger(header.size) && header.size >= 0 && typeof header.identity === 'string' ? (4 * dims + TEXT_KEY_BYTES) * header.size : -1);

/** The snapshot `bytes` hold when they are whole and undamaged, of `dims`-wide vectors, made under `key`; otherwise undefined. */
export function parseEntryVectors(bytes: Buffer, key: string, dims: number): EntryVectorSnapshot | undefined {
  return vectorsOf(dims, (into) => unframeSnapshot<Header>(bytes, FORMAT, key, bodyLength(dims), undefined, into));
}

/** parseEntryVectors for the snapshot file at `path`: its rows read straight into the matrix the scan runs over. */
export function openEntryVectors(path: string, key: string, dims: number): EntryVectorSnapshot | undefined {
  return vectorsOf(dims, (into) => openSnapshot<Header>(path, FORMAT, key, bodyLength(dims), undefined, into));
}

/** The snapshot `unframe` reads, its rows read into the matrix the scan runs over. */
function vectorsOf(dims: number, unframe: (into: (header: Header) => Uint8Array[]) => Unframed<Header> | undefined): EntryVectorSnapshot | undefined {
  let matrix: VectorRows | undefined;
  const framed = unframe((header) => {
    matrix = new VectorRows(header.size, dims);
    const { data } = matrix;
    return [new Uint8Array(data.buffer, data.byteOffset, data.byteLength), Buffer.allocUnsafeSlow(TEXT_KEY_BYTES * header.size)];
  });
  if (framed === undefined || matrix === undefined) return undefined;
  return { matrix, identity: framed.header.identity, keys: framed.body[1] as Buffer };
}

/**
 * The vectors of a store's `size` entries: the snapshot's rows as they are when it was made for
 * `identity`; otherwise the rows of `entries()`, each reused from the snapshot when it holds the
 * same text and embedded when not, and the snapshot written. `computed` counts the entries embedded.
 * `keys`: each entry's text key as BM25 took it (entryTextKey: title, description, details and
 * keywords, so it changes whenever what the vectors embed does), instead of hashing every entry again.
 */
export async function storeEntryVectors(root: string, identity: string, size: number, entries: () => readonly KnowledgeEntry[], vectors: WordVectors, keys: Buffer): Promise<{ matrix: VectorRows; computed: number }> {
  const key = vectorSnapshotKey(vectors);
  const saved = openEntryVectors(snapshotPath(root), key, vectors.dims);
  if (saved !== undefined && saved.identity === identity && saved.matrix.rows === size) return { matrix: saved.matrix, computed: 0 };
  const { dims } = vectors;
  const rowOf = saved === undefined ? new Map<string, number>() : rowsByKey(saved.keys, saved.matrix.rows);
  const list = entries();
  if (keys.length !== TEXT_KEY_BYTES * list.length) throw new RangeError(`${keys.length / TEXT_KEY_BYTES} text keys for ${list.length} entries`);
  const matrix = new VectorRows(list.length, dims);
  let computed = 0;
  list.forEach((entry, i) => {
    const row = rowOf.get(keyAt(keys, i));
    if (row !== undefined) {
      matrix.data.set(saved!.matrix.data.subarray(row * dims, (row + 1) * dims), i * dims);
      return;
    }
    const vector = embedText(entryVectorText(entry), vectors);
    if (vector !== undefined) matrix.data.set(vector, i * dims);
    computed++;
  });
  await writeSnapshotFile(snapshotPath(root), () => serializeEntryVectors({ matrix, identity, keys }, key));
  return { matrix, computed };
}

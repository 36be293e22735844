// The built-in word-vector embedding of every entry of a knowledge index (title, description and
// keywords), persisted in `.knowledge/.cache/knowledge-vectors.bin` so a process without the
// daemon reads 400 bytes per entry instead of embedding each one. Keyed like the BM25 snapshot by
// the entry files' content identity, and by the word table's checksum. Framed by _snapshot.ts; the
// body holds float32 × dims per entry (zeros for an entry with no word in the table), read into
// the rows the semantic scan runs over (vector-scan.ts).
import { endianness } from 'node:os';
import { join } from 'node:path';
import { CACHE_DIR, knowledgeDir } from '../store/layout.js';
import type { KnowledgeEntry } from '../types.js';
import { frameSnapshot, readSnapshotFile, unframeSnapshot, writeSnapshotFile, type SnapshotHeader } from './_snapshot.js';
import { VectorRows } from './vector-scan.js';
import { embedText, type WordVectors } from './word-vectors.js';

const FORMAT = 'lore-entry-vectors/1';

interface Header extends SnapshotHeader {
  size: number;
  dims: number;
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

/** The key of a snapshot: what the entries are, which word table, and the machine's byte order. */
export function vectorSnapshotKey(identity: string, vectors: WordVectors): string {
  return `${identity}:${vectors.id}:${endianness()}`;
}

/** The bytes of a snapshot of entry vectors under `key`. */
export function serializeEntryVectors(matrix: VectorRows, key: string): Buffer {
  const { data } = matrix;
  return frameSnapshot({ format: FORMAT, key, size: matrix.rows, dims: matrix.dims }, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
}

/** The vectors held by `bytes` when they are a whole, undamaged snapshot of `dims`-wide vectors made under `key`; otherwise undefined. */
export function parseEntryVectors(bytes: Buffer, key: string, dims: number): VectorRows | undefined {
  // The sum covers the body, not the header: a shape that is not whole rows of `dims` reads as damaged, before anything is allocated for it.
  const framed = unframeSnapshot<Header>(bytes, FORMAT, key, (header) => (header.dims === dims && Number.isSafeInteger(header.size) && header.size >= 0 ? 4 * header.size * dims : -1));
  if (framed === undefined) return undefined;
  const { size } = framed.header;
  const matrix = new VectorRows(size, dims);
  matrix.data.set(new Float32Array(framed.body.buffer, framed.body.byteOffset, size * dims));
  return matrix;
}

/**
 * The vectors of a store's `size` entries: from the snapshot made under the same key when there is
 * one of the right size, computed from `entries()` (and the snapshot written) otherwise. `computed`
 * counts the entries embedded by this call.
 */
export async function storeEntryVectors(root: string, identity: string, size: number, entries: () => readonly KnowledgeEntry[], vectors: WordVectors): Promise<{ matrix: VectorRows; computed: number }> {
  const key = vectorSnapshotKey(identity, vectors);
  const bytes = readSnapshotFile(snapshotPath(root));
  const cached = bytes === undefined ? undefined : parseEntryVectors(bytes, key, vectors.dims);
  if (cached !== undefined && cached.rows === size) return { matrix: cached, computed: 0 };
  const matrix = computeEntryVectors(entries(), vectors);
  await writeSnapshotFile(snapshotPath(root), serializeEntryVectors(matrix, key));
  return { matrix, computed: size };
}

// The built-in, offline meaning of text: the word vectors shipped in data/word-vectors.bin (the
// 100,000 most frequent words of GloVe 6B, 100 dimensions, 4 bits each; built by
// scripts/build-word-vectors.mjs) averaged into one vector per text. Each word is weighted by
// how rare it is, a / (a + p(word)) with p from its frequency rank (Zipf), and the direction all
// averages share is removed (Arora et al., "A simple but tough-to-beat baseline for sentence
// embeddings", 2017). Loaded on first use, once per process; the commit hook never loads it.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { checksum } from '../fs/checksum.js';
import { readExactlySync } from '../fs/read-text.js';
import { forEachWord, isStopWord } from './_text.js';

/** Where the table is: data/ at the package's root, from src/knowledge or dist/knowledge. */
const TABLE = new URL('../../data/word-vectors.bin', import.meta.url);
const FORMAT = 'lore-word-vectors/1';
/** The smoothing of the rarity weight: a word as frequent as this weighs one half. */
const SIF_A = 1e-4;

interface Header {
  format: string;
  source: string;
  count: number;
  dims: number;
  bits: number;
  textBytes: number;
  common: number[];
  /** The sha1 of the body: the table's identity. */
  sum: string;
  /** The CRC-32 (fs/checksum.ts) of the words: their offsets, ranks and text, checked on every load. */
  crc32: string;
}

/** The shipped word vectors: look-up by word, and what identifies the table. */
export interface WordVectors {
  /** Dimensions of every vector. */
  dims: number;
  /** The table's sha1: vectors made with another table are not comparable. */
  id: string;
  /** Where the vectors come from, for people. */
  source: string;
  /** The words sorted by their UTF-8 bytes: word i is text[offsets[i], offsets[i + 1]). */
  offsets: Uint32Array;
  text: Uint8Array;
  /** The frequency rank of sorted word i: its row of vectors. */
  ranks: Uint32Array;
  /** The vector of the word of rank `at`: two dimensions per byte, low nibble first, signed 4-bit. */
  row(at: number): Uint8Array;
  common: Float32Array;
  /** ln(count) + γ: the Zipf normaliser of the frequency estimate. */
  harmonic: number;
}

/** Where each part of a table's body starts (body = offsets, ranks, rows, text), from its header. */
function layout(header: Header): { words: number; rows: number; rowBytes: number; text: number; body: number } {
  const { count, dims } = header;
  const words = 4 * (count + 1) + 4 * count;
  const rowBytes = dims / 2;
  return { words, rows: words, rowBytes, text: words + count * rowBytes, body: words + count * rowBytes + header.textBytes };
}

/** The header of a table: its bytes after the 4-byte length, and where the body starts. */
function readHeader(length: number, json: string): { header: Header; start: number } {
  const header = JSON.parse(json) as Header;
  if (header.format !== FORMAT || header.bits !== 4 || header.common.length !== header.dims) throw new Error(`not a ${FORMAT} table of 4-bit vectors`);
  return { header, start: Math.ceil((4 + length) / 8) * 8 };
}

/** A table from its header, its words (offsets and ranks, 4-aligned), its text and how to read a row. */
function table(header: Header, words: Uint8Array, text: Uint8Array, row: (at: number) => Uint8Array): WordVectors {
  if (checksum(words, text) !== header.crc32) throw new Error('its checksum does not match: the file is damaged');
  const { count, dims } = header;
  return {
    dims,
    id: header.sum,
    source: header.source,
    offsets: new Uint32Array(words.buffer, words.byteOffset, count + 1),
    ranks: new Uint32Array(words.buffer, words.byteOffset + 4 * (count + 1), count),
    row,
    text,
    common: Float32Array.from(header.common),
    harmonic: Math.log(count) + 0.5772,
  };
}

/** Reads a table from its bytes; throws an Error saying what is wrong with it. */
export function parseWordVectors(bytes: Buffer): WordVectors {
  const length = bytes.length >= 4 ? bytes.readUInt32LE(0) : Infinity;
  if (4 + length > bytes.length) throw new Error('the header is cut short');
  const { header, start } = readHeader(length, bytes.toString('utf8', 4, 4 + length));
  const at = layout(header);
  if (bytes.length - start !== at.body) throw new Error(`expected ${at.body} bytes after the header, found ${bytes.length - start}`);
  // Typed arrays need aligned offsets; a buffer from a pool may not start on 8 bytes.
  const body = (bytes.byteOffset + start) % 8 === 0 ? bytes.subarray(start) : Buffer.from(bytes.subarray(start));
  return table(header, body.subarray(0, at.words), body.subarray(at.text), (rank) => body.subarray(at.rows + rank * at.rowBytes, at.rows + (rank + 1) * at.rowBytes));
}

/** After this many rows read one by one, a process reads all of them at once (it is embedding many texts). */
const ROWS_ONE_BY_ONE = 256;

/**
 * Opens the table at `path`, reading its header and words (1.5 MB) but not its vectors (5 MB): a
 * query needs a dozen rows, read when asked for; a process that asks for many reads them all.
 * The rows are not under the CRC-32 (reading them all to check them is what this avoids): a
 * damaged row changes one word's vector, nothing else. Throws an Error saying what is wrong.
 */
export function openWordVectors(path: URL | string): WordVectors {
  const fd = openSync(path, 'r');
  let open = true;
  try {
    const size = fstatSync(fd).size;
    const read = (length: number, position: number): Buffer => {
      const bytes = Buffer.allocUnsafeSlow(length);
      readExactlySync(fd, bytes, position);
      return bytes;
    };
    const length = size >= 4 ? read(4, 0).readUInt32LE(0) : Infinity;
    if (4 + length > size) throw new Error('the header is cut short');
    const { header, start } = readHeader(length, read(length, 4).toString('utf8'));
    const at = layout(header);
    if (size - start !== at.body) throw new Error(`expected ${at.body} bytes after the header, found ${size - start}`);
    let rows: Buffer | undefined;
    let oneByOne = 0;
    const row = (rank: number): Uint8Array => {
      if (rows === undefined && ++oneByOne > ROWS_ONE_BY_ONE) {
        rows = read(at.text - at.rows, start + at.rows);
        closeSync(fd);
        open = false;
      }
      if (rows !== undefined) return rows.subarray(rank * at.rowBytes, (rank + 1) * at.rowBytes);
      if (!(rank >= 0 && rank < header.count)) throw new Error(`no row ${rank} in the word table`);
      return read(at.rowBytes, start + at.rows + rank * at.rowBytes);
    };
    return table(header, read(at.words, start), read(header.textBytes, start + at.text), row);
  } catch (error) {
    if (open) closeSync(fd);
    throw error;
  }
}

let loaded: WordVectors | undefined;

/** The shipped table, opened on first use. */
export function wordVectors(): WordVectors {
  if (loaded === undefined) {
    try {
      loaded = openWordVectors(TABLE);
    } catch (error) {
      throw new Error(`could not read lore's word vectors ${TABLE.pathname}: ${(error as Error).message} (reinstall lore)`, { cause: error });
    }
  }
  return loaded;
}

/** The frequency rank of a word (its UTF-8 bytes): a binary search of the sorted words. */
function rankOf(vectors: WordVectors, key: Uint8Array): number | undefined {
  const { offsets, text } = vectors;
  let lo = 0;
  let hi = vectors.ranks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const start = offsets[mid]!;
    const end = offsets[mid + 1]!;
    let order = 0;
    for (let i = 0; order === 0 && i < Math.min(key.length, end - start); i++) order = text[start + i]! - key[i]!;
    if (order === 0) order = end - start - key.length;
    if (order === 0) return vectors.ranks[mid];
    if (order < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** The row (frequency rank) of a lower-case word in the table, trying its singular (-s, -ies) when the plural is not there. */
export function lookUp(vectors: WordVectors, word: string): number | undefined {
  const key = Buffer.from(word);
  const found = rankOf(vectors, key);
  if (found !== undefined || word.length <= 3 || !word.endsWith('s')) return found;
  return word.endsWith('ies') ? rankOf(vectors, Buffer.from(`${word.slice(0, -3)}y`)) : rankOf(vectors, key.subarray(0, key.length - 1));
}

/** Adds `weight` × the unit vector of word `at` to `sum`. */
function addWord(vectors: WordVectors, sum: Float64Array, at: number, weight: number): void {
  const { dims } = vectors;
  const row = vectors.row(at);
  let norm = 0;
  for (let i = 0; i < dims >> 1; i++) {
    const byte = row[i]!;
    const low = ((byte & 0xf) << 28) >> 28; // sign-extend the nibbles
    const high = (byte << 24) >> 28;
    norm += low * low + high * high;
  }
  if (norm === 0) return;
  const scale = weight / Math.sqrt(norm);
  for (let i = 0; i < dims >> 1; i++) {
    const byte = row[i]!;
    sum[2 * i] = sum[2 * i]! + (((byte & 0xf) << 28) >> 28) * scale;
    sum[2 * i + 1] = sum[2 * i + 1]! + ((byte << 24) >> 28) * scale;
  }
}

/**
 * The unit vector of a text's meaning (words in the table, stop words left out), or undefined
 * when none of its words is in the table. Streams the text: a megabyte plan costs no list.
 *
 * @example
 * cosine(embedText('rotate the database password')!, embedText('change the db credentials')!); // high
 */
export function embedText(text: string, vectors: WordVectors = wordVectors()): Float32Array | undefined {
  const sum = new Float64Array(vectors.dims);
  let found = false;
  forEachWord(text, (word) => {
    if (isStopWord(word)) return;
    const at = lookUp(vectors, word);
    if (at === undefined) return;
    const frequency = 1 / ((at + 1) * vectors.harmonic);
    addWord(vectors, sum, at, SIF_A / (SIF_A + frequency));
    found = true;
  });
  if (!found) return undefined;
  let along = 0;
  for (let d = 0; d < vectors.dims; d++) along += sum[d]! * vectors.common[d]!;
  let norm = 0;
  for (let d = 0; d < vectors.dims; d++) {
    sum[d] = sum[d]! - along * vectors.common[d]!;
    norm += sum[d]! * sum[d]!;
  }
  return norm === 0 ? undefined : Float32Array.from(sum, (x) => x / Math.sqrt(norm));
}


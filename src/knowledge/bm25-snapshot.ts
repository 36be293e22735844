// The BM25 index persisted in `.knowledge/.cache/knowledge-bm25.bin`, so a process without the
// daemon loads postings instead of tokenising every entry. Keyed by the lore that made it
// (cacheKey), keyword_boost and the byte order; the header names the content identity of the entry
// files it was made for (readRecordsCached), its size, terms and posting lengths. Framed by
// _snapshot.ts; the body holds norms and document lengths (float64 × size each), the CRC-32 of each
// term's posting (uint32), then each document's text key (bm25.ts entryTextKey). The postings are
// the tail, term after term (its tfs as float64, then its docs as int32), each read and checked
// when first asked for: a query reads the postings of its few terms, not all of them. A snapshot
// made for other entry files still serves an index built after an edit: the entries whose text it
// holds are not tokenised again.
import { endianness } from 'node:os';
import { join } from 'node:path';
import { LoreError } from '../errors.js';
import { crc32Of } from '../fs/checksum.js';
import { CACHE_DIR, KNOWLEDGE_DIR, knowledgeDir } from '../store/layout.js';
import { cacheKey } from '../store/cache-key.js';
import type { Bm25Index, Posting, Postings } from './bm25.js';
import { TEXT_KEY_BYTES } from './_text-key.js';
import { frameSnapshot, openSnapshot, unframeSnapshot, writeSnapshotFile, type SnapshotHeader } from './_snapshot.js';

const FORMAT = 'lore-bm25/3';
const CACHE_FILE = `${KNOWLEDGE_DIR}/${CACHE_DIR}/knowledge-bm25.bin`;

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
  const postings = terms.map((term) => index.postings.get(term)!);
  const lengths = postings.map((posting) => posting.docs.length);
  const { size } = index;
  const body = Buffer.alloc(16 * size + 4 * terms.length + TEXT_KEY_BYTES * size);
  new Float64Array(body.buffer, body.byteOffset, size).set(index.norms);
  new Float64Array(body.buffer, body.byteOffset + 8 * size, size).set(index.lengths);
  const sums = new Uint32Array(body.buffer, body.byteOffset + 16 * size, terms.length);
  index.keys.copy(body, 16 * size + 4 * terms.length);
  const tail = Buffer.alloc(12 * lengths.reduce((a, b) => a + b, 0));
  let at = 0;
  postings.forEach(({ docs, tfs }, i) => {
    const part = tail.subarray(at, at + 12 * docs.length);
    part.set(new Uint8Array(tfs.buffer, tfs.byteOffset, 8 * tfs.length));
    part.set(new Uint8Array(docs.buffer, docs.byteOffset, 4 * docs.length), 8 * docs.length);
    sums[i] = crc32Of(part);
    at += part.length;
  });
  return frameSnapshot({ format: FORMAT, key, identity, size, terms, lengths }, body, tail);
}

const isCount = (n: unknown): boolean => Number.isSafeInteger(n) && (n as number) >= 0;

/** A snapshot's body length from its header (-1 when the header is not one: read as damaged). */
const bodyLength = (header: Header): number =>
  typeof header.identity === 'string' && isCount(header.size) && Array.isArray(header.terms) && Array.isArray(header.lengths) && header.terms.length === header.lengths.length && header.lengths.every(isCount)
    ? (16 + TEXT_KEY_BYTES) * header.size + 4 * header.terms.length
    : -1;
const tailLength = (header: Header): number => (Array.isArray(header.lengths) ? 12 * header.lengths.reduce((a, b) => a + b, 0) : -1);

/** The snapshot `bytes` hold when they are whole and undamaged, made under `key`; otherwise undefined. */
export function parseBm25(bytes: Buffer, key: string): Bm25Snapshot | undefined {
  const framed = unframeSnapshot<Header>(bytes, FORMAT, key, bodyLength, tailLength);
  return framed === undefined ? undefined : bm25Of(framed.header, framed.body[0] as Buffer, framed.tail);
}

function bm25Of(header: Header, body: Buffer, tail: (from: number, to: number) => Buffer): Bm25Snapshot {
  const { size, terms } = header;
  const norms = new Float64Array(body.buffer, body.byteOffset, size);
  const lengths = new Float64Array(body.buffer, body.byteOffset + 8 * size, size);
  const sums = new Uint32Array(body.buffer, body.byteOffset + 16 * size, terms.length);
  const keys = body.subarray(16 * size + 4 * terms.length);
  return { index: { size, postings: new SnapshotPostings(terms, header.lengths, sums, tail), norms, lengths, keys }, identity: header.identity };
}

/** A snapshot's postings: each term's read from the tail and checked against its sum when first asked for, then kept. */
class SnapshotPostings implements Postings {
  private readonly at = new Map<string, number>();
  private readonly starts: number[] = [];
  private readonly read: Array<Posting | undefined>;

  constructor(private readonly terms: readonly string[], private readonly lengths: readonly number[], private readonly sums: Uint32Array, private readonly tail: (from: number, to: number) => Buffer) {
    let start = 0;
    terms.forEach((term, i) => {
      this.at.set(term, i);
      this.starts.push(start);
      start += 12 * lengths[i]!;
    });
    this.read = new Array<Posting | undefined>(terms.length);
  }

  get size(): number {
    return this.terms.length;
  }

  has(term: string): boolean {
    return this.at.has(term);
  }

  get(term: string): Posting | undefined {
    const i = this.at.get(term);
    return i === undefined ? undefined : (this.read[i] ??= this.load(i));
  }

  keys(): IterableIterator<string> {
    return this.terms.values();
  }

  *[Symbol.iterator](): IterableIterator<[string, Posting]> {
    for (const term of this.terms) yield [term, this.get(term)!];
  }

  private load(i: number): Posting {
    const n = this.lengths[i]!;
    // Its own memory, 8-aligned for the tfs: the tail reader's buffer is reused by its next read.
    const bytes = Buffer.allocUnsafeSlow(12 * n);
    try {
      this.tail(this.starts[i]!, this.starts[i]! + 12 * n).copy(bytes);
    } catch {
      throw damaged(this.terms[i]!);
    }
    if (crc32Of(bytes) !== this.sums[i]) throw damaged(this.terms[i]!);
    return { tfs: new Float64Array(bytes.buffer, bytes.byteOffset, n), docs: new Int32Array(bytes.buffer, bytes.byteOffset + 8 * n, n) };
  }
}

/** A snapshot's postings that do not match their sum: the index they belong to is built again (healing). */
export class DamagedPostings extends LoreError {}

const damaged = (term: string): DamagedPostings =>
  new DamagedPostings('IO', `${CACHE_FILE} is damaged (the postings of "${term}" do not match their checksum)`, { hint: `delete ${CACHE_FILE}: lore rebuilds it from the entry files` });

/**
 * A snapshot's postings that heal: the first time one is found damaged, `rebuild()` (the postings
 * of the same entries, built afresh) answers instead, for that term and every later one. Only for
 * a snapshot made for exactly the entries `rebuild` reads: its terms are then the same.
 */
export function healing(postings: Postings, rebuild: () => Postings): Postings {
  let rebuilt: Postings | undefined;
  const get = (term: string): Posting | undefined => {
    if (rebuilt === undefined) {
      try {
        return postings.get(term);
      } catch (error) {
        if (!(error instanceof DamagedPostings)) throw error;
        rebuilt = rebuild();
      }
    }
    return rebuilt.get(term);
  };
  return {
    get size() {
      return (rebuilt ?? postings).size;
    },
    has: (term) => (rebuilt ?? postings).has(term),
    get,
    keys: () => (rebuilt ?? postings).keys(),
    *[Symbol.iterator]() {
      for (const term of [...(rebuilt ?? postings).keys()]) {
        const posting = get(term);
        if (posting !== undefined) yield [term, posting];
      }
    },
  };
}

/** The store's BM25 snapshot made under `key`, when there is a usable one (for any entry files). */
export function readBm25Snapshot(root: string, key: string): Bm25Snapshot | undefined {
  const framed = openSnapshot<Header>(snapshotPath(root), FORMAT, key, bodyLength, tailLength);
  return framed === undefined ? undefined : bm25Of(framed.header, framed.body[0] as Buffer, framed.tail);
}

/** Writes the snapshot atomically; a store that cannot take it (read-only checkout) is left as it was. */
export async function writeBm25Snapshot(root: string, key: string, identity: string, index: Bm25Index): Promise<void> {
  await writeSnapshotFile(snapshotPath(root), () => serializeBm25(index, identity, key));
}

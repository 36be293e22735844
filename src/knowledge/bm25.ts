// BM25 over knowledge entries: title, description, details and keywords, with keyword hits
// weighted by matching.keyword_boost. Built once per set of entries; scoring a query touches only
// the postings of its terms, so the index can serve many queries (the daemon keeps one).
import type { KnowledgeEntry } from '../types.js';
import { terms } from './_text.js';
import { keyAt, rowsByKey, TEXT_KEY_BYTES, textKey } from './_text-key.js';

const K1 = 1.2;
const B = 0.75;

/** The documents holding a term and the weighted frequency of the term in each. */
export interface Posting {
  docs: Int32Array;
  tfs: Float64Array;
}

/** The postings by term: a Map, or a snapshot's, each read when first asked for (bm25-snapshot.ts). */
export interface Postings extends Iterable<[string, Posting]> {
  readonly size: number;
  has(term: string): boolean;
  get(term: string): Posting | undefined;
  keys(): IterableIterator<string>;
}

export interface Bm25Index {
  /** Number of documents. */
  size: number;
  postings: Postings;
  /** K1 × (1 − B + B × length / average length) of each document: its length normalisation. */
  norms: Float64Array;
  /** The weighted length of each document (the sum of its term frequencies). */
  lengths: Float64Array;
  /** TEXT_KEY_BYTES per document: the sha1 of the text it was made from (entryTextKey). */
  keys: Buffer;
}

/** The key of what BM25 reads of an entry: equal keys give equal term frequencies (under one keyword boost and one lore). */
export function entryTextKey(entry: KnowledgeEntry): Buffer {
  return textKey(JSON.stringify([entry.title, entry.description, entry.details ?? null, entry.keywords]));
}

/** Weighted term frequencies of one entry: each keyword word counts `keywordBoost` times. */
export function entryTerms(entry: KnowledgeEntry, keywordBoost: number): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (text: string | undefined, weight: number): void => {
    if (text === undefined) return;
    for (const term of terms(text)) counts.set(term, (counts.get(term) ?? 0) + weight);
  };
  add(entry.title, 1);
  add(entry.description, 1);
  add(entry.details, 1);
  for (const keyword of entry.keywords) add(keyword, keywordBoost);
  return counts;
}

/**
 * Builds the index of a list of entries (document i is entries[i]). With `previous` (an index
 * built under the same keyword boost, by the same lore), an entry whose text `previous` holds
 * takes its term frequencies and length from there instead of being tokenised again: the same
 * numbers, in the same document order, so the same index.
 */
export function buildBm25(entries: readonly KnowledgeEntry[], keywordBoost: number, previous?: Bm25Index): Bm25Index {
  const keys = Buffer.alloc(TEXT_KEY_BYTES * entries.length);
  entries.forEach((entry, doc) => entryTextKey(entry).copy(keys, TEXT_KEY_BYTES * doc));
  const reused = previous === undefined ? undefined : reusedTerms(previous, keys);
  const lists = new Map<string, { docs: number[]; tfs: number[] }>();
  const lengths = new Float64Array(entries.length);
  let total = 0;
  entries.forEach((entry, doc) => {
    const add = (term: string, count: number): void => {
      let list = lists.get(term);
      if (list === undefined) lists.set(term, (list = { docs: [], tfs: [] }));
      list.docs.push(doc);
      list.tfs.push(count);
    };
    const old = reused?.get(doc);
    if (old !== undefined) {
      for (let i = 0; i < old.terms.length; i++) add(old.terms[i]!, old.tfs[i]!);
      lengths[doc] = old.length;
    } else {
      let length = 0;
      for (const [term, count] of entryTerms(entry, keywordBoost)) {
        add(term, count);
        length += count;
      }
      lengths[doc] = length;
    }
    total += lengths[doc]!;
  });
  const average = entries.length === 0 || total === 0 ? 1 : total / entries.length;
  const norms = lengths.map((length) => K1 * (1 - B + (B * length) / average));
  const postings = new Map<string, Posting>();
  for (const [term, list] of lists) postings.set(term, { docs: Int32Array.from(list.docs), tfs: Float64Array.from(list.tfs) });
  return { size: entries.length, postings, norms, lengths, keys };
}

/** A document's terms with their frequencies, and its length. */
interface DocTerms {
  terms: string[];
  tfs: number[];
  length: number;
}

/** For each new document whose text `previous` holds, that document's terms, frequencies and length there (read back from its postings). */
function reusedTerms(previous: Bm25Index, keys: Buffer): Map<number, DocTerms> {
  const oldDocOf = rowsByKey(previous.keys, previous.size);
  const wanted = new Map<number, DocTerms>();
  const byNew = new Map<number, DocTerms>();
  for (let doc = 0; doc < keys.length / TEXT_KEY_BYTES; doc++) {
    const old = oldDocOf.get(keyAt(keys, doc));
    if (old === undefined) continue;
    let terms = wanted.get(old);
    if (terms === undefined) wanted.set(old, (terms = { terms: [], tfs: [], length: previous.lengths[old]! }));
    byNew.set(doc, terms);
  }
  if (wanted.size === 0) return byNew;
  for (const [term, { docs, tfs }] of previous.postings) {
    for (let i = 0; i < docs.length; i++) {
      const terms = wanted.get(docs[i]!);
      if (terms !== undefined) {
        terms.terms.push(term);
        terms.tfs.push(tfs[i]!);
      }
    }
  }
  return byNew;
}

/** The documents holding every one of the terms (none for no terms). */
export function documentsWithAll(index: Bm25Index, words: readonly string[]): Set<number> {
  let docs: Set<number> | undefined;
  for (const term of new Set(words)) {
    const holding = new Set(index.postings.get(term)?.docs ?? []);
    docs = docs === undefined ? holding : new Set([...docs].filter((doc) => holding.has(doc)));
  }
  return docs ?? new Set();
}

/** Whether a document holds a term: a binary search in the term's postings (documents are in order). */
export function hasTerm(index: Bm25Index, term: string, doc: number): boolean {
  const docs = index.postings.get(term)?.docs;
  if (docs === undefined) return false;
  let lo = 0;
  let hi = docs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (docs[mid] === doc) return true;
    if (docs[mid]! < doc) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Inverse document frequency, the BM25+ form that is never negative. */
function idf(index: Bm25Index, documentFrequency: number): number {
  return Math.log(1 + (index.size - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/**
 * What a term adds to the score of each document holding it, in the order of its postings: the
 * same for every query, so kept once a query computed it (a posting belongs to one index, whose
 * size and norms it reads) for as long as the posting is kept.
 */
const contributions = new WeakMap<Posting, Float64Array>();

/** BM25 scores of every document for the query terms (each distinct term counted once). */
export function scoreBm25(index: Bm25Index, queryTerms: readonly string[]): Float64Array {
  const scores = new Float64Array(index.size);
  for (const term of new Set(queryTerms)) {
    const posting = index.postings.get(term);
    if (posting === undefined) continue;
    const { docs } = posting;
    const kept = contributions.get(posting);
    if (kept !== undefined) {
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i]!;
        scores[doc] = scores[doc]! + kept[i]!;
      }
      continue;
    }
    // The term's first query computes and keeps in one pass: a process that asks once (the CLI)
    // pays for no second loop, and the daemon's later queries only add.
    const { tfs } = posting;
    const weight = idf(index, docs.length) * (K1 + 1);
    const adds = new Float64Array(docs.length);
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i]!;
      const tf = tfs[i]!;
      const add = (weight * tf) / (tf + index.norms[doc]!);
      adds[i] = add;
      scores[doc] = scores[doc]! + add;
    }
    contributions.set(posting, adds);
  }
  return scores;
}

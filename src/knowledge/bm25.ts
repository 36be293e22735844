// BM25 over knowledge entries: title, description, details and keywords, with keyword hits
// weighted by matching.keyword_boost. Built once per set of entries; scoring a query touches only
// the postings of its terms, so the index can serve many queries (the daemon keeps one).
import type { KnowledgeEntry } from '../types.js';
import { terms } from './_text.js';

const K1 = 1.2;
const B = 0.75;

/** The documents holding a term and the weighted frequency of the term in each. */
export interface Posting {
  docs: Int32Array;
  tfs: Float64Array;
}

export interface Bm25Index {
  /** Number of documents. */
  size: number;
  postings: Map<string, Posting>;
  /** K1 × (1 − B + B × length / average length) of each document: its length normalisation. */
  norms: Float64Array;
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

/** Builds the index of a list of entries (document i is entries[i]). */
export function buildBm25(entries: readonly KnowledgeEntry[], keywordBoost: number): Bm25Index {
  const lists = new Map<string, { docs: number[]; tfs: number[] }>();
  const lengths = new Float64Array(entries.length);
  let total = 0;
  entries.forEach((entry, doc) => {
    let length = 0;
    for (const [term, count] of entryTerms(entry, keywordBoost)) {
      let list = lists.get(term);
      if (list === undefined) lists.set(term, (list = { docs: [], tfs: [] }));
      list.docs.push(doc);
      list.tfs.push(count);
      length += count;
    }
    lengths[doc] = length;
    total += length;
  });
  const average = entries.length === 0 || total === 0 ? 1 : total / entries.length;
  const norms = lengths.map((length) => K1 * (1 - B + (B * length) / average));
  const postings = new Map<string, Posting>();
  for (const [term, list] of lists) postings.set(term, { docs: Int32Array.from(list.docs), tfs: Float64Array.from(list.tfs) });
  return { size: entries.length, postings, norms };
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

/** BM25 scores of every document for the query terms (each distinct term counted once). */
export function scoreBm25(index: Bm25Index, queryTerms: readonly string[]): Float64Array {
  const scores = new Float64Array(index.size);
  for (const term of new Set(queryTerms)) {
    const posting = index.postings.get(term);
    if (posting === undefined) continue;
    const { docs, tfs } = posting;
    const weight = idf(index, docs.length) * (K1 + 1);
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i]!;
      const tf = tfs[i]!;
      scores[doc] = scores[doc]! + (weight * tf) / (tf + index.norms[doc]!);
    }
  }
  return scores;
}

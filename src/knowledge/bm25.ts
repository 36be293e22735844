// BM25 over knowledge entries: title, description, details and keywords, with keyword hits
// weighted by matching.keyword_boost. Built once per set of entries; scoring a query touches only
// the postings of its terms, so the index can serve many queries (the daemon keeps one).
import type { KnowledgeEntry } from '../types.js';
import { terms } from './_text.js';

const K1 = 1.2;
const B = 0.75;

export interface Bm25Index {
  /** Number of documents. */
  size: number;
  /** term → [document index, weighted term frequency] pairs. */
  postings: Map<string, Array<[number, number]>>;
  /** Weighted length of each document. */
  lengths: Float64Array;
  averageLength: number;
  /** Every term of each document (for technology matches). */
  vocabulary: Array<Set<string>>;
}

/** Weighted term frequencies of one entry: each keyword word counts `keywordBoost` times. */
function entryTerms(entry: KnowledgeEntry, keywordBoost: number): Map<string, number> {
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
  const postings = new Map<string, Array<[number, number]>>();
  const lengths = new Float64Array(entries.length);
  const vocabulary: Array<Set<string>> = [];
  let total = 0;
  entries.forEach((entry, index) => {
    const counts = entryTerms(entry, keywordBoost);
    let length = 0;
    for (const [term, count] of counts) {
      let list = postings.get(term);
      if (list === undefined) postings.set(term, (list = []));
      list.push([index, count]);
      length += count;
    }
    lengths[index] = length;
    vocabulary.push(new Set(counts.keys()));
    total += length;
  });
  return { size: entries.length, postings, lengths, averageLength: entries.length === 0 ? 0 : total / entries.length, vocabulary };
}

/** Inverse document frequency, the BM25+ form that is never negative. */
function idf(index: Bm25Index, documentFrequency: number): number {
  return Math.log(1 + (index.size - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/** BM25 scores of every document for the query terms (each distinct term counted once). */
export function scoreBm25(index: Bm25Index, queryTerms: readonly string[]): Float64Array {
  const scores = new Float64Array(index.size);
  for (const term of new Set(queryTerms)) {
    const list = index.postings.get(term);
    if (list === undefined) continue;
    const weight = idf(index, list.length);
    for (const [doc, tf] of list) {
      const norm = K1 * (1 - B + (B * index.lengths[doc]!) / (index.averageLength || 1));
      scores[doc]! += (weight * tf * (K1 + 1)) / (tf + norm);
    }
  }
  return scores;
}

// Duplicate and similar entries: the higher of two similarities of the title and description.
// Words: Jaccard similarity of shingles, the stemmed, stop-word-free words and each pair of
// adjacent ones, so a repeated learning scores near 1. Meaning: the cosine of their built-in
// word-vector embeddings (word-vectors.ts), so a learning said again in other words scores high
// too, where its shingles barely overlap.
// On demand, all pairs are found with prefix filtering for words (exact for Jaccard, far fewer
// comparisons than all pairs: two sets with Jaccard >= t must share one of the rarest
// |s| - ceil(t·|s|) + 1 shingles of each; where they first share one bounds how much they can
// share, and counting stops once that cannot reach the threshold) and by comparing every pair's
// vectors for meaning.
import type { KnowledgeEntry } from '../types.js';
import { terms } from './_text.js';
import { dot, VectorRows } from './vector-scan.js';
import { embedText } from './word-vectors.js';
import { byText } from '../text-order.js';

export const DEFAULT_SIMILARITY = 0.8;

/** The shingles of a title and description: words and adjacent word pairs. */
export function shingles(title: string, description: string): Set<string> {
  const out = new Set<string>();
  for (const text of [title, description]) {
    const words = terms(text);
    words.forEach((word, i) => {
      out.add(word);
      if (i + 1 < words.length) out.add(`${word} ${words[i + 1]}`);
    });
  }
  return out;
}

/** Jaccard similarity |a ∩ b| / |a ∪ b| (0 for two empty sets). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const s of small) if (large.has(s)) shared++;
  return shared / (a.size + b.size - shared);
}

/** What similarity compares of a title and description, computed once per text. */
export interface Fingerprint {
  shingles: Set<string>;
  /** The unit vector of its meaning; undefined when no word is in the word table. */
  meaning: Float32Array | undefined;
}

/** The fingerprint of a title and description. */
export function fingerprint(title: string, description: string): Fingerprint {
  return { shingles: shingles(title, description), meaning: embedText(`${title}\n${description}`) };
}

/** The cosine of two meanings (0 when either is unknown), at most 1. */
function meaningSimilarity(a: Float32Array | undefined, b: Float32Array | undefined): number {
  return a === undefined || b === undefined ? 0 : Math.min(1, dot(a, b));
}

/** Similarity of two fingerprints: the higher of their words' Jaccard and their meanings' cosine. */
export function compare(a: Fingerprint, b: Fingerprint): number {
  return Math.max(jaccard(a.shingles, b.shingles), meaningSimilarity(a.meaning, b.meaning));
}

/** Similarity of two entries' titles and descriptions. */
export function similarity(a: Pick<KnowledgeEntry, 'title' | 'description'>, b: Pick<KnowledgeEntry, 'title' | 'description'>): number {
  return compare(fingerprint(a.title, a.description), fingerprint(b.title, b.description));
}

export interface SimilarPair {
  a: string;
  b: string;
  similarity: number;
}

/** The most pairs findDuplicates lists unless told otherwise: a store of near-identical entries must not flood its answer. */
export const DEFAULT_MAX_PAIRS = 1000;

const round = (n: number): number => Math.round(n * 1000) / 1000;

/** Keeps the `max` best pairs of many: most similar first, then by ids; counts them all. */
class BestPairs {
  readonly pairs: SimilarPair[] = [];
  found = 0;
  /** The similarity of the last pair kept at the latest trim: a pair below it can no longer be listed. */
  private bar = -Infinity;

  constructor(private readonly max: number) {}

  add(a: string, b: string, similarity: number): void {
    this.found++;
    const value = round(similarity);
    if (value < this.bar) return;
    this.pairs.push(a < b ? { a, b, similarity: value } : { a: b, b: a, similarity: value });
    if (this.pairs.length >= 2 * this.max) this.trim();
  }

  trim(): SimilarPair[] {
    this.pairs.sort((x, y) => y.similarity - x.similarity || byText(x.a, y.a) || byText(x.b, y.b));
    if (this.pairs.length >= this.max) {
      this.pairs.length = this.max;
      this.bar = this.pairs[this.max - 1]!.similarity;
    }
    return this.pairs;
  }
}

/**
 * Each fingerprint's shingles as numbers, sorted: a shingle's number is its place in one order of
 * all of them, the rarest first (then by text), so a set's first numbers are its rarest shingles.
 */
function rarestFirst(prints: readonly Fingerprint[]): Int32Array[] {
  const frequency = new Map<string, number>();
  for (const { shingles: set } of prints) for (const s of set) frequency.set(s, (frequency.get(s) ?? 0) + 1);
  const order = [...frequency].sort(([a, m], [b, n]) => m - n || byText(a, b));
  const number = new Map(order.map(([s], place) => [s, place]));
  return prints.map(({ shingles: set }) => Int32Array.from(set, (s) => number.get(s)!).sort());
}

/**
 * How many numbers two sorted arrays share from `i` in `a` and `j` in `b` on, counting on from
 * `shared`; -1 as soon as that cannot reach `needed`.
 */
function overlap(a: Int32Array, i: number, b: Int32Array, j: number, shared: number, needed: number): number {
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else {
      if (a[i]! < b[j]!) i++;
      else j++;
      if (shared + Math.min(a.length - i, b.length - j) < needed) return -1;
    }
  }
  return shared;
}

/**
 * The pairs of entries at least `threshold` similar, most similar first (then by ids): at most
 * `max` of them, and how many there are. `onProgress` hears of each entry compared by words, then
 * of each compared by meaning.
 *
 * @example
 * findDuplicates(entries, 0.8); // → { pairs: [{ a: 'learn-retry-with-backoff', b: 'learn-retry-with-backoff-2', similarity: 0.93 }], found: 1 }
 */
export function findDuplicates(entries: ReadonlyArray<Pick<KnowledgeEntry, 'id' | 'title' | 'description'>>, threshold = DEFAULT_SIMILARITY, max = DEFAULT_MAX_PAIRS, onProgress?: (done: number, total: number, what: string) => void): { pairs: SimilarPair[]; found: number } {
  const prints = entries.map((e) => fingerprint(e.title, e.description));
  const best = new BestPairs(max);
  const sets = rarestFirst(prints);
  // Each shingle's entries so far that hold it in their prefix, with its place there: [entry, place, ...].
  const holders: number[][] = [];
  // Which entry last met each entry: an entry is judged once, where two first share a shingle.
  const metBy = new Int32Array(prints.length).fill(-1);
  // How much two sets of sizes m and n must share to reach the threshold, a little under: o / (m + n - o) >= t.
  const needed = (m: number, n: number): number => (threshold / (1 + threshold)) * (m + n) - 1e-9;
  // Every pair whose words reach the threshold (prefix filtering finds them all)...
  const byWords = new Set<number>();
  for (let i = 0; i < sets.length; i++) {
    const set = sets[i]!;
    // A little under t·|s|, so that rounding never shortens the prefix.
    const prefix = Math.min(set.length, set.length - Math.ceil(threshold * set.length - 1e-9) + 1);
    for (let k = 0; k < prefix; k++) {
      const shingle = set[k]!;
      const held = holders[shingle];
      for (let h = 0; held !== undefined && h < held.length; h += 2) {
        const j = held[h]!;
        if (metBy[j] === i) continue;
        metBy[j] = i;
        // The first shingle they share is at k in one and p in the other (a rarer one would have met them
        // earlier), so they share at most this one and the fewer of the shingles after it.
        const other = sets[j]!;
        const p = held[h + 1]!;
        const least = needed(set.length, other.length);
        if (Math.min(set.length - k, other.length - p) < least) continue;
        const shared = overlap(set, k + 1, other, p + 1, 1, least);
        if (shared < 0) continue;
        const words = shared / (set.length + other.length - shared);
        if (words < threshold) continue;
        byWords.add(j * prints.length + i);
        best.add(entries[i]!.id, entries[j]!.id, Math.max(words, meaningSimilarity(prints[i]!.meaning, prints[j]!.meaning)));
      }
      (holders[shingle] ??= []).push(i, k);
    }
    onProgress?.(i + 1, sets.length, 'comparing words');
  }
  // ...and every other pair whose meanings do (their words are below the threshold, so the meaning
  // is their similarity): no prefix to filter on, every pair of vectors is compared, in one matrix.
  const known = prints.flatMap((p, i) => (p.meaning === undefined ? [] : [i]));
  const dims = prints[known[0] ?? 0]?.meaning?.length ?? 0;
  const matrix = new VectorRows(known.length, dims);
  known.forEach((i, row) => matrix.data.set(prints[i]!.meaning!, row * dims));
  for (let x = 0; x < known.length; x++) {
    // Row x against every later row in one scan.
    const values = matrix.scan(prints[known[x]!]!.meaning!, x + 1);
    for (let y = x + 1; y < known.length; y++) {
      const value = Math.min(1, values[y - x - 1]!);
      if (value >= threshold && !byWords.has(known[x]! * prints.length + known[y]!)) best.add(entries[known[x]!]!.id, entries[known[y]!]!.id, value);
    }
    onProgress?.(x + 1, known.length, 'comparing meanings');
  }
  return { pairs: best.trim(), found: best.found };
}

/** Candidates' fingerprints computed once, for checking many texts against them (a batch of captures). */
export class SimilarityIndex<T extends Pick<KnowledgeEntry, 'id' | 'title' | 'description'>> {
  private readonly prints: Array<{ candidate: T; print: Fingerprint }> = [];

  constructor(candidates: readonly T[] = []) {
    for (const candidate of candidates) this.add(candidate);
  }

  /** Adds a candidate. */
  add(candidate: T): void {
    this.prints.push({ candidate, print: fingerprint(candidate.title, candidate.description) });
  }

  /** The most similar candidate to a title and description, if any reaches the threshold (ties: the smaller id). */
  mostSimilar(title: string, description: string, threshold = DEFAULT_SIMILARITY): { match: T; similarity: number } | undefined {
    const target = fingerprint(title, description);
    let best: { match: T; similarity: number } | undefined;
    for (const { candidate, print } of this.prints) {
      const value = compare(target, print);
      if (value >= threshold && (best === undefined || value > best.similarity || (value === best.similarity && candidate.id < best.match.id))) best = { match: candidate, similarity: value };
    }
    return best === undefined ? undefined : { ...best, similarity: round(best.similarity) };
  }
}

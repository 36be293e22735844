// Duplicate and similar entries: Jaccard similarity of word shingles of the normalised title and
// description. Shingles are the stemmed, stop-word-free words and each pair of adjacent ones, so
// rewording and reordering lower the score while a repeated learning scores near 1.
// On demand, all pairs are found with prefix filtering (exact for Jaccard, far fewer comparisons
// than all pairs): two sets with Jaccard >= t must share one of the rarest |s| - ceil(t·|s|) + 1
// shingles of each.
import type { KnowledgeEntry } from '../types.js';
import { terms } from './_text.js';

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

/** Similarity of two entries' titles and descriptions. */
export function similarity(a: Pick<KnowledgeEntry, 'title' | 'description'>, b: Pick<KnowledgeEntry, 'title' | 'description'>): number {
  return jaccard(shingles(a.title, a.description), shingles(b.title, b.description));
}

export interface SimilarPair {
  a: string;
  b: string;
  similarity: number;
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

/**
 * Every pair of entries at least `threshold` similar, most similar first (then by ids).
 *
 * @example
 * findDuplicates(entries, 0.8); // → [{ a: 'learn-retry-with-backoff', b: 'learn-retry-with-backoff-2', similarity: 0.93 }]
 */
export function findDuplicates(entries: ReadonlyArray<Pick<KnowledgeEntry, 'id' | 'title' | 'description'>>, threshold = DEFAULT_SIMILARITY): SimilarPair[] {
  const sets = entries.map((e) => shingles(e.title, e.description));
  const frequency = new Map<string, number>();
  for (const set of sets) for (const s of set) frequency.set(s, (frequency.get(s) ?? 0) + 1);
  const rarestFirst = (a: string, b: string): number => frequency.get(a)! - frequency.get(b)! || (a < b ? -1 : a > b ? 1 : 0);
  const index = new Map<string, number[]>();
  const pairs: SimilarPair[] = [];
  sets.forEach((set, i) => {
    const ordered = [...set].sort(rarestFirst);
    const prefix = ordered.slice(0, ordered.length - Math.ceil(threshold * ordered.length) + 1);
    const seen = new Set<number>();
    for (const s of prefix) {
      for (const j of index.get(s) ?? []) {
        if (seen.has(j)) continue;
        seen.add(j);
        const value = jaccard(set, sets[j]!);
        if (value >= threshold) {
          const [a, b] = [entries[j]!.id, entries[i]!.id].sort() as [string, string];
          pairs.push({ a, b, similarity: round(value) });
        }
      }
      const list = index.get(s);
      if (list === undefined) index.set(s, [i]);
      else list.push(i);
    }
  });
  return pairs.sort((x, y) => y.similarity - x.similarity || (x.a < y.a ? -1 : x.a > y.a ? 1 : x.b < y.b ? -1 : 1));
}

/** Candidates' shingles computed once, for checking many texts against them (a batch of captures). */
export class SimilarityIndex<T extends Pick<KnowledgeEntry, 'id' | 'title' | 'description'>> {
  private readonly sets: Array<{ candidate: T; shingles: Set<string> }> = [];

  constructor(candidates: readonly T[] = []) {
    for (const candidate of candidates) this.add(candidate);
  }

  /** Adds a candidate. */
  add(candidate: T): void {
    this.sets.push({ candidate, shingles: shingles(candidate.title, candidate.description) });
  }

  /** The most similar candidate to a title and description, if any reaches the threshold (ties: the smaller id). */
  mostSimilar(title: string, description: string, threshold = DEFAULT_SIMILARITY): { match: T; similarity: number } | undefined {
    const target = shingles(title, description);
    let best: { match: T; similarity: number } | undefined;
    for (const { candidate, shingles: set } of this.sets) {
      const value = jaccard(target, set);
      if (value >= threshold && (best === undefined || value > best.similarity || (value === best.similarity && candidate.id < best.match.id))) best = { match: candidate, similarity: value };
    }
    return best === undefined ? undefined : { ...best, similarity: round(best.similarity) };
  }
}

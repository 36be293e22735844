import type { KnowledgeResult } from '../src/knowledge/query.js';
import type { KnowledgeType, Priority } from '../src/types.js';

export interface LabelledQuery { query: string; needs: string[] }
export interface RelevanceFixture {
  about: string;
  entries: Array<{ id: string; type: KnowledgeType; priority: Priority; title: string; description: string; keywords: string[] }>;
  paraphrases: LabelledQuery[];
  keywords: LabelledQuery[];
}

/** The labelled set: entries (fields of a knowledge entry), paraphrases and keyword queries with the ids each needs. */
export function relevanceFixture(): RelevanceFixture;
/** The k best of a query result (all types together, by score then id). */
export function topOf(result: Pick<KnowledgeResult, 'recommendations' | 'prohibitions' | 'learnings'>, k: number): string[];
/** recall@k: of all the (query, needed entry) pairs, how many have the entry among the query's k best. */
export function recallAt(queries: readonly LabelledQuery[], rank: (query: string, k: number) => Promise<string[]>, k: number): Promise<{ found: number; total: number; recall: number }>;

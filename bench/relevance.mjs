// Relevance on the labelled set of tests/fixtures/paraphrase-relevance.json, shared by its test
// (tests/knowledge-relevance.test.ts) and the bench: recall@k of a ranking function.
import { readFileSync } from 'node:fs';

/** The labelled set: entries (fields of a knowledge entry), paraphrases and keyword queries with the ids each needs. */
export function relevanceFixture() {
  return JSON.parse(readFileSync(new URL('../tests/fixtures/paraphrase-relevance.json', import.meta.url), 'utf8'));
}

/** The k best of a query result (all types together, by score then id). */
export function topOf(result, k) {
  return [...result.recommendations, ...result.prohibitions, ...result.learnings]
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, k)
    .map((entry) => entry.id);
}

/** recall@k: of all the (query, needed entry) pairs, how many have the entry among the query's k best. */
export async function recallAt(queries, rank, k) {
  let found = 0;
  let total = 0;
  for (const { query, needs } of queries) {
    const top = await rank(query, k);
    for (const id of needs) {
      total++;
      if (top.includes(id)) found++;
    }
  }
  return { found, total, recall: Math.round((found / total) * 1000) / 1000 };
}

// check-plan's path matching through the plan index (each distinct rule tested once per path, then
// only the entries a matched rule points to) against the plain reading: every entry's patterns and
// globs tested on every path, the first that matches giving the reason. A missed match fails here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileGlob } from '../src/match/glob.js';
import { compileRegex } from '../src/match/regex.js';
import { buildPlanIndex, docPathMatches, pathHits } from '../src/knowledge/plan-index.js';
import { keywordHits, keywordMatches, keywordsIn, planMatches } from '../src/knowledge/plan-match.js';
import type { KnowledgeEntry } from '../src/types.js';

const GLOBS = ['**/.env', 'src/**', '**/*.ts', 'src/*.js', '.knowledge/gates/**', '**/secrets/**', 'docs/**/*.md', '*.json'];
const PATTERNS = ['\\.env$', '^src/', 'secret', '\\.(pem|key)$', 'test', '^docs/.*\\.md$'];
const KEYWORDS = ['env', 'env*', 'secret', 'api key', 'rate limit', 'deploy', 'prod*', 'force push', 'push'];
const APPROACHES = ['write the .env file', 'rotate the API key in prod', 'deploy with force push', 'raise the rate limit', 'push the environment secret', 'nothing relevant', 'production deploy of the api keys'];
const PATHS = ['.env', 'config/.env', 'src/app.ts', 'src/app.js', 'src/deep/x.ts', 'docs/a/b.md', 'package.json', 'keys/id.pem', 'lib/secrets/x.txt', '.knowledge/gates/q.yaml', 'tests/a.test.ts', 'README.md'];

function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
}

/** A seeded generator and `pick(list, n)`: n items of the list drawn with it, repeats allowed. */
function picker(seed: number): { next: () => number; pick: <T>(list: readonly T[], n: number) => T[] } {
  const next = random(seed);
  return { next, pick: (list, n) => Array.from({ length: n }, () => list[Math.floor(next() * list.length)]!) };
}

describe('the plan index', () => {
  it('finds for every entry and path the same first matching rule as testing each entry in turn (2,000 generated stores, four calls each)', () => {
    const { next, pick } = picker(7);
    const mismatches: string[] = [];
    for (let store = 0; store < 2000; store++) {
      const entries = Array.from({ length: 1 + Math.floor(next() * 8) }, (_, i) => ({
        id: `pro-${i}`, type: 'prohibition', patterns: pick(PATTERNS, Math.floor(next() * 3)), globs: pick(GLOBS, Math.floor(next() * 3)),
      }) as unknown as KnowledgeEntry);
      const [first, second] = [pick(PATHS, 1 + Math.floor(next() * 5)), pick(PATHS, 1 + Math.floor(next() * 5))];
      const index = buildPlanIndex(entries);
      // One index serves call after call: the same paths again, others, then the first ones again.
      for (const paths of [first, [...first], second, first]) {
        const hits = pathHits(index, paths);
        entries.forEach((entry, doc) => {
          const rules = [...(entry.patterns ?? []).map((s) => ({ kind: 'pattern', source: s, test: (p: string) => compileRegex(s).test(p) })), ...(entry.globs ?? []).map((s) => ({ kind: 'glob', source: s, test: compileGlob(s).test }))];
          const expected = paths.flatMap((path) => {
            const first = rules.find((r) => r.test(path));
            return first === undefined ? [] : [`${path} ${first.kind} ${first.source}`];
          });
          const actual = docPathMatches(index, hits, doc).reasons.map((r) => `${r.path} ${r.kind} ${r.pattern}`);
          if (JSON.stringify(actual) !== JSON.stringify(expected)) mismatches.push(`${JSON.stringify(entry)} on ${paths.join(', ')}: ${actual.join('; ')} ≠ ${expected.join('; ')}`);
        });
      }
    }
    assert.deepEqual(mismatches.slice(0, 5), []);
  });

  it('finds for every prohibition the keywords, in its order, that testing its keywords alone finds (2,000 generated stores, three texts each)', () => {
    const { next, pick } = picker(11);
    const mismatches: string[] = [];
    for (let store = 0; store < 2000; store++) {
      // Other types between the prohibitions: a document's position is not its prohibition's; keywords repeat within an entry.
      const entries = Array.from({ length: 1 + Math.floor(next() * 8) }, (_, i) => ({
        id: `e-${i}`, type: next() < 0.7 ? 'prohibition' : 'learning', keywords: pick(KEYWORDS, Math.floor(next() * 4)),
      }) as unknown as KnowledgeEntry);
      const index = buildPlanIndex(entries);
      const hits = pathHits(index, []);
      // One index serves text after text: the per-prohibition tables it keeps must not carry a text's finds to the next.
      for (const text of pick(APPROACHES, 3)) {
        const keywords = keywordHits(index, text);
        entries.forEach((entry, doc) => {
          if (entry.type !== 'prohibition') return;
          const expected = keywordMatches(entry, keywordsIn(text, entry.keywords));
          const actual = planMatches(index, entry, doc, hits, keywords).reasons;
          if (JSON.stringify(actual) !== JSON.stringify(expected)) mismatches.push(`${JSON.stringify(entry.keywords)} on "${text}": ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`);
          assert.equal(keywords.docs.has(doc), expected.length > 0, `${JSON.stringify(entry.keywords)} on "${text}"`);
        });
      }
    }
    assert.deepEqual(mismatches.slice(0, 5), []);
  });
});

// Relevance with the built-in word vectors on a labelled set (tests/fixtures/paraphrase-relevance.json):
// paraphrased queries share no term with the entries they need, so keyword ranking cannot find
// them; the default "semantic + keyword" ranking must, by the margin below, and must keep finding
// what keyword queries find.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { recallAt, relevanceFixture, topOf } from '../bench/relevance.mjs';
import { terms } from '../src/knowledge/_text.js';
import { loadKnowledgeIndex } from '../src/knowledge/knowledge-index.js';
import { queryKnowledge } from '../src/knowledge/query.js';
import { entry, knowledgeStore } from './helpers/knowledge.js';

const fixture = relevanceFixture();
const entries = fixture.entries.map((fields) => entry(fields));

/** Ranks queries on a temp store of the fixture's entries with the given config. */
async function ranker(t: TestContext, config = ''): Promise<(query: string, k: number) => Promise<string[]>> {
  const { store } = await knowledgeStore(t, entries, { config });
  const { index } = await loadKnowledgeIndex(store);
  return async (query, k) => topOf(await queryKnowledge(index, { taskDescription: query, maxResults: k }, { root: store.root }), k);
}

describe('relevance on paraphrased queries', () => {
  it('uses a labelled set whose paraphrases share no term with the entries they need', () => {
    assert.equal(entries.length, 100);
    assert.equal(fixture.paraphrases.length, 32);
    const byId = new Map(entries.map((e) => [e.id, e]));
    for (const { needs } of [...fixture.paraphrases, ...fixture.keywords]) for (const id of needs) assert.ok(byId.has(id), id);
    for (const { query, needs } of fixture.paraphrases) {
      const words = new Set(terms(query));
      for (const id of needs) {
        const e = byId.get(id)!;
        assert.deepEqual(terms([e.title, e.description, ...e.keywords].join(' ')).filter((term) => words.has(term)), [], `"${query}" shares a term with ${id}`);
      }
    }
  });

  it('finds with the built-in word vectors what keyword ranking cannot: recall@5 0.294 against 0', async (t) => {
    const semantic = await ranker(t);
    const keyword = await ranker(t, 'matching:\n  use_semantic: false\n');
    const withVectors = await recallAt(fixture.paraphrases, semantic, 5);
    const withKeywords = await recallAt(fixture.paraphrases, keyword, 5);
    assert.deepEqual(withKeywords, { found: 0, total: 34, recall: 0 });
    assert.deepEqual(withVectors, { found: 10, total: 34, recall: 0.294 });
    assert.ok(withVectors.recall - withKeywords.recall >= 0.25, 'the margin the README states');
  });

  it('keeps what keyword queries find', async (t) => {
    const semantic = await recallAt(fixture.keywords, await ranker(t), 5);
    const keyword = await recallAt(fixture.keywords, await ranker(t, 'matching:\n  use_semantic: false\n'), 5);
    assert.deepEqual(keyword, { found: 20, total: 20, recall: 1 });
    assert.deepEqual(semantic, keyword);
  });

  it('says which vectors it used, and how many entry vectors it computed', async (t) => {
    const { store } = await knowledgeStore(t, entries);
    const first = await queryKnowledge((await loadKnowledgeIndex(store)).index, { taskDescription: 'a pattern match hung the web server for minutes' }, { root: store.root });
    assert.deepEqual(first.semantic, { used: true, message: 'semantic matching with the built-in word vectors (glove-6b-100d)', model: 'glove-6b-100d', computed: 100 });
    const second = await queryKnowledge((await loadKnowledgeIndex(store)).index, { taskDescription: 'a pattern match hung the web server for minutes' }, { root: store.root });
    assert.equal(second.semantic.computed, 0, 'the second process reads the snapshot');
    assert.deepEqual(second.learnings.slice(0, 1).map((e) => [e.id, e.reasons]), first.learnings.slice(0, 1).map((e) => [e.id, e.reasons]));
  });
});

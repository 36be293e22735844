import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ContextGraph } from '../src/graph/model.js';
import { memoryFileText } from '../src/graph/memory-file.js';
import { toDot, toMermaid } from '../src/graph/serialize-diagram.js';
import { contextString, graphToText } from '../src/graph/serialize-text.js';
import { estimateTokens } from '../src/tokens.js';
import { SAMPLE } from './helpers/graph-sample.js';

// Set UPDATE_GOLDEN=1 to rewrite the golden files after a deliberate change; review the diff.
function golden(name: string, actual: string): void {
  const url = new URL(`./golden/graph/${name}`, import.meta.url);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(url, actual);
  assert.equal(actual, readFileSync(url, 'utf8'), `tests/golden/graph/${name}`);
}

function sample(): ContextGraph {
  const graph = new ContextGraph();
  graph.applyUpdate(SAMPLE);
  return graph;
}

describe('diagrams for people', () => {
  it('writes Mermaid with generated node ids, escaped labels and typed edges', () => {
    golden('sample.mmd', toMermaid(sample().toJSON()));
  });

  it('writes DOT with generated node ids, escaped labels and typed edges', () => {
    golden('sample.dot', toDot(sample().toJSON()));
  });

  it('never lets a name close its label early', () => {
    for (const line of toMermaid(sample().toJSON()).split('\n').slice(1, -1)) {
      // Each node or edge line has exactly one quoted label, so exactly two double quotes.
      assert.equal(line.split('"').length - 1, 2, line);
    }
    for (const line of toDot(sample().toJSON()).split('\n').filter((l) => l.includes('label'))) {
      assert.equal(line.replace(/\\\\/g, '').replace(/\\"/g, '').split('"').length - 1, 2, line);
    }
  });

  it('draws a neighbourhood only with the edges inside it', () => {
    const near = sample().neighbours('end', { depth: 1 });
    assert.equal(toMermaid(near), 'flowchart LR\n  n1["end<br/>(keyword)"]\n  n2["Web App<br/>(app)"]\n  n1 -->|"documents"| n2\n');
  });
});

describe('text for prompts', () => {
  it('writes the whole graph, one line per entity and relationship', () => {
    golden('sample.txt', `${graphToText(sample().toJSON())}\n`);
  });

  it('writes the memory-file JSON with every field', () => {
    golden('sample.json', memoryFileText(sample().toJSON()));
  });

  it('keeps the whole graph when it fits the budget, and says nothing about truncation', () => {
    const graph = sample();
    const result = contextString(graph, { budget: 10_000 });
    assert.equal(result.truncated, false);
    assert.equal(result.text, graphToText(graph.toJSON()));
    assert.deepEqual([result.entities, result.relationships], [{ shown: 5, total: 5 }, { shown: 5, total: 5 }]);
  });

  it('cuts a neighbourhood to the budget nearest first and marks the cut at both ends', () => {
    const graph = sample();
    const result = contextString(graph, { around: ['end'], depth: 4, budget: 170 });
    assert.equal(result.text, [
      'Context graph, the neighbourhood of "end" within 4 steps, nearest first (TRUNCATED to fit 170 tokens): 3 of 5 entities, 2 of 5 relationships.',
      'Entities:',
      '- "end" (keyword)',
      '- "Web App" (app): The customer site. | tags: frontend',
      '- "Auth \\"v2\\" [beta]" (service): Issues tokens; rotates keys. | tags: core, security | properties: {"owner":"team-a","port":8443}',
      'Relationships:',
      '- "end" -documents-> "Web App"',
      '- "Web App" -calls-> "Auth \\"v2\\" [beta]" | properties: {"timeout_ms":200}',
      '[truncated: 2 more entities and 3 more relationships left out to fit the budget of 170 tokens]',
    ].join('\n'));
    assert.equal(result.truncated, true);
    assert.ok(result.tokens <= 170, `${result.tokens} tokens`);
    assert.equal(result.tokens, estimateTokens(result.text));
  });

  it('never goes over the budget, for any budget', () => {
    const graph = sample();
    for (let budget = 80; budget < 400; budget += 7) {
      const result = contextString(graph, { around: ['Web App'], depth: 2, budget });
      assert.ok(result.tokens <= budget, `budget ${budget}: ${result.tokens} tokens`);
    }
  });

  it('refuses a budget too small for the frame', () => {
    assert.throws(() => contextString(sample(), { budget: 10 }), { code: 'USAGE', message: /^a budget of 10 tokens cannot hold even the frame of the context/ });
  });
});

import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseMcpMemory } from '../src/graph/mcp-memory.js';
import { inProcess } from './helpers/cli.js';
import { tempDir, tempStore } from './helpers/temp.js';

const { lore, loreJson } = inProcess;

const FIXTURE = new URL('./fixtures/mcp-memory.jsonl', import.meta.url);

describe('importing the MCP memory server\'s JSONL', () => {
  it('converts entity and relation lines without loss: observations become a property', () => {
    const update = parseMcpMemory(readFileSync(FIXTURE, 'utf8'), 'memory.jsonl');
    assert.deepEqual(update, {
      entities: [
        { name: 'Checkout Service', type: 'service', properties: { observations: ['Written in Go', 'Owned by the payments team', 'Calls the payment gateway with a 2 s timeout'] } },
        { name: 'Payment Gateway', type: 'external_api', properties: { observations: ['Stripe, EU region'] } },
        { name: 'orders_db', type: 'data_store', properties: { observations: [] } },
      ],
      relationships: [
        { from: 'Checkout Service', to: 'Payment Gateway', type: 'calls' },
        { from: 'Checkout Service', to: 'orders_db', type: 'writes_to' },
        { from: 'Fraud Model', to: 'Checkout Service', type: 'scores_for' },
      ],
    });
  });

  it('imports the file into the store, warning about a relation to a missing entity', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\n' });
    copyFileSync(FIXTURE, join(root, 'memory.jsonl'));
    const result = await lore(['graph', 'import', '--from', 'mcp-memory', 'memory.jsonl'], { cwd: root });
    assert.deepEqual(result, {
      code: 0,
      stdout: [
        'added 3 entities, 2 relationships; updated 0 entities, 0 relationships; removed 0 entities, 0 relationships; ignored 1 entry',
        'wrote .knowledge/graph/entities/checkout-service-5333078b8f4c.yaml',
        'wrote .knowledge/graph/entities/payment-gateway-8a1dc8076425.yaml',
        'wrote .knowledge/graph/entities/orders_db.yaml',
        '',
      ].join('\n'),
      stderr: 'warning: relationships[2] ignored: "Fraud Model" -scores_for-> "Checkout Service": entity "Fraud Model" does not exist\n',
    });
    assert.equal(readFileSync(join(root, '.knowledge/graph/entities/checkout-service-5333078b8f4c.yaml'), 'utf8'), [
      '# yaml-language-server: $schema=../../schemas/graph-entity.schema.json',
      'name: Checkout Service',
      'type: service',
      'properties:',
      '  observations:',
      '    - Written in Go',
      '    - Owned by the payments team',
      '    - Calls the payment gateway with a 2 s timeout',
      'relationships:',
      '  - to: Payment Gateway',
      '    type: calls',
      '  - to: orders_db',
      '    type: writes_to',
      '',
    ].join('\n'));
    // Importing again changes nothing.
    const again = await loreJson<{ saved: Array<{ status: string }> }>(['graph', 'import', '--from', 'mcp-memory', 'memory.jsonl'], { cwd: root });
    assert.deepEqual(again.json.saved.map((s) => s.status), []);
  });

  it('imports into a memory file from stdin', async (t) => {
    const dir = tempDir(t);
    const result = await loreJson<{ added: { entities: string[] } }>(['graph', 'import', '--from', 'mcp-memory', '-', '--memory-file', 'context.json'], { cwd: dir, input: readFileSync(FIXTURE, 'utf8') });
    assert.deepEqual(result.json.added.entities, ['Checkout Service', 'Payment Gateway', 'orders_db']);
    assert.equal(JSON.parse(readFileSync(join(dir, 'context.json'), 'utf8')).relationships.length, 2);
  });

  it('refuses a file that is not of that format, naming every bad line, and imports nothing', async (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, 'bad.jsonl'), [
      '{"type":"entity","name":"ok","entityType":"service","observations":[]}',
      '{"type":"entity","name":"x","observations":[]}',
      '',
      '{"type":"relation","from":"ok","relationType":"calls"}',
      'not json',
      '{"type":"node","name":"y"}',
      '{"type":"entity","name":"z","entityType":"t","observations":"one"}',
    ].join('\n'));
    const result = await lore(['graph', 'import', '--from', 'mcp-memory', 'bad.jsonl'], { cwd: dir });
    assert.equal(result.code, 1);
    assert.deepEqual(result.stderr.split('\n').filter((l) => /^(error|bad)/.test(l)), [
      'error: bad.jsonl is not MCP-memory JSONL (5 bad lines); nothing was imported',
      'bad.jsonl:2:1: error: entity "x" needs a non-empty "entityType"',
      'bad.jsonl:4:1: error: a relation line needs a non-empty "to"',
      "bad.jsonl:5:1: error: JSON syntax: expected a value (found 'n')",
      'bad.jsonl:6:1: error: "type" must be "entity" or "relation" (found "node")',
      'bad.jsonl:7:1: error: entity "z": "observations" must be a list of strings',
    ]);
    assert.deepEqual((await lore(['graph', 'show', '--json'], { cwd: dir })).stdout, '{\n  "entities": [],\n  "relationships": []\n}\n');
    assert.deepEqual(await lore(['graph', 'import', '--from', 'neo4j', 'bad.jsonl'], { cwd: dir }), { code: 2, stdout: '', stderr: 'error: --from must be one of lore, mcp-memory (found "neo4j")\n' });
  });
});

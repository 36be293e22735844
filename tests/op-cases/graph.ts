import { readFileSync } from 'node:fs';
import { entityFileStem } from '../../src/store/ids.js';
import { renderRecord } from '../../src/store/write.js';
import type { GraphEntityRecord } from '../../src/types.js';
import type { OpCases } from '../helpers/op-cases.js';

const RECORDS: GraphEntityRecord[] = [
  { name: 'Web App', type: 'app', tags: ['frontend'], relationships: [{ to: 'Auth Service', type: 'calls' }] },
  { name: 'Auth Service', type: 'service', description: 'Issues JWT tokens.', tags: ['core'], properties: { owner: 'team-a' }, relationships: [{ to: 'User DB', type: 'reads_from', properties: { pool: 5 } }] },
  { name: 'User DB', type: 'data_store', tags: ['core'] },
  { name: 'Island', type: 'service' },
];
/** The system above in the store's entity files. */
const GRAPH = Object.fromEntries(RECORDS.map((r) => [`.knowledge/graph/entities/${entityFileStem(r.name)}.yaml`, renderRecord('entity', r)]));
/** The same system as a memory file. */
const MEMORY = {
  'context.json': JSON.stringify({
    entities: RECORDS.map(({ relationships: _, ...e }) => e),
    relationships: RECORDS.flatMap((r) => (r.relationships ?? []).map((rel) => ({ from: r.name, ...rel }))),
  }),
};
const UPDATE = JSON.stringify({ entities: [{ name: 'Cache', type: 'data_store' }], relationships: [{ from: 'Auth Service', to: 'Cache', type: 'reads_from' }, { from: 'Cache', to: 'Ghost', type: 'calls' }], remove: { entities: ['Island'] } });
const MCP_MEMORY = readFileSync(new URL('../fixtures/mcp-memory.jsonl', import.meta.url), 'utf8');

export const GRAPH_CASES: OpCases = {
  'graph apply': [{ args: ['graph', 'apply', '-'], files: GRAPH, stdin: UPDATE }, { args: ['graph', 'apply', '-', '--memory-file', 'context.json'], files: MEMORY, stdin: UPDATE }],
  'graph add-entity': [
    { args: ['graph', 'add-entity', '--name', 'Queue', '--type', 'queue', '--tag', 'async', '--prop', 'partitions=3'], files: GRAPH },
    { args: ['graph', 'add-entity', '--name', 'User DB', '--remove-tag', 'core', '--memory-file', 'context.json'], files: MEMORY },
  ],
  'graph relate': [{ args: ['graph', 'relate', 'Web App', 'reads_from', 'User DB', '--prop', 'cached=true'], files: GRAPH }],
  'graph rm-entity': [{ args: ['graph', 'rm-entity', 'Auth Service'], files: GRAPH }],
  'graph unrelate': [{ args: ['graph', 'unrelate', 'Web App', 'calls', 'Auth Service', '--memory-file', 'context.json'], files: MEMORY }],
  'graph show': [
    { args: ['graph', 'show'], files: GRAPH },
    { args: ['graph', 'show', 'User DB', '--depth', '2', '--memory-file', 'context.json'], files: MEMORY },
    { args: ['graph', 'show', '--budget', '60'], files: GRAPH },
    { args: ['graph', 'show', '--format', 'mermaid'], files: GRAPH },
  ],
  'graph find': [{ args: ['graph', 'find', '--tag', 'core'], files: GRAPH }, { args: ['graph', 'find', '--type', 'service', '--limit', '1'], files: GRAPH }, { args: ['graph', 'find', '--type', 'nothing'], files: GRAPH }],
  'graph path': [{ args: ['graph', 'path', 'Web App', 'User DB'], files: GRAPH }, { args: ['graph', 'path', 'Web App', 'Island'], files: GRAPH }],
  'graph context': [{ args: ['graph', 'context', '--around', 'Auth Service'], files: GRAPH }, { args: ['graph', 'context', '--budget', '75'], files: GRAPH }],
  'graph import': [{ args: ['graph', 'import', '-', '--memory-file', 'context.json'], files: MEMORY, stdin: MEMORY['context.json'] }, { args: ['graph', 'import', '--from', 'mcp-memory', '-'], files: GRAPH, stdin: MCP_MEMORY }],
  'graph export': [{ args: ['graph', 'export'], files: GRAPH }, { args: ['graph', 'export', '--memory-file', 'out.json'], files: GRAPH }],
};

// Every tool of `lore mcp`, called once through the SDK's client on a real store (a git repository
// with entries, seeded roles and gates, a graph, a thought DAG, turns and a pending learning). The
// client checks each answer's structuredContent against the tool's output schema, so an answer
// that drifts from its schema fails here too.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { OPS } from '../src/ops/registry.js';
import { entry, entryFiles } from './helpers/knowledge.js';
import { firstText, mcpClient } from './helpers/mcp.js';
import { gitRepo, gitSync, writeFiles } from './helpers/temp.js';

const TASK = { description: 'Load the config and retry on failure', type: 'feature' };
const PLAN = { approach: 'Read the settings file; retry with backoff.', fileChanges: [{ path: 'src/config.ts', change: 'modify' }] };
const EXPORTED = JSON.stringify([{ ...entry({ id: 'rec-imported', title: 'Imported advice', description: 'From another repository.' }), type: 'recommendation' }]);
const KG = JSON.stringify({ entities: [{ id: 'k1', thought: 'Start', role: 'actor', tags: ['task'] }, { id: 'k2', thought: 'Next', role: 'actor', tags: ['task'], parents: ['k1'] }] });
const TURN = { feature_id: 'FEAT-001', task_id: 'TASK-001', turn_number: 1, player_decision: 'add the timeout', coach_decision: 'approve', progress_summary: 'done' };

/**
 * One call per tool, in an order where each finds what it needs (dag.get after dag.append, ...).
 * The input of a tool is what an agent would send.
 */
const CALLS: Array<[string, Record<string, unknown>]> = [
  ['store.init', {}],
  ['store.seed', {}],
  ['store.validate', {}],
  ['pack.list', {}],
  ['pack.add', { name: 'secrets', dryRun: true }],
  ['guard.test', {}],
  ['store.doctor', {}],
  ['store.status', {}],
  ['store.changes', {}],
  ['record.list', { kind: 'prohibitions' }],
  ['record.show', { id: 'pro-env' }],
  ['entry.add', { type: 'recommendation', entry: { title: 'Prefer small commits', description: 'One change per commit.' } }],
  ['entry.edit', { id: 'rec-prefer-small-commits', set: { priority: 'high' } }],
  ['entry.disable', { id: 'rec-prefer-small-commits' }],
  ['entry.enable', { id: 'rec-prefer-small-commits' }],
  ['entry.remove', { id: 'rec-prefer-small-commits' }],
  ['knowledge.query', { taskDescription: 'retry on failure' }],
  ['plan.check', { task: TASK, plan: PLAN }],
  ['prompt.agent', { task: TASK, plan: PLAN }],
  ['learning.capture', { capture: { taskId: 'T-9', outcome: 'failure', description: 'Retries hammered the API.', suggestedTitle: 'Back off on 429', suggestedDescription: 'Use exponential backoff with jitter when an API answers 429.' } }],
  ['learning.capture_review', { text: '- Keep the retry budget per request, not per client.\n', taskId: 'PR-7' }],
  ['learning.pending', {}],
  ['learning.approve', { id: 'learn-back-off-on-429' }],
  ['learning.reject', { id: 'learn-pending', reason: 'not general enough' }],
  ['knowledge.duplicates', {}],
  ['usage.record', { entryId: 'rec-retry', taskId: 'T-1', helpful: true }],
  ['knowledge.export', {}],
  ['knowledge.import', { text: EXPORTED }],
  ['knowledge.prune', { dryRun: true }],
  ['agent.prime', { budget: 500, role: 'player' }],
  ['extends.list', {}],
  ['extends.add', { url: '../org.git', name: 'org', ref: 'main' }],
  ['extends.remove', { name: 'org' }],
  ['extends.sync', {}],
  ['agent.export', { to: ['agents-md', 'claude'], check: true }],
  ['roles.show', { role: 'player' }],
  ['gates.show', { task_type: 'feature', complexity: 5 }],
  ['gates.list', {}],
  ['gates.check', { task_type: 'feature', complexity: 5, results: { arch_review_score: 90, coverage: 0.9, tests_passed: 10, tests_failed: 0 } }],
  ['mode.suggest', { task_type: 'feature', complexity: 5 }],
  ['turn.record', { turn: TURN }],
  ['turn.latest', { feature_id: 'FEAT-001' }],
  ['turn.list', { feature_id: 'FEAT-001' }],
  ['learning.capture_turn', { turnId: 'TURN-FEAT-001-TASK-001-T1' }],
  ['mode.list', {}],
  ['prompt.coach', { task_type: 'feature', complexity: 5, feature_id: 'FEAT-001', task_id: 'TASK-001', turn_number: 2 }],
  ['turn.features', {}],
  ['turn.complete', { feature_id: 'FEAT-001' }],
  ['turn.prune', { dryRun: true }],
  ['graph.add_entity', { name: 'api', type: 'service', description: 'The public API' }],
  ['graph.apply', { update: { entities: [{ name: 'db', type: 'data_store' }], relationships: [{ from: 'api', type: 'reads_from', to: 'db' }] } }],
  ['graph.relate', { from: 'db', type: 'depends_on', to: 'api' }],
  ['graph.unrelate', { from: 'db', type: 'depends_on', to: 'api' }],
  ['graph.show', { name: 'api', depth: 1, diagram: 'mermaid' }],
  ['graph.find', { type: 'service' }],
  ['graph.path', { from: 'api', to: 'db' }],
  ['graph.context', { around: ['api'], budget: 500 }],
  ['graph.export', {}],
  ['graph.import', { content: '{"type":"entity","name":"cache","entityType":"data_store","observations":["redis"]}\n', format: 'mcp-memory' }],
  ['graph.remove_entity', { name: 'cache' }],
  ['dag.append', { id: 'a1', projectContext: 'work/shop', thought: 'Plan the retry', tags: ['task'], branchLabel: 'retry' }],
  ['dag.critic', { target: 'a1', verdict: 'approved', verdictReason: 'fine' }],
  ['dag.get', { id: 'a1' }],
  ['dag.children', { id: 'a1' }],
  ['dag.parents', { id: 'a1' }],
  ['dag.heads', {}],
  ['dag.branches', {}],
  ['dag.resume', { branch: 'retry' }],
  ['dag.summarize', { branch: 'retry', text: 'The retry was planned and approved.' }],
  ['dag.export', {}],
  ['dag.migrate', { dir: 'old' }],
  ['dag.projects', {}],
  ['dag.switch', { project: 'shop' }],
  ['dag.remove', { id: 'a1', cascade: true }],
  ['guard.check', { staged: true }],
  ['guard.diff', { range: 'HEAD~1...HEAD' }],
];

describe('lore mcp, every tool', () => {
  it('has a call below for every operation', () => {
    assert.deepEqual(CALLS.map(([name]) => name).sort(), OPS.map((op) => op.name).sort());
  });

  it('answers each tool once on a real store, with output its schema allows', async (t) => {
    const root = gitRepo(t, {
      '.knowledge/config.yaml': 'version: 1\nproject: shop\n',
      ...entryFiles([
        entry({ id: 'pro-env', type: 'prohibition', priority: 'critical', title: 'Never commit .env files', description: 'Secrets stay out of git.', globs: ['**/.env'] }),
        entry({ id: 'rec-retry', title: 'Retry with backoff', description: 'Retry on failure with exponential backoff.', keywords: ['retry'] }),
        [entry({ id: 'learn-pending', title: 'Cache the index', description: 'Rebuilding it is slow.', capture: { taskId: 'T-1', projectId: 'shop', outcome: 'success', description: 'It was slow.' } }), 'pending'],
      ]),
      'README.md': 'shop\n',
    });
    writeFiles(root, { 'README.md': 'shop, second\n', 'old/kg.legacy.json': KG });
    gitSync(root, ['commit', '-qam', 'second']);
    writeFiles(root, { 'src/config.ts': 'export const retries = 3;\n' });
    gitSync(root, ['add', 'src/config.ts']);

    const { client } = await mcpClient(t, root);
    await client.listTools(); // the client keeps each tool's output schema and checks answers against it
    const failed: string[] = [];
    for (const [op, input] of CALLS) {
      const result = await client.callTool({ name: op.replace(/\./g, '_'), arguments: input }).catch((error: Error) => { throw new Error(`${op}: ${error.message}`); });
      if (result.isError === true || result.structuredContent === undefined) failed.push(`${op}: ${firstText(result)}`);
    }
    assert.deepEqual(failed, []);
    // The writes happened: a few of them, read from the files.
    const knowledge = join(root, '.knowledge');
    assert.deepEqual([
      existsSync(join(knowledge, 'knowledge', 'learnings', 'learn-back-off-on-429.yaml')),
      existsSync(join(knowledge, 'knowledge', 'recommendations', 'rec-imported.yaml')),
      existsSync(join(knowledge, 'turns', 'shop', 'FEAT-001.ndjson')),
      existsSync(join(knowledge, 'roles', 'player.yaml')),
    ], [true, true, true, true]);
  });
});

// Many MCP servers on one repository lose nothing: 4 `lore mcp` processes, each sent 100 writes at
// once through a real SDK client (graph entities, DAG nodes, turns, learnings), and every write is
// in the files afterwards, and seen by a fresh server. (The MCP reference memory server lost 388 of
// 400 entities this way with 2 processes on one file.)
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { firstText, mcpClient } from './helpers/mcp.js';
import { tempStore } from './helpers/temp.js';

const PROCESSES = 4;
const EACH = 25;

/** The ids of an NDJSON log's lines. */
function ids(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').filter((line) => line !== '').map((line) => (JSON.parse(line) as { id: string }).id);
}

describe('lore mcp, many processes on one store', () => {
  it('keeps every one of 4 × 100 concurrent writes', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\nproject: shop\n' });
    const clients = await Promise.all(Array.from({ length: PROCESSES }, async () => (await mcpClient(t, root)).client));
    const calls = clients.flatMap((client, p) => Array.from({ length: EACH }, (_, i) => [
      client.callTool({ name: 'graph_add_entity', arguments: { name: `svc-${p}-${i}`, type: 'service', description: `service ${i} of server ${p}` } }),
      client.callTool({ name: 'dag_append', arguments: { id: `n${p}x${i}`, projectContext: join(root, 'shop'), thought: `thought ${i} of server ${p}`, tags: ['task'] } }),
      client.callTool({ name: 'turn_record', arguments: { turn: { feature_id: 'FEAT-001', task_id: `TASK-${p}-${i}`, turn_number: 1, player_decision: 'write it', coach_decision: 'approve', progress_summary: 'done' } } }),
      client.callTool({ name: 'learning_capture', arguments: { capture: { taskId: `TASK-${p}-${i}`, outcome: 'success', description: 'it worked', suggestedTitle: `Learning ${i} of server ${p}`, suggestedDescription: `What server ${p} learned in task ${i}.` }, allowDuplicate: true } }),
    ]).flat());
    const results = await Promise.all(calls);
    assert.deepEqual(results.filter((r) => r.isError === true).map(firstText), []);

    const expect = (make: (p: number, i: number) => string): string[] => clients.flatMap((_, p) => Array.from({ length: EACH }, (_, i) => make(p, i))).sort();
    const knowledge = join(root, '.knowledge');
    const entities = readdirSync(join(knowledge, 'graph', 'entities')).map((file) => /^name: (.*)$/m.exec(readFileSync(join(knowledge, 'graph', 'entities', file), 'utf8'))![1]!);
    assert.deepEqual(entities.sort(), expect((p, i) => `svc-${p}-${i}`));
    assert.deepEqual(ids(join(knowledge, 'log', 'knowledge_graph.ndjson')).sort(), expect((p, i) => `n${p}x${i}`));
    assert.deepEqual(ids(join(knowledge, 'turns', 'shop', 'FEAT-001.ndjson')).sort(), expect((p, i) => `TURN-FEAT-001-TASK-${p}-${i}-T1`));
    assert.deepEqual(readdirSync(join(knowledge, 'knowledge', 'pending')).sort(), expect((p, i) => `learn-learning-${i}-of-server-${p}.yaml`));

    // A server started afterwards reads all of it back.
    const { client } = await mcpClient(t, root);
    const found = await client.callTool({ name: 'graph_find', arguments: { type: 'service', limit: 1000 } });
    assert.equal((found.structuredContent as { total: number }).total, PROCESSES * EACH);
    const pending = await client.callTool({ name: 'learning_pending', arguments: {} });
    assert.deepEqual((pending.structuredContent as { result: Array<{ id: string }> }).result.map((r) => r.id).sort(), expect((p, i) => `learn-learning-${i}-of-server-${p}`));
  });
});

// The graph operations as an agent calls them (through runOp, with their schemas checked): answers
// that could hold the whole graph are cut to a budget or a limit and say so, the loaded graph is
// kept in the workspace between calls, and every change is seen by the next call.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it, type TestContext } from 'node:test';
import type { LoreError } from '../src/errors.js';
import { storeBackend } from '../src/graph/backend.js';
import { readLoaded } from '../src/ops/graph/_graph.js';
import { runOp } from '../src/ops/run.js';
import { Workspace } from '../src/workspace/workspace.js';
import { lore } from './helpers/cli.js';
import { tempDir, tempStore, testEnv } from './helpers/temp.js';

interface Json {
  entities: Array<{ name: string }>;
  relationships: Array<{ from: string; to: string }>;
  truncated?: { budget: number; entities: { shown: number; total: number }; relationships: { shown: number; total: number } };
}

/** A chain E0 -next-> E1 -next-> ... of `count` entities, each with a sentence of description. */
function chain(count: number): { entities: unknown[]; relationships: unknown[] } {
  const entities = Array.from({ length: count }, (_, i) => ({ name: `E${i}`, type: 'service', description: `Service number ${i} of the chain, which handles one step of the flow.` }));
  const relationships = Array.from({ length: count - 1 }, (_, i) => ({ from: `E${i}`, to: `E${i + 1}`, type: 'next' }));
  return { entities, relationships };
}

/** Runs an operation in `ws`, checking its output against the output schema; notes are collected. */
function caller(ws: Workspace): { call: <T>(name: string, input: unknown) => Promise<T>; notes: string[] } {
  const notes: string[] = [];
  const ctx = { ws, note: (text: string) => void notes.push(text), progress: () => undefined };
  return { call: async <T>(name: string, input: unknown) => (await runOp(name, input, ctx, { checkOutput: true })) as T, notes };
}

function chainFile(t: TestContext, count: number): { dir: string; call: ReturnType<typeof caller>['call'] } {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'context.json'), JSON.stringify(chain(count)));
  return { dir, call: caller(new Workspace({ cwd: dir, env: testEnv() })).call };
}

describe('graph operations: answers that could hold the whole graph', () => {
  it('cuts the whole graph to the default budget of 4000 tokens, keeping a prefix, and says what it left out', async (t) => {
    const { call } = chainFile(t, 300);
    const shown = await call<Json>('graph.show', { memoryFile: 'context.json' });
    assert.ok(JSON.stringify(shown).length <= 4000 * 4);
    const n = shown.entities.length;
    assert.ok(n > 50 && n < 300, String(n));
    assert.deepEqual(shown.entities.map((e) => e.name), Array.from({ length: n }, (_, i) => `E${i}`));
    assert.deepEqual(shown.truncated, { budget: 4000, entities: { shown: n, total: 300 }, relationships: { shown: n - 1, total: 299 } });
    const whole = await call<Json>('graph.show', { memoryFile: 'context.json', budget: 0 });
    assert.deepEqual([whole.entities.length, whole.relationships.length, 'truncated' in whole], [300, 299, false]);
  });

  it('keeps the entities nearest to the named one, with the relationships among those kept', async (t) => {
    const { call } = chainFile(t, 300);
    const near = await call<Json>('graph.show', { memoryFile: 'context.json', name: 'E150', depth: 300, budget: 300 });
    assert.deepEqual(near.entities.map((e) => e.name).slice(0, 5), ['E150', 'E151', 'E149', 'E152', 'E148']);
    const kept = new Set(near.entities.map((e) => e.name));
    assert.ok(near.relationships.every((r) => kept.has(r.from) && kept.has(r.to)));
    assert.equal(near.truncated?.entities.total, 300);
    await assert.rejects(call('graph.show', { memoryFile: 'context.json', budget: 10 }), { code: 'USAGE', message: 'a budget of 10 tokens cannot hold even an empty answer (about 35 tokens)' });
  });

  it('lists at most 50 entities found unless told otherwise, and counts them all', async (t) => {
    const { call } = chainFile(t, 300);
    const found = await call<{ entities: unknown[]; total: number; truncated: boolean }>('graph.find', { memoryFile: 'context.json', type: 'service' });
    assert.deepEqual([found.entities.length, found.total, found.truncated], [50, 300, true]);
    const all = await call<{ entities: unknown[]; total: number; truncated: boolean }>('graph.find', { memoryFile: 'context.json', limit: 0 });
    assert.deepEqual([all.entities.length, all.total, all.truncated], [300, 300, false]);
    await assert.rejects(call('graph.find', { memoryFile: 'context.json', relation: 'next' }), { code: 'USAGE', message: 'relation narrows relatedTo: give relatedTo too' });
  });

  it('cuts the prompt text to the default budget, and returns it whole for a budget of 0', async (t) => {
    const { call } = chainFile(t, 300);
    const cut = await call<{ tokens: number; truncated: boolean; entities: { shown: number; total: number } }>('graph.context', { memoryFile: 'context.json' });
    assert.ok(cut.truncated && cut.tokens <= 4000 && cut.entities.total === 300 && cut.entities.shown < 300);
    const whole = await call<{ truncated: boolean; entities: { shown: number } }>('graph.context', { memoryFile: 'context.json', budget: 0 });
    assert.deepEqual([whole.truncated, whole.entities.shown], [false, 300]);
  });

  it("returns the store's graph within a budget, or writes all of it to a memory file resolved against the working directory", async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\n' });
    const { call } = caller(new Workspace({ cwd: root, env: testEnv() }));
    await call('graph.apply', { update: chain(40) });
    const returned = await call<Json>('graph.export', { budget: 200 });
    assert.equal(returned.truncated?.entities.total, 40);
    mkdirSync(join(root, 'out'));
    assert.deepEqual(await call('graph.export', { memoryFile: 'out/graph.json' }), { file: 'out/graph.json', status: 'created', entities: 40, relationships: 39 });
    assert.equal(JSON.parse(readFileSync(join(root, 'out/graph.json'), 'utf8')).entities.length, 40);
  });
});

describe('graph.apply', () => {
  it('takes the update as an object or as JSON text, never both, and refuses a bad object naming the field', async (t) => {
    const dir = tempDir(t);
    const { call } = caller(new Workspace({ cwd: dir, env: testEnv() }));
    const applied = await call<{ backend: unknown; added: { entities: string[] } }>('graph.apply', { update: { entities: [{ name: 'api', type: 'service' }] }, memoryFile: 'sub.json' });
    assert.deepEqual([applied.backend, applied.added.entities], [{ kind: 'memory-file', location: 'sub.json' }, ['api']]);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'sub.json'), 'utf8')).entities, [{ name: 'api', type: 'service', description: '', tags: [], properties: {} }]);
    for (const input of [{}, { update: {}, json: '{}' }]) {
      await assert.rejects(call('graph.apply', input), { code: 'USAGE', message: 'graph.apply needs the update: give update (an object) or json (its text), not both' });
    }
    await assert.rejects(call('graph.apply', { update: { entities: [{ name: 'x', type: '' }] } }), (error: LoreError) => {
      assert.equal(error.message, 'the input of graph.apply is invalid');
      assert.deepEqual(error.problems.map((p) => [p.pointer, p.message]), [['/update/entities/0/type', 'update.entities[0].type must not be empty']]);
      return true;
    });
    await assert.rejects(call('graph.apply', { json: '{\n  "entities": [{ "name": "queue" }]\n}', source: 'u.json' }), (error: LoreError) => {
      assert.deepEqual(error.problems.map((p) => [p.file, p.line, p.column]), [['u.json', 2, 16]]);
      return true;
    });
  });
});

describe('the graph in a workspace', () => {
  it('is loaded once for many reads, and again after a change by this workspace or another process', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\n' });
    const ws = new Workspace({ cwd: root, env: testEnv() });
    const { call } = caller(ws);
    await call('graph.add_entity', { name: 'api', type: 'service' });
    await sleep(60); // past the moment of the write, which a stamp cannot tell apart
    const backend = storeBackend(await ws.store());
    const first = await readLoaded(ws, backend);
    assert.equal(await readLoaded(ws, backend), first);
    assert.deepEqual((await call<Json>('graph.show', {})).entities.map((e) => e.name), ['api']);

    await call('graph.add_entity', { name: 'db', type: 'data_store' });
    assert.deepEqual((await call<Json>('graph.show', {})).entities.map((e) => e.name), ['api', 'db']);
    assert.notEqual(await readLoaded(ws, backend), first);

    const other = await lore(['graph', 'add-entity', '--name', 'queue', '--type', 'queue'], { cwd: root });
    assert.equal(other.code, 0, other.stderr);
    assert.deepEqual((await call<Json>('graph.show', {})).entities.map((e) => e.name), ['api', 'db', 'queue']);
  });
});

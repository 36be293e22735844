// The DAG's operations in a long-lived process: one workspace keeps one Dag, replayed once, and
// sees what other processes append or switch; overlapping calls in that process lose nothing.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type { DagEvent } from '../src/dag/events.js';
import type { AppendResult } from '../src/dag/dag.js';
import { listenToDag } from '../src/ops/dag/_dag.js';
import type { HeadsOutput } from '../src/ops/dag/heads.js';
import { runOp } from '../src/ops/run.js';
import type { DagNode } from '../src/types.js';
import { Workspace } from '../src/workspace/workspace.js';
import { lore } from './helpers/cli.js';
import { chain, DAG_LOG } from './helpers/dag.js';
import { tempStore, testEnv } from './helpers/temp.js';

const shop = { project: 'shop', projectContext: '/work/shop' };

/** A workspace on a store whose log holds a chain of `count` shop nodes, with its DAG events recorded. */
async function workspace(t: import('node:test').TestContext, count: number): Promise<{ root: string; call: (op: string, input: object) => Promise<unknown>; events: DagEvent[] }> {
  const lines = chain(count, 'n', shop).map((n) => `${JSON.stringify(n)}\n`).join('');
  const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\nproject: shop\n', ...(count === 0 ? {} : { [DAG_LOG]: lines }) });
  await sleep(60); // past the racy window of config.yaml's creation
  const ws = new Workspace({ cwd: root, env: testEnv() });
  const events: DagEvent[] = [];
  listenToDag(ws, (event) => events.push(event));
  const ctx = { ws, note: () => undefined, progress: () => undefined };
  return { root, events, call: (op, input) => runOp(op, input, ctx, { checkOutput: true }) };
}

const loads = (events: DagEvent[]): string[] => events.flatMap((e) => (e.event === 'state_recompute' ? [e.reason] : []));

describe('the dag operations in one workspace', () => {
  it('replay the log once, not per call, and not again after their own writes', async (t) => {
    const { call, events } = await workspace(t, 50);
    assert.deepEqual(((await call('dag.heads', {})) as HeadsOutput).heads.map((n) => n.id), ['n49']);
    assert.equal(((await call('dag.get', { id: 'n10' })) as DagNode).thought, 'thought n10');
    await call('dag.append', { projectContext: '/work/shop', thought: 'Go on', tags: ['task'], parents: ['n49'], id: 'n50' });
    await call('dag.critic', { target: 'n50', verdict: 'approved', id: 'c50' });
    assert.deepEqual(((await call('dag.heads', {})) as HeadsOutput).heads.map((n) => n.id), ['c50']);
    assert.deepEqual(loads(events), ['load']);
  });

  it('see the appends and the project switch of another process', async (t) => {
    const { root, call, events } = await workspace(t, 3);
    assert.deepEqual(((await call('dag.heads', {})) as HeadsOutput).heads.map((n) => n.id), ['n2']);
    const other = await lore(['dag', 'append', '--project-context', '/work/shop', '--thought', 'From elsewhere', '--tag', 'task', '--parent', 'n2', '--id', 'x1'], { cwd: root });
    assert.equal(other.code, 0, other.stderr);
    assert.deepEqual(((await call('dag.heads', {})) as HeadsOutput).heads.map((n) => n.id), ['x1']);
    assert.deepEqual(loads(events), ['load', 'log_changed']);
    assert.equal((await lore(['dag', 'switch', 'other'], { cwd: root })).code, 0);
    assert.deepEqual(await call('dag.heads', {}), { project: 'other', heads: [] });
    assert.deepEqual(loads(events), ['load', 'log_changed']);
  });

  it('lose nothing when calls overlap: every review is among the children, every read sees a whole state', async (t) => {
    const { root, call } = await workspace(t, 1);
    const calls: Array<Promise<unknown>> = [];
    for (let i = 0; i < 20; i++) {
      calls.push(call('dag.critic', { target: 'n0', verdict: 'approved', id: `c${i}` }));
      calls.push(call('dag.children', { id: 'n0' }));
    }
    await Promise.all(calls);
    const ids = Array.from({ length: 20 }, (_, i) => `c${i}`).sort();
    assert.deepEqual(((await call('dag.get', { id: 'n0' })) as DagNode).children.slice().sort(), ids);
    assert.deepEqual(((await call('dag.children', { id: 'n0' })) as DagNode[]).map((n) => n.id).sort(), ids);
    const fresh = await lore(['dag', 'get', 'n0', '--json'], { cwd: root });
    assert.deepEqual((JSON.parse(fresh.stdout) as DagNode).children.slice().sort(), ids);
  });

  it('resolve a relative projectContext against the workspace directory', async (t) => {
    const { root, call } = await workspace(t, 0);
    const { node } = (await call('dag.append', { projectContext: 'app', thought: 'Here', tags: ['task'] })) as AppendResult;
    assert.deepEqual([node.project, node.projectContext], ['app', `${root}/app`]);
  });
});

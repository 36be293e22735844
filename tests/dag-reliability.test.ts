import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { Dag } from '../src/dag/dag.js';
import type { DagEvent } from '../src/dag/events.js';
import { lore } from './helpers/cli.js';
import { chain, DAG_LOG, dagStore, node } from './helpers/dag.js';
import { gitRepo, gitSync } from './helpers/temp.js';

const WORKER = fileURLToPath(new URL('./fixtures/dag-worker.mjs', import.meta.url));

/** Runs the worker; resolves with its acknowledged [project, id] pairs. `killAfter` SIGKILLs it after that many acks. */
function runWorker(args: string[], killAfter?: number): Promise<Array<[string, string]>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    const acked: Array<[string, string]> = [];
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const parts = (buffer + chunk).split('\n');
      buffer = parts.pop()!;
      for (const part of parts) if (part.startsWith('ack ')) acked.push(part.slice(4).split(' ') as [string, string]);
      if (killAfter !== undefined && acked.length >= killAfter) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (killAfter === undefined ? code === 0 : signal === 'SIGKILL') resolve(acked);
      else reject(new Error(`worker ${args.join(' ')} ended with code ${code}, signal ${signal}`));
    });
  });
}

describe('thought log reliability', () => {
  it('keeps 100 saves across 5 projects from 10 concurrent processes: each in its project only, none torn', async (t) => {
    const root = dagStore(t, [node('shared', 0, { project: 'proj0', projectContext: '/work/proj0' })]);
    const acked = (await Promise.all(Array.from({ length: 10 }, (_, w) => runWorker(['save', root, String(w), '10', '5'])))).flat();
    assert.equal(acked.length, 110);
    const dag = await Dag.open({ root });
    assert.deepEqual(dag.problems, []);
    assert.equal(readFileSync(join(root, DAG_LOG), 'utf8').split('\n').filter(Boolean).length, 1 + 100 + 10 + 10);
    for (const project of ['proj0', 'proj1', 'proj2', 'proj3', 'proj4']) {
      const expected = acked.filter(([p]) => p === project).map(([, id]) => id);
      if (project === 'proj0') expected.push('shared');
      assert.deepEqual([...dag.stateOf({ project }).nodes.keys()].sort(), expected.sort(), project);
    }
    assert.deepEqual(dag.projects().map((p) => [p.name, p.nodes]), [['proj0', 31], ['proj1', 20], ['proj2', 20], ['proj3', 20], ['proj4', 20]]);
    // Ten read-modify-appends of one node's children, from ten processes: none lost.
    assert.deepEqual([...dag.get('shared', { project: 'proj0' }).children].sort(), Array.from({ length: 10 }, (_, w) => `c-w${w}`).sort());
  });

  it('loads every acknowledged node after a SIGKILL during appends, and appends again', async (t) => {
    const root = dagStore(t);
    const acked = await runWorker(['forever', root, '0'], 60);
    const dag = await Dag.open({ root });
    for (const [project, id] of acked) assert.equal(dag.get(id, { project }).id, id);
    assert.ok(dag.problems.length <= 1, JSON.stringify(dag.problems));
    const last = acked.filter(([, id]) => Number(id.split('-')[1]) % 2 === 0).pop()![1];
    const { node: critic } = await dag.critic({ target: last, project: 'proj0', verdict: 'approved' });
    const after = await Dag.open({ root });
    assert.ok(after.get(last, { project: 'proj0' }).children.includes(critic.id));
    assert.equal(after.stateOf({ project: 'proj0' }).nodes.size, dag.stateOf({ project: 'proj0' }).nodes.size);
  });

  it('replays a union merge of two branches that both appended nodes', async (t) => {
    const repo = gitRepo(t);
    assert.equal((await lore(['init'], { cwd: repo })).code, 0);
    const append = async (id: string, parents: string[]): Promise<void> => {
      await (await Dag.open({ root: repo })).append({ id, projectContext: '/work/shop', thought: `thought ${id}`, tags: ['task'], parents });
    };
    const commit = (message: string): void => {
      gitSync(repo, ['add', '-A']);
      gitSync(repo, ['commit', '-q', '-m', message]);
    };
    await append('base', []);
    commit('base');
    gitSync(repo, ['checkout', '-q', '-b', 'feature-a']);
    await append('a1', ['base']);
    await (await Dag.open({ root: repo })).critic({ target: 'base', verdict: 'needs_revision', verdictReason: 'split it', id: 'ca' });
    commit('a');
    gitSync(repo, ['checkout', '-q', '-b', 'feature-b', 'main']);
    await append('b1', ['base']);
    await append('b2', ['b1']);
    await (await Dag.open({ root: repo })).critic({ target: 'base', verdict: 'approved', id: 'cb' });
    commit('b');
    gitSync(repo, ['checkout', '-q', 'feature-a']);
    gitSync(repo, ['merge', '-q', '--no-edit', 'feature-b']);
    assert.equal(gitSync(repo, ['status', '--porcelain']), '');
    const dag = await Dag.open({ root: repo, defaultProject: 'shop' });
    assert.deepEqual(dag.problems, []);
    assert.deepEqual([...dag.stateOf().nodes.keys()].sort(), ['a1', 'b1', 'b2', 'base', 'ca', 'cb']);
    // Each branch rewrote base with its own critic; the latest line names one. Both views derive
    // children from parents: get lists both critics, as children does.
    assert.deepEqual(dag.children('base').map((n) => n.id).sort(), ['a1', 'b1', 'ca', 'cb']);
    assert.deepEqual(dag.get('base').children, dag.children('base').map((n) => n.id));
    const got = await lore(['dag', 'get', 'base', '--project', 'shop', '--json'], { cwd: repo });
    assert.deepEqual((JSON.parse(got.stdout) as { children: string[] }).children.sort(), ['a1', 'b1', 'ca', 'cb']);
    assert.deepEqual(dag.heads().map((n) => n.id).sort(), ['a1', 'b2', 'ca', 'cb']);
    assert.equal((await lore(['validate'], { cwd: repo })).code, 0);
  });

  it('streams 10,000 nodes into indexes that answer children, heads and resume without reading the log again', async (t) => {
    const lines = Array.from({ length: 100 }, (_, b) => chain(100, `b${b}-`)).flat();
    assert.equal(lines.length, 10_000);
    const root = dagStore(t, lines);
    const events: DagEvent[] = [];
    const dag = await Dag.open({ root, defaultProject: 'demo', onEvent: (e) => events.push(e) });
    assert.deepEqual(events.map((e) => [e.event, 'lines' in e ? e.lines : null, 'nodes' in e ? e.nodes : null]), [['state_recompute', 10_000, 10_000]]);
    unlinkSync(join(root, DAG_LOG));
    assert.equal(dag.heads().length, 100);
    assert.deepEqual(dag.children('b7-41').map((n) => n.id), ['b7-42']);
    const resumed = dag.resume('b99-99');
    assert.deepEqual([resumed.nodes.length, resumed.nodes[0]!.id, resumed.stoppedAt], [20, 'b99-80', 'b99-79']);
    assert.deepEqual(dag.branches()[0], { branchId: 'b0-99', head: dag.get('b0-99'), depth: 99 });
  });
});

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Dag } from '../src/dag/dag.js';
import type { DagEvent } from '../src/dag/events.js';
import { projectNameFromContext } from '../src/dag/project-name.js';
import type { LoreError } from '../src/errors.js';
import { at, chain, DAG_LOG, dagStore, logLines, node } from './helpers/dag.js';

const ids = (nodes: Array<{ id: string }>): string[] => nodes.map((n) => n.id);
const code = (expected: string) => (error: LoreError): boolean => {
  assert.equal(error.code, expected, error.message);
  return true;
};

describe('project names from projectContext', () => {
  const cases: Array<[string, string]> = [
    ['/home/me/shop', 'shop'],
    ['/home/me/shop/', 'shop'],
    ['/home/me/my.app', 'my_app'],
    ['C:\\Users\\me\\Web App', 'Web_App'],
    ['/home/me/x/../shop-2', 'shop-2'],
    ['relative/dir_name', 'dir_name'],
    [`/p/${'a'.repeat(60)}`, 'a'.repeat(50)],
  ];
  for (const [context, name] of cases) {
    it(`names ${JSON.stringify(context)} "${name}"`, () => assert.equal(projectNameFromContext(context), name));
  }
  for (const context of ['', '   ', '/', '.', '..', '/home/日本']) {
    it(`refuses the unusable context ${JSON.stringify(context)}`, () => assert.throws(() => projectNameFromContext(context), code('USAGE')));
  }
});

describe('replaying the thought log', () => {
  it('shows the latest version of a node, even when a union merge put it earlier in the file', async (t) => {
    const root = dagStore(t, [
      node('b', 2, { children: ['c'], updatedAt: at(9) }),
      node('a', 1),
      node('b', 2),
      node('a', 1, { children: ['c'], updatedAt: at(5) }),
      node('c', 3, { role: 'critic', verdict: 'approved', target: 'a', parents: ['a'], tags: [] }),
    ]);
    const dag = await Dag.open({ root, defaultProject: 'demo' });
    assert.deepEqual(dag.get('a').children, ['c']);
    assert.equal(dag.get('a').updatedAt, at(5));
    // b's latest line names c, which does not name b as a parent: children come from parents.
    assert.equal(dag.get('b').updatedAt, at(9));
    assert.deepEqual(dag.get('b').children, []);
    assert.deepEqual(dag.problems, []);
  });

  it('keeps projects apart: one id in two projects is two nodes', async (t) => {
    const root = dagStore(t, [node('x', 1, { thought: 'in demo' }), node('x', 2, { project: 'other', projectContext: '/work/other', thought: 'in other' })]);
    const dag = await Dag.open({ root, defaultProject: 'demo' });
    assert.equal(dag.get('x').thought, 'in demo');
    assert.equal(dag.get('x', { project: 'other' }).thought, 'in other');
    assert.deepEqual(dag.projects().map((p) => [p.name, p.nodes, p.current]), [['demo', 1, true], ['other', 1, false]]);
  });

  it('reports a torn or invalid line with its number and skips it', async (t) => {
    const root = dagStore(t, [node('a', 1), '{"id":"b","role":"boss","project":"demo"}\n', node('c', 2), '{"id":"d","proj']);
    const dag = await Dag.open({ root, defaultProject: 'demo' });
    assert.deepEqual(ids(dag.heads()), ['a', 'c']);
    assert.deepEqual(dag.problems.map((p) => [p.file, p.line]), [[DAG_LOG, 2], [DAG_LOG, 4]]);
    assert.match(dag.problems[0]!.message, /^line 2 is not a valid thought-log line \(.*role must be one of actor, critic, summary.*\); skipped$/);
    assert.equal(dag.problems[1]!.message, 'line 4 is incomplete (a write was cut off) and was skipped');
  });

  it('emits state_recompute at load and node_append for every node line written', async (t) => {
    const events: DagEvent[] = [];
    const dag = await Dag.open({ root: dagStore(t, [node('a', 1)]), onEvent: (e) => events.push(e) });
    const { node: critic } = await dag.critic({ target: 'a', project: 'demo', verdict: 'approved' });
    const { ms, ...recompute } = events[0] as Extract<DagEvent, { event: 'state_recompute' }>;
    assert.ok(ms >= 0);
    assert.deepEqual(recompute, { event: 'state_recompute', level: 'info', reason: 'load', lines: 1, skipped: 0, projects: 1, nodes: 1, artifacts: 0, perProject: { demo: 1 } });
    assert.deepEqual(events.slice(1), [
      { event: 'node_append', level: 'info', id: critic.id, project: 'demo', role: 'critic', update: false },
      { event: 'node_append', level: 'info', id: 'a', project: 'demo', role: 'actor', update: true },
    ]);
  });
});

describe('DAG queries', () => {
  it('gives as children the nodes whose parents include the id, not what a node lists as children', async (t) => {
    const root = dagStore(t, [node('a', 1, { children: ['x'] }), node('x', 2), node('b', 3, { parents: ['a'] }), node('c', 4, { parents: ['z', 'a'] }), node('z', 0)]);
    const dag = await Dag.open({ root, defaultProject: 'demo' });
    assert.deepEqual(ids(dag.children('a')), ['b', 'c']);
    assert.deepEqual(ids(dag.children('x')), []);
    assert.deepEqual(ids(dag.parents('c')), ['z', 'a']);
    assert.throws(() => dag.children('nope'), code('NOT_FOUND'));
  });

  it('gives as heads the nodes no node names as a parent, never summaries', async (t) => {
    const root = dagStore(t, [
      node('a', 1), node('b', 2, { parents: ['a'] }), node('c', 3, { parents: ['a'] }), node('d', 4, { parents: ['c', 'b'] }),
      node('e', 5), node('s', 6, { role: 'summary', tags: ['summary'], summarizedSegment: ['a', 'b'] }),
    ]);
    const dag = await Dag.open({ root, defaultProject: 'demo' });
    assert.deepEqual(ids(dag.heads()), ['d', 'e']);
    const { node: critic } = await dag.critic({ target: 'e', verdict: 'reject', verdictReason: 'out of scope' });
    assert.deepEqual(ids(dag.heads()), ['d', critic.id]);
    await dag.remove(critic.id);
    assert.deepEqual(ids(dag.heads()), ['d', 'e']);
  });

  it('lists branches with the label of the nearest labelled node and the first-parent depth', async (t) => {
    const root = dagStore(t, [node('a', 1, { branchLabel: 'main' }), node('b', 2, { parents: ['a'] }), node('c', 3, { parents: ['a'], branchLabel: 'alt' }), node('d', 4, { parents: ['c'] }), node('e', 5)]);
    const dag = await Dag.open({ root, defaultProject: 'demo' });
    assert.deepEqual(dag.branches().map((b) => [b.branchId, b.label ?? null, b.depth]), [['b', 'main', 1], ['d', 'alt', 2], ['e', null, 0]]);
  });

  it('resumes with the window and prepends, by time, the summaries covering where the walk stopped', async (t) => {
    const summary = (id: string, second: number, segment: string[]) => node(id, second, { role: 'summary', tags: ['summary'], summarizedSegment: segment });
    const root = dagStore(t, [
      ...chain(30),
      summary('s-late', 50, ['n8', 'n9']),
      summary('s-early', 40, ['n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8', 'n9']),
      summary('s-other', 45, ['n10', 'n11']),
    ]);
    const dag = await Dag.open({ root, defaultProject: 'demo' });
    const result = dag.resume('n29');
    assert.deepEqual(ids(result.nodes), ['s-early', 's-late', ...Array.from({ length: 20 }, (_, i) => `n${i + 10}`)]);
    assert.equal(result.stoppedAt, 'n9');
    assert.equal(result.text.split('\n')[0], 'thought s-early');
    const short = dag.resume('n29', { window: 5 });
    assert.deepEqual([ids(short.nodes), short.stoppedAt], [['n25', 'n26', 'n27', 'n28', 'n29'], 'n24']);
    const whole = dag.resume('n5');
    assert.deepEqual([whole.nodes.length, whole.stoppedAt], [6, null]);
    assert.throws(() => dag.resume('nowhere'), code('BRANCH_NOT_FOUND'));
  });

  it('resumes a branch by label from the newest head of its line', async (t) => {
    const root = dagStore(t, [node('a', 1), node('b', 2, { parents: ['a'], branchLabel: 'alt' }), node('c', 3, { parents: ['b'] }), node('d', 4, { parents: ['b'] }), node('e', 5, { parents: ['a'] })]);
    const dag = await Dag.open({ root, defaultProject: 'demo' });
    assert.deepEqual(ids(dag.resume('alt').nodes), ['a', 'b', 'd']);
  });

  it('exports the plan view, optionally of one tag', async (t) => {
    const root = dagStore(t, [node('a', 1, { tags: ['design'], artifacts: [{ id: 'f', project: 'demo', name: 'a.ts', path: 'src/a.ts' }] }), node('b', 2, { parents: ['a'], tags: ['risk'], branchLabel: 'r' })]);
    const dag = await Dag.open({ root, defaultProject: 'demo' });
    assert.deepEqual(dag.exportPlan(), [
      { id: 'a', thought: 'thought a', tags: ['design'], parents: [], children: ['b'], artifacts: [{ name: 'a.ts', path: 'src/a.ts' }] },
      { id: 'b', thought: 'thought b', tags: ['risk'], branchLabel: 'r', parents: ['a'], children: [], artifacts: [] },
    ]);
    assert.deepEqual(ids(dag.exportPlan({ tag: 'risk' })), ['b']);
  });
});

describe('writing the thought log', () => {
  it('records a critic review as the critic node plus an updated target line, and the update survives a reload', async (t) => {
    const root = dagStore(t, [node('a', 1)]);
    const dag = await Dag.open({ root, defaultProject: 'demo' });
    const { node: critic, target } = await dag.critic({ target: 'a', verdict: 'needs_revision', verdictReason: 'no tests' });
    assert.deepEqual([critic.role, critic.target, critic.parents, critic.thought, critic.verdictReason], ['critic', 'a', ['a'], 'no tests', 'no tests']);
    assert.deepEqual(target!.children, [critic.id]);
    const lines = logLines(root);
    assert.deepEqual(lines.map((l) => [l.id, l.children]), [['a', []], [critic.id, []], ['a', [critic.id]]]);
    assert.deepEqual((await Dag.open({ root, defaultProject: 'demo' })).get('a').children, [critic.id]);
  });

  it('reviews a node in its own project, whatever its projectContext gives, and leaves the current project', async (t) => {
    const root = dagStore(t, [node('m', 1, { project: 'legacy', projectContext: '/home/me/shop' })]);
    const dag = await Dag.open({ root });
    const { node: critic } = await dag.critic({ target: 'm', project: 'legacy', verdict: 'approved' });
    assert.equal(critic.project, 'legacy');
    assert.deepEqual(dag.get('m', { project: 'legacy' }).children, [critic.id]);
    assert.equal(dag.project(), 'default');
  });

  it('sets project and createdAt on append, makes the project current, and writes artifact lines', async (t) => {
    const root = dagStore(t);
    const dag = await Dag.open({ root });
    const { node: a } = await dag.append({ projectContext: '/home/me/shop', thought: 'Plan', tags: ['design'], artifacts: ['src/cart.ts'] });
    assert.equal(a.project, 'shop');
    assert.ok(Math.abs(Date.parse(a.createdAt) - Date.now()) < 60_000);
    assert.match(a.id, /^[0-9a-f]{12}$/);
    assert.equal(dag.project(), 'shop');
    assert.equal((await Dag.open({ root })).project(), 'shop');
    assert.deepEqual(logLines(root).map((l) => [l.id, l.role ?? null, l.path ?? null]), [[a.id, 'actor', null], [a.artifacts![0]!.id, null, 'src/cart.ts']]);
  });

  it('refuses bad input and writes nothing', async (t) => {
    const root = dagStore(t);
    const dag = await Dag.open({ root });
    const context = '/work/demo';
    await assert.rejects(dag.append({ projectContext: '', thought: 'x', tags: ['t'] }), code('USAGE'));
    await assert.rejects(dag.append({ projectContext: context, thought: 'x', tags: [] }), code('USAGE'));
    await assert.rejects(dag.append({ projectContext: context, thought: 'x', tags: ['t'], role: 'boss' as never }), code('USAGE'));
    await assert.rejects(dag.append({ projectContext: context, thought: 'x', tags: ['t'], parents: ['ghost'] }), code('NOT_FOUND'));
    await assert.rejects(dag.append({ projectContext: context, thought: 'x', tags: ['t'], id: 'bad id' }), code('USAGE'));
    assert.equal(existsSync(join(root, DAG_LOG)), false);
    await dag.append({ projectContext: context, thought: 'x', tags: ['t'], id: 'same' });
    await assert.rejects(dag.append({ projectContext: context, thought: 'y', tags: ['t'], id: 'same' }), code('CONFLICT'));
    await assert.rejects(dag.critic({ target: 'same', verdict: 'maybe' as never }), code('USAGE'));
    await assert.rejects(dag.critic({ target: 'ghost', verdict: 'approved' }), code('NOT_FOUND'));
    assert.equal(logLines(root).length, 1);
  });

  it('warns when a second directory gives an existing project name, and lists the collision', async (t) => {
    const dag = await Dag.open({ root: dagStore(t, [node('a', 1, { projectContext: 'demo' })]) });
    const first = await dag.append({ projectContext: '/home/me/demo', thought: 'x', tags: ['t'] });
    assert.deepEqual(first.warnings, []);
    const second = await dag.append({ projectContext: '/srv/other/demo/', thought: 'y', tags: ['t'] });
    assert.deepEqual(second.warnings, ['project name collision: "/home/me/demo" and "/srv/other/demo" both give the project name "demo"; their thoughts share one project']);
    assert.deepEqual(dag.projects().map((p) => [p.name, p.contexts, p.collision]), [['demo', ['/home/me/demo', '/srv/other/demo', 'demo'], true]]);
  });

  it('deletes with tombstones, refusing a node others depend on unless cascading', async (t) => {
    const root = dagStore(t, [node('a', 1), node('b', 2, { parents: ['a'] }), node('c', 3, { parents: ['b'] }), node('s', 4, { role: 'summary', tags: ['summary'], summarizedSegment: ['b', 'c'] })]);
    const dag = await Dag.open({ root, defaultProject: 'demo' });
    const { node: critic } = await dag.critic({ target: 'a', verdict: 'approved' });
    await assert.rejects(dag.remove('b'), (e: LoreError) => code('CONFLICT')(e) && /has 1 dependent node\(s\): c$/.test(e.message));
    const result = await dag.remove('a', { cascade: true });
    assert.deepEqual(result, { deleted: ['a', 'b', critic.id, 'c'], updated: [], affectedSummaries: ['s'] });
    assert.deepEqual(ids(dag.heads()), []);
    const tombstones = logLines(root).filter((l) => l.deleted === true).map((l) => l.id);
    assert.deepEqual(tombstones, ['a', 'b', critic.id, 'c']);
    assert.deepEqual((await Dag.open({ root, defaultProject: 'demo' })).projects().map((p) => p.nodes), [1]);
  });

  it('stamps every new version after the latest line of its id, even lines dated in the future', async (t) => {
    const future = '2099-01-01T00:00:00.000Z';
    const root = dagStore(t, [node('a', 1, { createdAt: future }), node('gone', 2), { id: 'gone', project: 'demo', deleted: true, createdAt: future }]);
    const dag = await Dag.open({ root, defaultProject: 'demo' });
    // A critic's update of a future-dated node, and a node re-created over a future-dated tombstone.
    const { target } = await dag.critic({ target: 'a', verdict: 'approved', id: 'c1' });
    const { node: again } = await dag.append({ id: 'gone', projectContext: '/work/demo', thought: 'back', tags: ['task'] });
    assert.deepEqual([target?.updatedAt, again.createdAt], ['2099-01-01T00:00:00.001Z', '2099-01-01T00:00:00.001Z']);
    const reloaded = await Dag.open({ root, defaultProject: 'demo' });
    assert.deepEqual([reloaded.get('a').children, reloaded.get('gone').thought], [['c1'], 'back']);
    // Deleted again: the tombstone goes after the re-created node.
    await reloaded.remove('gone');
    assert.equal(logLines(root).pop()!.createdAt, '2099-01-01T00:00:00.002Z');
    await assert.rejects(async () => (await Dag.open({ root, defaultProject: 'demo' })).get('gone'), code('NOT_FOUND'));
  });

  it('drops a deleted critic from its target\'s recorded children', async (t) => {
    const root = dagStore(t, [node('a', 1)]);
    const dag = await Dag.open({ root, defaultProject: 'demo' });
    const { node: critic } = await dag.critic({ target: 'a', verdict: 'approved' });
    assert.deepEqual(await dag.remove(critic.id), { deleted: [critic.id], updated: ['a'], affectedSummaries: [] });
    assert.deepEqual(dag.get('a').children, []);
  });
});

describe('summaries', () => {
  it('covers the nodes after the last summarised one, then refuses with the spec codes', async (t) => {
    const root = dagStore(t, [...chain(4), node('lone', 9, { branchLabel: 'solo' })]);
    const dag = await Dag.open({ root, defaultProject: 'demo' });
    const first = await dag.summarize({ branch: 'n2', text: 'first three' });
    assert.deepEqual([first.role, first.summarizedSegment, first.parents, first.thought], ['summary', ['n0', 'n1', 'n2'], [], 'first three']);
    await assert.rejects(dag.summarize({ branch: 'n2', text: 'again' }), code('ALREADY_SUMMARIZED'));
    await assert.rejects(dag.summarize({ branch: 'n3', text: 'one more' }), code('INSUFFICIENT_NODES'));
    await assert.rejects(dag.summarize({ branch: 'solo', text: 'alone' }), code('INSUFFICIENT_NODES'));
    await assert.rejects(dag.summarize({ branch: 'ghost', text: 'x' }), code('BRANCH_NOT_FOUND'));
    await dag.append({ projectContext: '/work/demo', thought: 'n4', tags: ['t'], parents: ['n3'], id: 'n4' });
    assert.deepEqual((await dag.summarize({ branch: 'n4', text: 'last two' })).summarizedSegment, ['n3', 'n4']);
    assert.deepEqual(logLines(root).filter((l) => l.role === 'summary').length, 2);
  });
});

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { DagNode } from '../src/types.js';
import { inProcess } from './helpers/cli.js';
import { DAG_LOG, dagStore, logLines, node } from './helpers/dag.js';

const { lore, loreJson } = inProcess;

interface JsonError { error: { code: string; message: string; hint?: string } }

describe('lore dag: an actor and a critic', () => {
  it('runs a session from the CLI: append, critic, get, children, parents, heads, branches, resume, export, projects', async (t) => {
    const cwd = dagStore(t);
    const run = async (...args: string[]): Promise<string> => {
      const result = await lore(['dag', ...args], { cwd });
      assert.equal(result.code, 0, `lore dag ${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stderr, '');
      return result.stdout;
    };
    assert.equal(await run('append', '--project-context', '/work/shop', '--thought', 'Split checkout into cart and payment', '--tag', 'design', '--branch-label', 'checkout', '--id', 'a1'), 'appended actor a1 to project shop\n');
    assert.equal(await run('critic', '--target', 'a1', '--verdict', 'needs_revision', '--reason', 'payment retries are not planned', '--id', 'c1'), 'critic c1 on a1: needs_revision (payment retries are not planned)\n');
    assert.equal(await run('append', '--project-context', '/work/shop', '--thought', 'Retry payments 3 times', '--tag', 'task', '--parent', 'c1', '--artifact', 'src/pay.ts', '--id', 'a2'), 'appended actor a2 to project shop\n');
    assert.equal(await run('critic', '--target', 'a2', '--verdict', 'approved', '--id', 'c2'), 'critic c2 on a2: approved\n');

    const a1 = JSON.parse(await run('get', 'a1', '--json')) as DagNode;
    assert.deepEqual([a1.project, a1.children, typeof a1.updatedAt], ['shop', ['c1'], 'string']);
    assert.equal(await run('children', 'a1'), 'c1  critic needs_revision: payment retries are not planned\n');
    assert.equal(await run('parents', 'a2'), 'c1  critic needs_revision: payment retries are not planned\n');
    assert.equal(await run('parents', 'a1'), 'a1 has no parent: it starts a branch\n');
    assert.deepEqual((JSON.parse(await run('parents', 'c2', '--json')) as DagNode[]).map((n) => n.id), ['a2']);
    assert.equal(await run('heads'), 'c2  critic approved: approved\n');
    assert.equal(await run('branches'), 'c2  checkout  depth 3  critic approved: approved\n');
    assert.equal(await run('resume', 'checkout', '--window', '2'), [
      '# resume c2: 2 nodes, window 2, stopped before c1',
      'a2  actor: Retry payments 3 times [task]',
      'c2  critic approved: approved',
      '',
    ].join('\n'));
    assert.deepEqual(JSON.parse(await run('export', '--tag', 'task', '--json')), {
      project: 'shop', total: 1, truncated: false,
      nodes: [{ id: 'a2', thought: 'Retry payments 3 times', tags: ['task'], parents: ['c1'], children: ['c2'], artifacts: [{ name: 'pay.ts', path: 'src/pay.ts' }] }],
    });
    const cut = await lore(['dag', 'export', '--limit', '2'], { cwd });
    assert.deepEqual([cut.code, cut.stdout.split('\n').length, cut.stderr], [0, 3, 'showing the first 2 of 4 nodes; --limit N shows more\n']);
    assert.equal(await run('projects'), '*  shop  4 nodes  /work/shop\n');

    assert.equal(await run('switch', 'other'), 'current project: other (no nodes yet)\n');
    assert.equal(readFileSync(join(cwd, '.knowledge/.cache/dag-current-project.json'), 'utf8'), '{"project":"other"}\n');
    assert.equal(await run('heads'), 'no nodes in project other\n');
    assert.equal(await run('heads', '--project', 'shop'), 'c2  critic approved: approved\n');

    const summary = JSON.parse(await run('summarize', '--project', 'shop', '--branch', 'checkout', '--text', 'Checkout split; payments retry', '--json')) as DagNode;
    assert.deepEqual(summary.summarizedSegment, ['a1', 'c1', 'a2', 'c2']);
    const rm = await lore(['dag', 'rm', 'c2', '--project', 'shop'], { cwd });
    assert.deepEqual([rm.code, rm.stdout, rm.stderr], [0, 'deleted 1 node: c2\n', `warning: summaries covering deleted nodes were kept: ${summary.id}\n`]);
    const refused = await lore(['dag', 'rm', 'a1', '--project', 'shop'], { cwd });
    assert.deepEqual([refused.code, refused.stderr], [2, 'error: node a1 of project shop has 1 dependent node(s): c1\nhint: --cascade deletes a1 and everything that follows from it\n']);
    assert.deepEqual((await lore(['validate'], { cwd })).code, 0);
  });

  it('gives each bad input a clear error and exit 2, and writes nothing', async (t) => {
    const cwd = dagStore(t, [node('a', 1)]);
    const before = readFileSync(join(cwd, DAG_LOG), 'utf8');
    const fail = async (args: string[], expected: string): Promise<void> => {
      const result = await lore(['dag', ...args], { cwd });
      assert.deepEqual({ code: result.code, stdout: result.stdout, stderr: result.stderr }, { code: 2, stdout: '', stderr: expected }, args.join(' '));
    };
    await fail(['get', 'nope', '--project', 'demo'], 'error: no node "nope" in project demo\nhint: lore dag heads --project demo lists the latest nodes; --project picks another project\n');
    await fail(['append', '--project-context', '', '--thought', 'x', '--tag', 't'], 'error: projectContext is empty: every thought needs the directory it is about\nhint: pass --project-context PATH (the full path of the project directory)\n');
    await fail(['append', '--project-context', '/work/demo', '--thought', 'x', '--tag', 't', '--role', 'boss'], 'error: --role must be one of actor, critic (found "boss")\n');
    await fail(['append', '--project-context', '/work/demo', '--thought', 'x'], 'error: an actor thought needs at least one tag\nhint: add --tag requirement|task|risk|design|...\n');
    await fail(['critic', '--target', 'a', '--verdict', 'maybe', '--project', 'demo'], 'error: --verdict must be one of approved, needs_revision, reject (found "maybe")\n');
    await fail(['heads', '--log-level', 'loud'], 'error: --log-level must be one of silent, error, warn, info, debug (found "loud")\n');
    await fail(['switch', 'no/such'], 'error: project name "no/such" is not allowed: use 1 to 50 letters, digits, \'_\' or \'-\'\n');
    const codes: string[] = [];
    for (const branch of ['ghost', 'a']) {
      const { code, json } = await loreJson<JsonError>(['dag', 'summarize', '--branch', branch, '--text', 's', '--project', 'demo'], { cwd });
      assert.equal(code, 2);
      codes.push(json.error.code);
    }
    assert.deepEqual(codes, ['BRANCH_NOT_FOUND', 'INSUFFICIENT_NODES']);
    assert.equal(readFileSync(join(cwd, DAG_LOG), 'utf8'), before);
    assert.equal(existsSync(join(cwd, '.knowledge/.cache')), false);
  });

  it('writes node_append and state_recompute as JSON lines on stderr or to --log-file', async (t) => {
    const cwd = dagStore(t);
    const result = await lore(['dag', 'append', '--project-context', '/work/shop', '--thought', 'x', '--tag', 't', '--id', 'n1', '--log-level', 'info'], { cwd });
    assert.equal(result.code, 0);
    const events = result.stderr.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(events.map((e) => e.event), ['state_recompute', 'node_append']);
    assert.deepEqual([events[0]!.nodes, events[0]!.lines, typeof events[0]!.ms, typeof events[0]!.time], [0, 0, 'number', 'string']);
    assert.deepEqual([events[1]!.id, events[1]!.project, events[1]!.role], ['n1', 'shop', 'actor']);
    const quiet = await lore(['dag', 'heads', '--log-level', 'info', '--log-file', 'events.ndjson'], { cwd });
    assert.deepEqual([quiet.code, quiet.stderr], [0, '']);
    const logged = readFileSync(join(cwd, 'events.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(logged.map((e) => [e.event, e.nodes]), [['state_recompute', 1]]);
    const silent = await lore(['dag', 'heads'], { cwd });
    assert.deepEqual([silent.code, silent.stderr], [0, '']);
  });

  it('reports a bad line of the log on stderr and answers from the rest', async (t) => {
    const cwd = dagStore(t, [node('a', 1), '{"id":"b","project":"demo","role":"actor"\n', node('c', 2, { parents: ['a'] })]);
    const result = await lore(['dag', 'heads', '--project', 'demo'], { cwd });
    assert.deepEqual(result, { code: 0, stdout: 'c  actor: thought c [task]\n', stderr: `${DAG_LOG}:2:1: warning: line 2 is not valid JSON and was skipped\n` });
  });

  it('appends a node given as JSON on standard input, and refuses unknown fields', async (t) => {
    const cwd = dagStore(t);
    const input = JSON.stringify({ id: 'f1', projectContext: '/work/shop', thought: 'From a file', tags: ['task'], artifacts: [{ path: 'a.md', uri: 'https://x/a.md' }] });
    const ok = await loreJson<{ node: DagNode }>(['dag', 'append', '--from-file', '-'], { cwd, input });
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual([ok.json.node.id, ok.json.node.project, ok.json.node.artifacts?.[0]?.uri], ['f1', 'shop', 'https://x/a.md']);
    const bad = await lore(['dag', 'append', '--from-file', '-'], { cwd, input: '{"projectContext":"/w/shop","thougth":"x"}' });
    assert.deepEqual([bad.code, bad.stderr], [2, 'error: <stdin>: unknown field "thougth"\nhint: did you mean thought?\n']);
    const missing = await lore(['dag', 'append', '--from-file', '-'], { cwd, input: '{"thought":"x","tags":["task"]}' });
    assert.deepEqual([missing.code, missing.stderr], [2, 'error: the input of dag.append is invalid\ndag.append input: error: projectContext is required but missing\n']);
    assert.equal(logLines(cwd).length, 2);
  });

  it('warns on append when a second directory gives the same project name, and lists the collision', async (t) => {
    const cwd = dagStore(t, [node('a', 1, { projectContext: '/home/me/demo' })]);
    const result = await lore(['dag', 'append', '--project-context', '/srv/demo', '--thought', 'x', '--tag', 't', '--id', 'b'], { cwd });
    assert.deepEqual([result.code, result.stdout], [0, 'appended actor b to project demo\n']);
    assert.equal(result.stderr, 'warning: project name collision: "/home/me/demo" and "/srv/demo" both give the project name "demo"; their thoughts share one project\n');
    const projects = await lore(['dag', 'projects'], { cwd });
    assert.deepEqual([projects.stdout, projects.stderr], ['*  demo  2 nodes  /home/me/demo, /srv/demo\n', 'warning: project name collision: 2 different directories give the name demo\n']);
    const json = await loreJson<{ current: string; projects: Array<{ name: string; collision: boolean }> }>(['dag', 'projects'], { cwd });
    assert.deepEqual([json.json.current, json.json.projects.map((p) => [p.name, p.collision])], ['demo', [['demo', true]]]);
  });

  it('counts only directories in a collision, not the bare name a migrated node carries', async (t) => {
    const cwd = dagStore(t, [node('a', 1, { projectContext: '/home/me/demo' }), node('b', 2, { projectContext: '/srv/demo' }), node('c', 3, { projectContext: 'demo' })]);
    const projects = await lore(['dag', 'projects'], { cwd });
    assert.deepEqual([projects.stdout, projects.stderr], ['   demo  3 nodes  /home/me/demo, /srv/demo, demo\n', 'warning: project name collision: 2 different directories give the name demo\n']);
  });
});

import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { DagNode } from '../src/types.js';
import { inProcess } from './helpers/cli.js';
import { DAG_LOG, dagStore, logLines } from './helpers/dag.js';
import { writeFiles } from './helpers/temp.js';

const { lore, loreJson } = inProcess;

const SHOP = JSON.stringify({
  entities: {
    n1: { id: 'n1', project: 'old-name', thought: 'Plan the cart', role: 'actor', parents: [], children: [], createdAt: '2025-05-01T10:00:00.000Z', tags: ['design'], artifacts: [{ name: 'cart.ts', path: 'src/cart.ts' }], diff: '+cart' },
    n2: { id: 'n2', thought: 'Write cart tests', role: 'actor', createdAt: '2025-05-01T10:05:00.000Z', tags: ['task'], projectContext: '/home/me/shop' },
    c1: { id: 'c1', thought: 'Approved', role: 'critic', verdict: 'approved', target: 'n2', parents: ['n2'], children: [], createdAt: '2025-05-01T10:06:00.000Z' },
    art1: { id: 'art1', name: 'cart.ts', path: 'src/cart.ts', createdAt: '2025-05-01T10:00:00.000Z' },
  },
  relations: [{ from: 'n1', to: 'n2', type: 'flow' }],
}, null, 2);
const APP = JSON.stringify({ entities: [{ id: 'm1', thought: 'Start', role: 'actor', tags: ['task'] }, { id: 'm2', thought: 'Next', role: 'actor', tags: ['task'], parents: ['m1'] }] });

interface Migration { projects: Array<{ project: string; found: number; added: number; skipped: number }>; added: number; skipped: number; warnings: Array<{ message: string }> }

describe('lore dag migrate', () => {
  it('moves kg.<project>.json files into the log with counts per project, once, leaving them untouched', async (t) => {
    const cwd = dagStore(t);
    writeFiles(cwd, { 'old/kg.shop.json': SHOP, 'old/kg.my.app.json': APP, 'old/kg.empty.json': '{}', 'old/kg.json': '{"entities":{"z":{}}}', 'old/notes.txt': 'x' });
    const mtime = new Date('2025-06-01T12:00:00.000Z');
    utimesSync(join(cwd, 'old/kg.my.app.json'), mtime, mtime);
    const before = ['kg.shop.json', 'kg.my.app.json'].map((f) => [readFileSync(join(cwd, 'old', f), 'utf8'), statSync(join(cwd, 'old', f)).mtimeMs]);

    const first = await lore(['dag', 'migrate', 'old'], { cwd });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, [
      'empty   0 found  0 added  0 already there',
      'my_app  2 found  2 added  0 already there',
      'shop    4 found  4 added  0 already there',
      'migrated 6 nodes and artifacts; 0 were already in the log',
      '',
    ].join('\n'));
    assert.equal(first.stderr, `${join(cwd, 'old/kg.shop.json')}: warning: field "diff" has no place in the thought log and was left out\n`);
    const log = readFileSync(join(cwd, DAG_LOG), 'utf8');
    assert.deepEqual(logLines(cwd).map((l) => [l.project, l.id]), [['my_app', 'm1'], ['my_app', 'm2'], ['shop', 'n1'], ['shop', 'n2'], ['shop', 'c1'], ['shop', 'art1']]);

    const second = await loreJson<Migration>(['dag', 'migrate', 'old'], { cwd });
    assert.equal(second.code, 0);
    assert.deepEqual(second.json.projects.map((p) => [p.project, p.found, p.added, p.skipped]), [['empty', 0, 0, 0], ['my_app', 2, 0, 2], ['shop', 4, 0, 4]]);
    assert.deepEqual([second.json.added, second.json.skipped], [0, 6]);
    assert.equal(readFileSync(join(cwd, DAG_LOG), 'utf8'), log);
    assert.deepEqual(['kg.shop.json', 'kg.my.app.json'].map((f) => [readFileSync(join(cwd, 'old', f), 'utf8'), statSync(join(cwd, 'old', f)).mtimeMs]), before);

    // A node deleted since is not brought back by migrating the same files again.
    assert.equal((await lore(['dag', 'rm', 'm2', '--project', 'my_app'], { cwd })).code, 0);
    const third = await loreJson<Migration>(['dag', 'migrate', 'old'], { cwd });
    assert.deepEqual([third.code, third.json.added, third.json.skipped], [0, 0, 6]);
    const heads = await loreJson<{ project: string; heads: DagNode[] }>(['dag', 'heads', '--project', 'my_app'], { cwd });
    assert.deepEqual([heads.json.project, heads.json.heads.map((n) => n.id)], ['my_app', ['m1']]);
  });

  it('turns relations into parents and fills what the old format lacked', async (t) => {
    const cwd = dagStore(t);
    writeFiles(cwd, { 'old/kg.shop.json': SHOP, 'old/kg.my.app.json': APP });
    const mtime = new Date('2025-06-01T12:00:00.000Z');
    utimesSync(join(cwd, 'old/kg.my.app.json'), mtime, mtime);
    assert.equal((await lore(['dag', 'migrate', 'old'], { cwd })).code, 0);
    const lines = logLines(cwd) as unknown as DagNode[];
    const n1 = lines.find((l) => l.id === 'n1')!;
    assert.deepEqual(n1, {
      id: 'n1', project: 'shop', projectContext: 'shop', thought: 'Plan the cart', role: 'actor', parents: [], children: ['n2'], tags: ['design'],
      artifacts: [{ id: n1.artifacts![0]!.id, project: 'shop', name: 'cart.ts', path: 'src/cart.ts' }], createdAt: '2025-05-01T10:00:00.000Z',
    });
    assert.match(n1.artifacts![0]!.id, /^art-[0-9a-f]{12}$/);
    assert.deepEqual(lines.find((l) => l.id === 'n2')!.parents, ['n1']);
    assert.deepEqual(lines.find((l) => l.id === 'm1')!.createdAt, '2025-06-01T12:00:00.000Z');
    const children = await loreJson<DagNode[]>(['dag', 'children', 'n1', '--project', 'shop'], { cwd });
    assert.deepEqual(children.json.map((c) => c.id), ['n2']);
    // A bare project name (what migrated nodes carry) is no second directory: no collision.
    const append = await lore(['dag', 'append', '--project-context', '/home/me/shop', '--thought', 'Go on', '--tag', 'task', '--parent', 'c1'], { cwd });
    assert.deepEqual([append.code, append.stderr], [0, '']);
  });

  it('reports every problem of malformed files with its place, and writes nothing', async (t) => {
    const cwd = dagStore(t);
    writeFiles(cwd, {
      'old/kg.good.json': APP,
      'old/kg.bad.json': '{\n  "entities": {\n    "x": { "id": "x", "thought": "", "role": "boss" }\n  },\n  "relations": [{ "from": "x", "to": "ghost" }]\n}\n',
      'old/kg.broken.json': '{"entities": [\n  {"id": "y",,}\n',
    });
    const { code, json } = await loreJson<{ error: { code: string; message: string; problems: Array<{ file: string; line?: number; column?: number; message: string }> } }>(['dag', 'migrate', 'old'], { cwd });
    assert.equal(code, 2);
    assert.equal(json.error.code, 'PARSE');
    assert.equal(json.error.message, '4 problem(s) in the files to migrate; nothing was written');
    assert.deepEqual(json.error.problems.map((p) => [p.file.slice(cwd.length + 1), p.line, p.column, p.message]), [
      ['old/kg.bad.json', 5, 17, 'relation 0 links "ghost", which is not a node of this file'],
      ['old/kg.bad.json', 3, 34, 'thought must not be empty'],
      ['old/kg.bad.json', 3, 46, 'role must be one of actor, critic, summary (found "boss")'],
      ['old/kg.broken.json', 2, 14, "JSON syntax: expected a property name in double quotes (found ',')"],
    ]);
    assert.equal(existsSync(join(cwd, DAG_LOG)), false);
    const empty = await lore(['dag', 'migrate', 'nowhere'], { cwd });
    assert.deepEqual([empty.code, empty.stderr], [2, `error: cannot read the migration folder ${join(cwd, 'nowhere')}: it does not exist\n`]);
  });
});

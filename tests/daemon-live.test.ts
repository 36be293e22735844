// The daemon's view of the records as batches arrive: a batch re-reads the record files it names
// (their problems appear and clear), and a record folder that became a symlink is a full read
// that reports it.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { EventHub, type DaemonEvent } from '../src/daemon/events.js';
import { LiveStore } from '../src/daemon/live.js';
import { Workspace } from '../src/workspace/workspace.js';
import { entry, knowledgeStore } from './helpers/knowledge.js';
import { testEnv } from './helpers/temp.js';

const A = '.knowledge/knowledge/learnings/lrn-a.yaml';
const B = '.knowledge/knowledge/learnings/lrn-b.yaml';

async function setup(t: import('node:test').TestContext) {
  const { root } = await knowledgeStore(t, [entry({ id: 'lrn-a' }), entry({ id: 'lrn-b' })]);
  const hub = new EventHub();
  const events: Array<Extract<DaemonEvent, { type: 'change' }>['data']> = [];
  hub.subscribe((event) => {
    if (event.type === 'change') events.push(event.data);
  });
  const live = new LiveStore(new Workspace({ cwd: root, env: testEnv() }), hub);
  await live.start();
  const edit = (path: string, from: string, to: string): void => writeFileSync(join(root, path), readFileSync(join(root, path), 'utf8').replace(from, to));
  const apply = async (...paths: string[]) => {
    await live.apply({ changes: paths.map((path) => ({ path, change: 'changed' as const })), by: 'watcher' });
    return events[events.length - 1]!;
  };
  return { root, edit, apply };
}

const described = (problems: Array<{ file: string; pointer?: string; message: string }>) => problems.map((p) => [p.file, p.pointer, p.message]);

test('a batch reads the record files it names again: their problems appear and clear, files it does not name wait for their own batch', async (t) => {
  const { edit, apply } = await setup(t);
  edit(A, 'priority: medium', 'priority: urgent');
  const broken = await apply(A);
  assert.deepEqual(broken.records, [{ path: A, kind: 'learning', id: 'lrn-a', change: 'changed' }]);
  assert.deepEqual(described(broken.problems.appeared), [[A, '/priority', 'priority must be one of low, medium, high, critical (found "urgent")']]);

  edit(A, 'priority: urgent', 'priority: medium');
  edit(B, 'priority: medium', 'priority: urgent');
  const fixed = await apply(A);
  assert.deepEqual(fixed.problems, { appeared: [], cleared: broken.problems.appeared });
  const other = await apply(B);
  assert.deepEqual(described(other.problems.appeared), [[B, '/priority', 'priority must be one of low, medium, high, critical (found "urgent")']]);
  assert.deepEqual(other.problems.cleared, []);
});

test('a record folder replaced by a symlink is a full read: the folder is reported and its records are gone', async (t) => {
  const { root, apply } = await setup(t);
  const folder = join(root, '.knowledge', 'knowledge', 'learnings');
  mkdirSync(join(root, 'elsewhere'));
  renameSync(folder, join(root, 'elsewhere', 'learnings'));
  symlinkSync(join(root, 'elsewhere', 'learnings'), folder);
  const event = await apply(A, B);
  assert.deepEqual(event.records, [{ path: A, kind: 'learning', id: 'lrn-a', change: 'changed' }, { path: B, kind: 'learning', id: 'lrn-b', change: 'changed' }]);
  assert.deepEqual(event.problems.appeared.map((p) => p.file), ['.knowledge/knowledge/learnings']);
  assert.match(event.problems.appeared[0]!.message, /symbolic link/);
});

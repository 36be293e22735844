// The watcher's own logic with a watcher the test drives: a change it never reported is found by
// a reconcile, a watcher that fails is closed, reported, reconciled and started again.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isIgnored, StoreWatcher, type Batch, type FileWatcher, type WatcherState } from '../src/daemon/watcher.js';
import { tempDir } from './helpers/temp.js';

class FakeWatcher extends EventEmitter {
  closed = false;
  constructor() {
    super();
    setImmediate(() => this.emit('ready'));
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

function setup(t: import('node:test').TestContext) {
  const root = tempDir(t);
  mkdirSync(join(root, '.knowledge', 'knowledge', 'learnings'), { recursive: true });
  writeFileSync(join(root, '.knowledge', 'config.yaml'), 'version: 1\n');
  const watchers: FakeWatcher[] = [];
  const batches: Batch[] = [];
  const states: Array<[WatcherState, string | undefined]> = [];
  const watcher = new StoreWatcher({
    root,
    watch: () => {
      const w = new FakeWatcher();
      watchers.push(w);
      return w as unknown as FileWatcher;
    },
    onBatch: async (batch) => {
      batches.push(batch);
    },
    onState: (state, message) => states.push([state, message]),
    reconcileMs: 0,
    debounceMs: 10,
  });
  t.after(() => watcher.close());
  return { root, watcher, watchers, batches, states };
}

test('a reconcile finds what the watcher never reported: added, changed and removed files, and nothing for a touch', async (t) => {
  const { root, watcher, batches } = setup(t);
  await watcher.start();
  const file = join(root, '.knowledge', 'knowledge', 'learnings', 'lrn-a.yaml');
  writeFileSync(file, 'id: lrn-a\n');
  assert.deepEqual(await watcher.reconcile(), [{ path: '.knowledge/knowledge/learnings/lrn-a.yaml', change: 'added' }]);
  writeFileSync(file, 'id: lrn-a\n');
  assert.deepEqual(await watcher.reconcile(), [], 'same content: no change');
  writeFileSync(file, 'id: lrn-a\ntitle: x\n');
  rmSync(join(root, '.knowledge', 'config.yaml'));
  assert.deepEqual(await watcher.reconcile(), [{ path: '.knowledge/knowledge/learnings/lrn-a.yaml', change: 'changed' }, { path: '.knowledge/config.yaml', change: 'removed' }]);
  assert.deepEqual(batches.map((b) => b.by), ['reconcile', 'reconcile']);
});

test('reported paths are collected into one batch and compared by content; ignored names never count', async (t) => {
  const { root, watcher, watchers, batches } = setup(t);
  await watcher.start();
  const dir = join(root, '.knowledge', 'knowledge', 'learnings');
  for (let i = 0; i < 50; i++) {
    writeFileSync(join(dir, `lrn-${i}.yaml`), `id: lrn-${i}\n`);
    watchers[0]!.emit('all', 'add', join(dir, `lrn-${i}.yaml`));
  }
  writeFileSync(join(dir, '.lrn-0.yaml.123.abcd.tmp'), 'x');
  watchers[0]!.emit('all', 'add', join(dir, '.lrn-0.yaml.123.abcd.tmp'));
  watchers[0]!.emit('all', 'change', join(root, '.knowledge', 'config.yaml'));
  await watcher.flush();
  assert.equal(batches.length, 1);
  assert.equal(batches[0]!.changes.length, 50);
  assert.ok(batches[0]!.changes.every((c) => c.change === 'added' && c.path.startsWith('.knowledge/knowledge/learnings/lrn-')));
  for (const name of ['.cache/records-learning.json', '.write.lock', '.journal.json', 'log/knowledge_graph.ndjson.lock', 'x/.a.yaml.1.ff.tmp', 'a.yaml.stale', 'log/knowledge_graph.ndjson.lock.break-5f0c2a', '.write.lock.break-5f0c2a-9e1d']) {
    assert.equal(isIgnored(join(root, '.knowledge'), join(root, '.knowledge', name)), true, name);
  }
  assert.equal(isIgnored(join(root, '.knowledge'), join(root, '.knowledge', 'log', 'knowledge_graph.ndjson')), false);
});

test('a watcher that fails is reported, reconciled and started again', async (t) => {
  const { root, watcher, watchers, batches, states } = setup(t);
  await watcher.start();
  // A change the failing watcher never reported.
  writeFileSync(join(root, '.knowledge', 'knowledge', 'learnings', 'lrn-missed.yaml'), 'id: lrn-missed\n');
  watchers[0]!.emit('error', new Error('inotify limit reached'));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(watchers.length, 2);
  assert.equal(watchers[0]!.closed, true);
  assert.deepEqual(states, [['watching', undefined], ['restarting', 'the watcher failed (inotify limit reached); restarting it'], ['watching', undefined]]);
  assert.equal(watcher.restarts, 1);
  assert.deepEqual(batches, [{ changes: [{ path: '.knowledge/knowledge/learnings/lrn-missed.yaml', change: 'added' }], by: 'reconcile' }]);
});

// A Workspace keeps what it computed from the store's files until one of them changes, and sees
// the writes of other processes.
import assert from 'node:assert/strict';
import { statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it, type TestContext } from 'node:test';
import { Workspace } from '../src/workspace/workspace.js';
import { lore } from './helpers/cli.js';
import { tempStore, testEnv } from './helpers/temp.js';

/** A store with one role file holding `text`, and a value remembered from that file that counts how often it was computed. */
function countedValue(t: TestContext, text: string): { file: string; value: () => Promise<number> } {
  const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\n', '.knowledge/roles/coach.yaml': text });
  const file = join(root, '.knowledge/roles/coach.yaml');
  const ws = new Workspace({ cwd: root, env: testEnv() });
  let computed = 0;
  return { file, value: () => ws.remember('count', async () => [file], async () => ++computed) };
}

describe('a workspace', () => {
  it('computes a value once, and again after another process wrote a file it depends on', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\nproject: shop\n' });
    const dir = join(root, '.knowledge/knowledge/prohibitions');
    const ws = new Workspace({ cwd: root, env: testEnv() });
    let computed = 0;
    const value = (): Promise<number> => ws.remember('count', async () => [dir], async () => ++computed);
    await sleep(60); // past the racy window of the folder's creation
    assert.equal(await value(), 1);
    assert.equal(await value(), 1);
    // Another process adds a prohibition: its file is renamed into the folder.
    const added = await lore(['add', 'prohibition', '--title', 'No env files', '--description', 'No.', '--glob', '**/.env'], { cwd: root });
    assert.equal(added.code, 0, added.stderr);
    assert.equal(await value(), 2);
  });

  it('computes again a value whose files changed within the same moment it was computed, then keeps it', async (t) => {
    const { file, value } = countedValue(t, 'x');
    // A modification time not older than the racy window when the value is computed (here ahead of
    // the clock, so however slowly the test runs): the stamp cannot tell a second change in the
    // same tick, so the value is not trusted.
    const ahead = new Date(Date.now() + 60_000);
    utimesSync(file, ahead, ahead);
    assert.equal(await value(), 1);
    assert.equal(await value(), 2);
    assert.equal(await value(), 3);
    // Older than the window: computed once more (the stamp changed), then kept.
    const past = new Date(Date.now() - 60_000);
    utimesSync(file, past, past);
    assert.equal(await value(), 4);
    assert.equal(await value(), 4);
  });

  it('computes again after an edit in place that keeps the size and puts back the exact modification time', async (t) => {
    const { file, value } = countedValue(t, 'one');
    // A modification time in whole seconds, which utimes can put back exactly.
    const hourAgo = new Date(Math.floor(Date.now() / 1000) * 1000 - 3600_000);
    utimesSync(file, hourAgo, hourAgo);
    await sleep(60); // the file system's clock ticks, so the edit below gets another change time
    assert.equal(await value(), 1);
    const before = statSync(file, { bigint: true });
    writeFileSync(file, 'two');
    utimesSync(file, before.atime, before.mtime);
    const after = statSync(file, { bigint: true });
    assert.deepEqual([after.size, after.ino, after.mtimeNs], [before.size, before.ino, before.mtimeNs]);
    assert.equal(await value(), 2);
  });

  it('forgets what invalidate names, and nothing else', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\n' });
    const ws = new Workspace({ cwd: root, env: testEnv() });
    const a = join(root, '.knowledge/graph/entities');
    const b = join(root, '.knowledge/knowledge/learnings');
    let countA = 0;
    let countB = 0;
    await sleep(60);
    await ws.remember('a', async () => [a], async () => ++countA);
    await ws.remember('b', async () => [b], async () => ++countB);
    ws.invalidate([join(a, 'api.yaml')]);
    assert.equal(await ws.remember('a', async () => [a], async () => ++countA), 2);
    assert.equal(await ws.remember('b', async () => [b], async () => ++countB), 1);
  });

  it('opens the store once, and again when config.yaml changes', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\nproject: shop\n' });
    const ws = new Workspace({ cwd: root, env: testEnv() });
    await sleep(60);
    assert.equal((await ws.store()).config.project, 'shop');
    assert.equal(await ws.store(), await ws.store());
    writeFileSync(join(root, '.knowledge/config.yaml'), 'version: 1\nproject: garden\n');
    assert.equal((await ws.store()).config.project, 'garden');
  });
});

import assert from 'node:assert/strict';
import { readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { lookAtRecordFiles } from '../src/indexer/file-stamps.js';
import { GitRecordCache, readGitRecords } from '../src/indexer/git-records.js';
import { readRecordsCached } from '../src/indexer/record-cache.js';
import { readRecords } from '../src/store/read.js';
import { guardRepo, prohibition, prohibitionPath } from './helpers/guard.js';
import { gitSync, tempStore, testEnv } from './helpers/temp.js';

const NOW = '2026-01-01T00:00:00.000Z';
const entry = (id: string, title = `Title ${id}`): string => `id: ${id}\ntype: prohibition\ntitle: ${title}\ndescription: D\nscope: global\nkeywords: []\npriority: high\nsource: manual\ncreatedAt: ${NOW}\nupdatedAt: ${NOW}\ncreatedBy: me\nenabled: true\n`;
const kinds = ['prohibition'] as const;

/** Sets a file's mtime an hour back, so the cache may trust its stat signature. */
function age(path: string): void {
  const past = new Date(Date.now() - 3600_000);
  utimesSync(path, past, past);
}

describe('the record cache', () => {
  it('returns what an uncached read returns, then trusts unchanged files by their stat signature', async (t) => {
    const root = tempStore(t, { '.knowledge/knowledge/prohibitions/a.yaml': entry('a'), '.knowledge/knowledge/prohibitions/b.yaml': entry('b'), '.knowledge/knowledge/prohibitions/bad.yaml': 'id: [\n' });
    for (const name of ['a', 'b', 'bad']) age(join(root, `.knowledge/knowledge/prohibitions/${name}.yaml`));
    const uncached = await readRecords(root, { kinds });
    const first = await readRecordsCached(root, { kinds });
    assert.deepEqual(first.cache, { statHits: 0, hashHits: 0, parsed: 3 });
    assert.deepEqual([first.records, first.problems, first.files], [uncached.records, uncached.problems, uncached.files]);
    const second = await readRecordsCached(root, { kinds });
    assert.deepEqual(second.cache, { statHits: 3, hashHits: 0, parsed: 0 });
    assert.deepEqual([second.records, second.problems], [uncached.records, uncached.problems]);
  });

  it('re-parses a changed file, re-hashes a touched one, and forgets a deleted one', async (t) => {
    const root = tempStore(t, { '.knowledge/knowledge/prohibitions/a.yaml': entry('a'), '.knowledge/knowledge/prohibitions/b.yaml': entry('b'), '.knowledge/knowledge/prohibitions/c.yaml': entry('c') });
    const dir = join(root, '.knowledge/knowledge/prohibitions');
    for (const name of ['a', 'b', 'c']) age(join(dir, `${name}.yaml`));
    await readRecordsCached(root, { kinds });
    writeFileSync(join(dir, 'a.yaml'), entry('a', 'A new title'));
    writeFileSync(join(dir, 'b.yaml'), readFileSync(join(dir, 'b.yaml')));
    rmSync(join(dir, 'c.yaml'));
    const result = await readRecordsCached<{ title: string }>(root, { kinds });
    assert.deepEqual(result.cache, { statHits: 0, hashHits: 1, parsed: 1 });
    assert.deepEqual(result.records.map((r) => [r.id, r.value.title]), [['a', 'A new title'], ['b', 'Title b']]);
  });

  it('reads by a look taken before (no lstat of its own), and a file changed after that look is read again the next time', async (t) => {
    const root = tempStore(t, { '.knowledge/knowledge/prohibitions/a.yaml': entry('a', 'Title one'), '.knowledge/knowledge/prohibitions/b.yaml': entry('b'), '.knowledge/knowledge/prohibitions/c.yaml': entry('c') });
    const dir = join(root, '.knowledge/knowledge/prohibitions');
    for (const name of ['a', 'b', 'c']) age(join(dir, `${name}.yaml`));
    await readRecordsCached(root, { kinds });
    const look = (await lookAtRecordFiles(root, kinds))!;
    // After the look: a edited (same size), c moved away. The read goes by the look, so it answers for
    // the files as they were then: without it, a would be read again and c would be gone.
    await new Promise((resolve) => setTimeout(resolve, 30));
    writeFileSync(join(dir, 'a.yaml'), entry('a', 'Title two'));
    renameSync(join(dir, 'c.yaml'), join(root, 'c.yaml'));
    const byLook = await readRecordsCached<{ title: string }>(root, { kinds, look });
    assert.deepEqual(byLook.cache, { statHits: 3, hashHits: 0, parsed: 0 });
    assert.deepEqual(byLook.records.map((r) => [r.id, r.value.title]), [['a', 'Title one'], ['b', 'Title b'], ['c', 'Title c']]);
    assert.equal(byLook.stamp, look.stamp);
    // The next read looks for itself: the edit and the move are seen.
    const next = await readRecordsCached<{ title: string }>(root, { kinds });
    assert.deepEqual(next.records.map((r) => [r.id, r.value.title]), [['a', 'Title two'], ['b', 'Title b']]);
    assert.notEqual(next.stamp, look.stamp);
  });

  it('leaves out, without a problem, a file deleted between the look and the read, and gives no stamp for that read', async (t) => {
    const root = tempStore(t, { '.knowledge/knowledge/prohibitions/a.yaml': entry('a'), '.knowledge/knowledge/prohibitions/b.yaml': entry('b') });
    const dir = join(root, '.knowledge/knowledge/prohibitions');
    // Too recent to be trusted by its signature: b must be read, and by then it is gone (lore rm in another process).
    age(join(dir, 'a.yaml'));
    await readRecordsCached(root, { kinds });
    const look = (await lookAtRecordFiles(root, kinds))!;
    rmSync(join(dir, 'b.yaml'));
    const byLook = await readRecordsCached(root, { kinds, look });
    // a's own problems only (its createdAt is unquoted): what reading the folder as it is now gives.
    const now = await readRecords(root, { kinds });
    assert.equal(now.problems.some((p) => p.file.endsWith('b.yaml')), false);
    assert.deepEqual([byLook.records.map((r) => r.id), byLook.problems, byLook.files, byLook.stamp], [['a'], now.problems, 1, undefined]);
    // Without a look, the same: a file gone between the listing and the read is not a problem either.
    const next = await readRecordsCached(root, { kinds });
    assert.deepEqual([next.records.map((r) => r.id), next.problems, next.cache], [['a'], now.problems, { statHits: 1, hashHits: 0, parsed: 0 }]);
  });

  it('re-parses a file edited in place with its size kept and its exact modification time put back', async (t) => {
    const root = tempStore(t, { '.knowledge/knowledge/prohibitions/a.yaml': entry('a', 'Title one') });
    const file = join(root, '.knowledge/knowledge/prohibitions/a.yaml');
    // An hour back, in whole seconds: a time utimes can put back exactly.
    const hourAgo = new Date(Math.floor(Date.now() / 1000) * 1000 - 3600_000);
    utimesSync(file, hourAgo, hourAgo);
    await readRecordsCached(root, { kinds });
    const before = statSync(file);
    // File times come from a coarse clock: let it tick, so the edit's change time differs.
    await new Promise((resolve) => setTimeout(resolve, 30));
    writeFileSync(file, entry('a', 'Title two'));
    utimesSync(file, before.atime, before.mtime);
    const after = statSync(file);
    assert.deepEqual([after.size, after.ino, after.mtimeMs], [before.size, before.ino, before.mtimeMs]);
    const result = await readRecordsCached<{ title: string }>(root, { kinds });
    assert.deepEqual(result.cache, { statHits: 0, hashHits: 0, parsed: 1 });
    assert.deepEqual(result.records.map((r) => r.value.title), ['Title two']);
  });

  it('rebuilds from the files when the snapshot is damaged', async (t) => {
    const root = tempStore(t, { '.knowledge/knowledge/prohibitions/a.yaml': entry('a') });
    age(join(root, '.knowledge/knowledge/prohibitions/a.yaml'));
    await readRecordsCached(root, { kinds });
    writeFileSync(join(root, '.knowledge/.cache/records-prohibition.json'), '{"key": tru');
    const result = await readRecordsCached(root, { kinds });
    assert.deepEqual(result.cache, { statHits: 0, hashHits: 0, parsed: 1 });
    assert.equal(result.records.length, 1);
  });

  it('never trusts the stat of a file modified within the racy window of the snapshot', async (t) => {
    const root = tempStore(t, { '.knowledge/knowledge/prohibitions/a.yaml': entry('a') });
    await readRecordsCached(root, { kinds });
    const again = await readRecordsCached(root, { kinds });
    assert.deepEqual(again.cache, { statHits: 0, hashHits: 1, parsed: 0 });
  });

  it('does not write its snapshot again on every run when a record file cannot be read (a symlink)', async (t) => {
    const root = tempStore(t, { '.knowledge/knowledge/prohibitions/a.yaml': entry('a'), 'elsewhere.yaml': entry('b') });
    age(join(root, '.knowledge/knowledge/prohibitions/a.yaml'));
    symlinkSync(join(root, 'elsewhere.yaml'), join(root, '.knowledge/knowledge/prohibitions/b.yaml'));
    const snapshot = join(root, '.knowledge/.cache/records-prohibition.json');
    const first = await readRecordsCached(root, { kinds });
    assert.deepEqual([first.cache, first.problems.filter((p) => p.severity === 'error').map((p) => p.file)], [{ statHits: 0, hashHits: 0, parsed: 1 }, ['.knowledge/knowledge/prohibitions/b.yaml']]);
    const written = statSync(snapshot);
    const second = await readRecordsCached(root, { kinds });
    assert.deepEqual([second.cache, second.problems.filter((p) => p.severity === 'error').map((p) => p.file)], [{ statHits: 1, hashHits: 0, parsed: 0 }, ['.knowledge/knowledge/prohibitions/b.yaml']]);
    // The same snapshot file: an atomic write replaces it (a new inode).
    assert.equal(statSync(snapshot).ino, written.ino);
  });

  it('trusts a file by its stat once it has settled, without waiting for another file to change', async (t) => {
    const root = tempStore(t, { '.knowledge/knowledge/prohibitions/a.yaml': entry('a') });
    const file = join(root, '.knowledge/knowledge/prohibitions/a.yaml');
    // 1.5 s old: within the racy window (2 s) of the snapshot written now, outside it 0.7 s later.
    const recent = new Date(Date.now() - 1500);
    utimesSync(file, recent, recent);
    assert.deepEqual((await readRecordsCached(root, { kinds })).cache, { statHits: 0, hashHits: 0, parsed: 1 });
    await new Promise((resolve) => setTimeout(resolve, 700));
    // Still too recent for the first snapshot: hashed, and the snapshot written again...
    assert.deepEqual((await readRecordsCached(root, { kinds })).cache, { statHits: 0, hashHits: 1, parsed: 0 });
    // ...so that the next run trusts its stat.
    assert.deepEqual((await readRecordsCached(root, { kinds })).cache, { statHits: 1, hashHits: 0, parsed: 0 });
  });
});

describe('the git record cache', () => {
  it('parses a blob once when the committed side and the index are read at once', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-a')]: prohibition('pro-a', {}), [prohibitionPath('pro-b')]: prohibition('pro-b', {}) });
    writeFileSync(join(repo, prohibitionPath('pro-c')), prohibition('pro-c', {}));
    gitSync(repo, ['add', '.']);
    const parsed: string[] = [];
    class CountingCache extends GitRecordCache {
      override set(key: string, value: Parameters<GitRecordCache['set']>[1]): void {
        parsed.push(key.replace(/:[0-9a-f]{40}$/, ''));
        super.set(key, value);
      }
    }
    const cache = new CountingCache(repo);
    const where = { cwd: repo, env: testEnv() };
    const [head, index] = await Promise.all([readGitRecords(where, cache, { ref: 'HEAD' }, kinds), readGitRecords(where, cache, { index: true }, kinds)]);
    assert.deepEqual(parsed.sort(), ['config', 'prohibition:pro-a.yaml', 'prohibition:pro-b.yaml', 'prohibition:pro-c.yaml']);
    assert.deepEqual(head.records.map((r) => r.id), ['pro-a', 'pro-b']);
    assert.deepEqual(index.records.map((r) => r.id), ['pro-a', 'pro-b', 'pro-c']);
    // Read again: everything comes from the cache.
    await readGitRecords(where, cache, { index: true }, kinds);
    assert.equal(parsed.length, 4);
  });
});

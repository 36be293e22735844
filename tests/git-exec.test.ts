import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dirname } from 'node:path';
import { git, prestartGit } from '../src/git/exec.js';
import { readBlobsCapped } from '../src/git/objects.js';
import { readStaged } from '../src/guard/changes.js';
import { gitRepo, gitSync, tempDir, testEnv, writeFiles } from './helpers/temp.js';

describe('git commands started early', () => {
  it('are taken once by the next call with the same arguments, cwd and env', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    const env = testEnv();
    const first = gitSync(repo, ['rev-parse', 'HEAD']).trim();
    prestartGit(['rev-parse', 'HEAD'], { cwd: repo, env });
    // Let the early run finish, then move HEAD: the early output still names the first commit.
    await new Promise((resolve) => setTimeout(resolve, 500));
    writeFiles(repo, { 'b.txt': 'b\n' });
    gitSync(repo, ['add', 'b.txt']);
    gitSync(repo, ['commit', '-q', '-m', 'second']);
    const second = gitSync(repo, ['rev-parse', 'HEAD']).trim();
    assert.notEqual(first, second);
    assert.equal((await git(['rev-parse', 'HEAD'], { cwd: repo, env })).trim(), first);
    assert.equal((await git(['rev-parse', 'HEAD'], { cwd: repo, env })).trim(), second);
  });

  it('are not taken by a call with another environment', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    prestartGit(['config', '--get', 'lore.role'], { cwd: repo, env: testEnv() });
    const other = testEnv({ GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'lore.role', GIT_CONFIG_VALUE_0: 'coach' });
    assert.equal(await git(['config', '--get', 'lore.role'], { cwd: repo, env: other }), 'coach\n');
  });

  it('hand their failure to the caller that takes them, and none when nobody does', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    t.after(() => process.off('unhandledRejection', onUnhandled));
    const env = testEnv();
    prestartGit(['rev-parse', '--verify', 'no-such-ref'], { cwd: repo, env });
    prestartGit(['cat-file', '-p', 'no-such-object'], { cwd: repo, env });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await assert.rejects(git(['rev-parse', '--verify', 'no-such-ref'], { cwd: repo, env }), { code: 'GIT', message: /^git rev-parse --verify no-such-ref failed: fatal: Needed a single revision/ });
    assert.deepEqual(unhandled, []);
  });
});

describe('git\'s answers before the blobs', () => {
  it('are handed to `answered` once, as the read returns them, found or missing', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n', 'dir/b.txt': 'b\n' });
    const blob = gitSync(repo, ['rev-parse', 'HEAD:a.txt']).trim();
    const calls: unknown[] = [];
    const read = await readBlobsCapped({ cwd: repo, env: testEnv() }, [blob], Infinity, { names: ['HEAD:dir', 'HEAD:missing', 'HEAD:a.txt'], answered: (looks) => calls.push(structuredClone(looks)) });
    const tree = gitSync(repo, ['rev-parse', 'HEAD:dir']).trim();
    assert.deepEqual(read.looks, [{ id: tree, type: 'tree' }, undefined, { id: blob, type: 'blob' }]);
    assert.deepEqual(calls, [read.looks]);
    assert.deepEqual([...read.blobs.keys()], [blob]);
    const none: unknown[] = [];
    await readBlobsCapped({ cwd: repo, env: testEnv() }, [blob], Infinity, { names: [], answered: (looks) => none.push([...looks]) });
    assert.deepEqual(none, [[]]);
  });

  it('give the staged read\'s paths and answers at HEAD, equal to the whole read\'s, and fail with it', { timeout: 30_000 }, async (t) => {
    const repo = gitRepo(t, { '.knowledge/config.yaml': 'version: 1\n', 'old.txt': 'same text\n'.repeat(20) });
    gitSync(repo, ['mv', 'old.txt', 'new.txt']);
    writeFiles(repo, { 'added.txt': 'x\n' });
    gitSync(repo, ['add', '-A']);
    const { heads, read } = readStaged({ cwd: repo, env: testEnv() });
    const [early, whole] = await Promise.all([heads, read]);
    assert.deepEqual(early, { paths: whole.paths, looks: whole.read.looks });
    assert.deepEqual([...early.paths].sort(), ['added.txt', 'new.txt', 'old.txt']);
    assert.equal(early.looks[0]?.type, 'blob'); // HEAD:.knowledge/config.yaml
    // Outside a repository both settle, as failures: nothing waits for an answer that never comes.
    const outside = tempDir(t);
    const failed = readStaged({ cwd: outside, env: testEnv({ GIT_CEILING_DIRECTORIES: dirname(outside) }) });
    await assert.rejects(failed.heads, { code: 'GIT' });
    await assert.rejects(failed.read, { code: 'GIT' });
  });
});

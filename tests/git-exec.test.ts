import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { git, prestartGit } from '../src/git/exec.js';
import { gitRepo, gitSync, testEnv, writeFiles } from './helpers/temp.js';

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

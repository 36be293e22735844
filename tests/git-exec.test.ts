import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { execFileSync } from 'node:child_process';
import { chmodSync, fstatSync, openSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

describe('cat-file\'s output', () => {
  /** Runs `read` with TMPDIR set to `dir` (where the read spools git's output). */
  const withTmpdir = async <T>(dir: string, read: () => Promise<T>): Promise<T> => {
    const before = process.env.TMPDIR;
    process.env.TMPDIR = dir;
    try {
      return await read();
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  };

  // Both look at what this process holds open through /proc.
  const linuxOnly = { skip: process.platform !== 'linux' };

  it('is read whole, byte for byte, a blob over the cap skipped with its size, and no spool file is left', linuxOnly, async (t) => {
    // Sizes around the spool's 4 MiB reads and the pipe's 64 KiB, bytes of every value.
    const bytes = (size: number, seed: number): Buffer => Buffer.from(Array.from({ length: size }, (_, i) => (i * 131 + seed) % 256));
    const contents = [bytes(0, 1), bytes(1, 2), bytes(65_537, 3), bytes(5 * 1024 * 1024 + 3, 4), bytes(9 * 1024 * 1024, 5), bytes(100, 6)];
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    const ids = contents.map((content) => execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo, env: testEnv(), input: content, encoding: 'utf8' }).trim());
    const spool = tempDir(t, 'lore-spool-');
    const seen: Array<{ listed: string[]; open: boolean }> = [];
    // What this process holds open in the spool folder (Linux names a deleted file's descriptor).
    const holds = (): boolean => readdirSync('/proc/self/fd').some((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith(`${spool}/lore-git-`);
      } catch {
        return false;
      }
    });
    const read = await withTmpdir(spool, () => readBlobsCapped({ cwd: repo, env: testEnv() }, ids, 6 * 1024 * 1024, { names: ['HEAD'], answered: () => seen.push({ listed: readdirSync(spool), open: holds() }) }));
    // Git wrote into a file that was unlinked as soon as it was made, and is closed after.
    assert.deepEqual(seen, [{ listed: [], open: true }]);
    assert.equal(holds(), false);
    assert.deepEqual(readdirSync(spool), []);
    assert.deepEqual([...read.tooLarge], [[ids[4], 9 * 1024 * 1024]]);
    assert.deepEqual(ids.filter((_, i) => i !== 4).map((id) => read.blobs.get(id)?.equals(contents[ids.indexOf(id)]!)), [true, true, true, true, true]);
    assert.equal(read.blobs.size, 5);
  });

  /** Watches, every millisecond, whether this process holds a file open in `spool` and the largest it grew to. */
  function watchSpool(t: TestContext, spool: string): () => { seen: boolean; largest: number } {
    let seen = false;
    let largest = 0;
    const look = setInterval(() => {
      for (const fd of readdirSync('/proc/self/fd')) {
        try {
          if (!readlinkSync(`/proc/self/fd/${fd}`).startsWith(`${spool}/lore-git-`)) continue;
          seen = true;
          largest = Math.max(largest, fstatSync(Number(fd)).size);
        } catch {
          // closed meanwhile
        }
      }
    }, 1);
    t.after(() => clearInterval(look));
    return () => {
      clearInterval(look);
      return { seen, largest };
    };
  }

  const hashObject = (repo: string, content: Buffer): string => execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo, env: testEnv(), input: content, encoding: 'utf8' }).trim();
  const MiB = 1024 * 1024;

  it('starts again through a pipe at an object over the cap, blob or name looked up, so the spool never holds it', linuxOnly, async (t) => {
    const big = Buffer.alloc(128 * MiB, 'x');
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    const [small, large] = [hashObject(repo, Buffer.from('small\n')), hashObject(repo, big)];
    for (const [ids, names] of [[[small!, large!, small!], ['HEAD:a.txt']], [[small!], [large!]]] as const) {
      const spool = tempDir(t, 'lore-spool-');
      const watched = watchSpool(t, spool);
      const read = await withTmpdir(spool, () => readBlobsCapped({ cwd: repo, env: testEnv() }, ids, MiB, { names }));
      const { seen, largest } = watched();
      if (names[0] === large) assert.deepEqual([read.looks, [...read.tooLarge]], [[{ id: large, type: 'blob' }], []]);
      else assert.deepEqual([...read.tooLarge], [[large, big.length]]);
      assert.equal(read.blobs.get(small!)?.toString('utf8'), 'small\n');
      assert.ok(seen, 'the read went through the spool first');
      assert.ok(largest < 64 * MiB, `the spool grew to ${largest} bytes`);
    }
  });

  it('starts again through a pipe when git cannot write into the spool (a file size limit, as a full disk)', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'line\n'.repeat(20_000) });
    const blob = gitSync(repo, ['rev-parse', 'HEAD:a.txt']).trim();
    // A git that may write files of 32 KiB at most (ulimit -f counts 512-byte blocks); pipes are not files.
    const bin = tempDir(t, 'lore-git-');
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nulimit -f 64\nexec "${real}" "$@"\n`);
    chmodSync(join(bin, 'git'), 0o755);
    const env = testEnv({ PATH: `${bin}:${process.env.PATH}` });
    assert.throws(() => execFileSync('git', ['cat-file', 'blob', blob], { cwd: repo, env, stdio: ['ignore', openSync(join(tempDir(t), 'out'), 'w'), 'ignore'] }));
    const read = await readBlobsCapped({ cwd: repo, env }, [blob], Infinity, { names: ['HEAD:a.txt'] });
    assert.equal(read.blobs.get(blob)?.toString('utf8'), 'line\n'.repeat(20_000));
    assert.deepEqual(read.looks, [{ id: blob, type: 'blob' }]);
  });

  it('that cannot start is one failure, and nothing else fails after it', async (t) => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown): void => {
      uncaught.push(error);
    };
    process.on('uncaughtException', onUncaught);
    t.after(() => process.off('uncaughtException', onUncaught));
    const gone = join(tempDir(t), 'no-such-folder');
    await assert.rejects(readBlobsCapped({ cwd: gone, env: testEnv() }, ['0123456789012345678901234567890123456789']), { code: 'GIT', message: 'could not run git: spawn git ENOENT' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(uncaught, []);
  });

  it('comes through a pipe where no spool file can be made, the same', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n'.repeat(40_000) });
    const blob = gitSync(repo, ['rev-parse', 'HEAD:a.txt']).trim();
    const missing = join(tempDir(t), 'no-such-folder');
    const read = await withTmpdir(missing, () => readBlobsCapped({ cwd: repo, env: testEnv() }, [blob], Infinity, { names: ['HEAD:a.txt', 'HEAD:b.txt'] }));
    assert.deepEqual(read.looks, [{ id: blob, type: 'blob' }, undefined]);
    assert.equal(read.blobs.get(blob)?.toString('utf8'), 'a\n'.repeat(40_000));
  });

  it('that stops short of what was asked is a failure', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    const blob = gitSync(repo, ['rev-parse', 'HEAD:a.txt']).trim();
    await assert.rejects(readBlobsCapped({ cwd: repo, env: testEnv() }, [blob, '0123456789012345678901234567890123456789']), { code: 'GIT', message: 'git has no object 0123456789012345678901234567890123456789' });
  });
});

// lore serve starts its git processes from stubs kept waiting (src/git/_start.ts): real Perl stubs
// that exec real git (or a script standing for it on the environment's PATH), compared with git
// spawned the usual way; stubs killed with SIGKILL, waiting or running.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative as relativePath } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { gitStubCounts, keepGitStubs, startGit } from '../src/git/_start.js';
import { git, gitBytes, gitOutcome } from '../src/git/exec.js';
import { readBlobsCapped } from '../src/git/objects.js';
import { lore, LORE_BIN } from './helpers/cli.js';
import { startDaemon } from './helpers/daemon.js';
import { blockedEnv, gitRun, guardRepo, prohibition, prohibitionPath } from './helpers/guard.js';
import { gitRepo, gitSync, tempDir, testEnv, writeFiles } from './helpers/temp.js';

const linuxOnly = { skip: process.platform !== 'linux' };

/** Resolves once `ready()` holds, polling (at most 10 s). */
async function until(ready: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!ready()) {
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const waiting = (): number => gitStubCounts().waiting;
const taken = (): number => gitStubCounts().taken;

/** Keeps stubs for the test's length; resolves once all five wait. */
async function withStubs(t: TestContext): Promise<void> {
  const stop = keepGitStubs();
  t.after(stop);
  await until(() => waiting() === 5, 'five stubs waiting');
}

/** A folder whose `git` is a shell script, for an environment's PATH. */
function fakeGit(t: TestContext, script: string): string {
  const bin = tempDir(t, 'lore-fake-git-');
  writeFileSync(join(bin, 'git'), `#!/bin/sh\n${script}\n`);
  chmodSync(join(bin, 'git'), 0o755);
  return bin;
}

/** A process's command, state and parent (Linux); undefined once it is gone. */
function processOf(pid: number): { comm: string; state: string; parent: number } | undefined {
  try {
    const [, comm, state, parent] = /^\d+ \((.*)\) (\S) (\d+) /s.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))!;
    return { comm: comm!, state: state!, parent: Number(parent) };
  } catch {
    return undefined;
  }
}

/** The pids of `parent`'s living children whose command is `name` (Linux). */
function children(parent: number, name: string): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number).filter((pid) => {
    const info = processOf(pid);
    return info !== undefined && info.comm === name && info.parent === parent && info.state !== 'Z';
  });
}

/** Whether a process runs (a zombie has ended). */
const alive = (pid: number): boolean => (processOf(pid)?.state ?? 'Z') !== 'Z';

describe('git started by a waiting stub', () => {
  const ARGS = ['log', 'a b', 'line\nbreak', '', '-x', '--', 'üñí €', '=', `'"$HOME"'`];
  const ENV = { ODD: 'a=b=c', LINES: 'one\ntwo', EMPTY: '', UNICODE: 'ünï €', lower_case: 'x' };
  // The process's id first (a stub runs git as itself), then what it was given.
  const PRINT = 'echo $$; printf "%s\\n" "$PWD" "$#"; for a; do printf "[%s]\\n" "$a"; done; env | LC_ALL=C sort; head -c 5';
  const split = (output: Buffer): [number, string] => {
    const text = output.toString('utf8');
    return [Number(text.slice(0, text.indexOf('\n'))), text.slice(text.indexOf('\n') + 1)];
  };

  it('runs the command it is told, with the same arguments, folder, environment and stdin as spawned git', linuxOnly, async (t) => {
    const bin = fakeGit(t, PRINT);
    const cwd = tempDir(t);
    const env = testEnv({ ...ENV, PATH: `${bin}:${process.env.PATH}` });
    const [, spawned] = split(await gitBytes(ARGS, { cwd, env, input: 'stdin and more' }));
    await withStubs(t);
    const stubs = children(process.pid, 'perl');
    const [pid, stubbed] = split(await gitBytes(ARGS, { cwd, env, input: 'stdin and more' }));
    assert.ok(stubs.includes(pid), 'a waiting stub became the git that ran');
    assert.equal(stubbed, spawned);
    assert.match(stubbed, /^\[line\nbreak\]$/m);
    assert.match(stubbed, /^ODD=a=b=c$/m);
    assert.ok(stubbed.endsWith('\nstdin'));
  });

  it('gives what git gives: its answers, its blobs through the spool, its failures', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n'.repeat(50_000), 'b.txt': 'b\n' });
    const env = testEnv({ GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'lore.role', GIT_CONFIG_VALUE_0: 'coach' });
    const blobs = ['a.txt', 'b.txt'].map((file) => gitSync(repo, ['rev-parse', `HEAD:${file}`]).trim());
    const answers = async (): Promise<unknown[]> => [
      await git(['rev-parse', '--show-toplevel', '--symbolic-full-name', 'HEAD'], { cwd: repo, env }),
      await git(['config', '-z', '--get-regexp', '^lore\\.'], { cwd: repo, env }),
      await readBlobsCapped({ cwd: repo, env }, blobs, Infinity, { names: ['HEAD:a.txt', 'HEAD:missing'] }),
      await git(['rev-parse', '--verify', 'no-such-ref'], { cwd: repo, env }).catch((error: Error) => error.message),
      await git(['diff-index', '--cached', 'no-such-ref'], { cwd: repo, env }).catch((error: Error) => error.message),
    ];
    const spawned = await answers();
    await withStubs(t);
    const before = taken();
    assert.deepEqual(await answers(), spawned);
    assert.ok(taken() - before >= 4, `stubs ran ${taken() - before} of the 5 runs`);
    assert.equal(spawned[3], 'git rev-parse --verify no-such-ref failed: fatal: Needed a single revision');
    // The pool fills again once the runs are over.
    await until(() => waiting() === 5, 'the pool filled again');
  });

  it('fails where spawned git fails: no such folder, a git that is killed', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    await withStubs(t);
    const gone = join(tempDir(t), 'no-such-folder');
    await assert.rejects(git(['rev-parse', 'HEAD'], { cwd: gone, env: testEnv() }), { code: 'GIT', message: /^could not run git: cannot enter .*no-such-folder: No such file or directory$/ });
    await assert.rejects(gitOutcome(['rev-parse', 'HEAD'], { cwd: gone, env: testEnv() }), { code: 'GIT', message: /^could not run git: cannot enter .*no-such-folder: No such file or directory$/ });
    await assert.rejects(readBlobsCapped({ cwd: gone, env: testEnv() }, ['0123456789012345678901234567890123456789']), { code: 'GIT' });
    // A folder named relative to this process's: the folder spawn would enter.
    const relative = relativePath(process.cwd(), repo);
    assert.equal((await git(['rev-parse', '--show-toplevel'], { cwd: relative, env: testEnv() })).trim(), repo);
    // Exit codes and output of a git that ran come through as they are.
    assert.deepEqual(await gitOutcome(['rev-parse', '--verify', '-q', 'no-such-ref'], { cwd: repo, env: testEnv() }), { code: 1, output: '' });
    // A git that hangs, killed: a failure, never an empty answer.
    const pidFile = join(tempDir(t), 'pid');
    const bin = fakeGit(t, `echo $$ > "${pidFile}"; exec sleep 30`);
    const running = git(['diff-index', '--cached', 'HEAD'], { cwd: repo, env: testEnv({ PATH: `${bin}:${process.env.PATH}` }) });
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 'the fake git ran');
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    await assert.rejects(running, { code: 'GIT', message: 'git diff-index --cached HEAD failed: stopped by SIGKILL' });
  });

  it('leaves the pool when killed while it waits and is replaced; none is made where perl is missing or dies at once', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    const stop = keepGitStubs();
    t.after(stop);
    await until(() => waiting() === 5, 'five stubs waiting');
    const stubs = children(process.pid, 'perl');
    assert.equal(stubs.length, 5);
    process.kill(stubs[0]!, 'SIGKILL');
    await until(() => waiting() === 4, 'the killed stub left the pool');
    assert.equal((await git(['rev-parse', '--show-toplevel'], { cwd: repo, env: testEnv() })).trim(), repo);
    await until(() => waiting() === 5, 'the pool filled again');
    stop();
    assert.equal(waiting(), 0);
    await until(() => stubs.every((stub) => !alive(stub)), 'stopped stubs are gone');
    // No perl on this process's PATH: no stub, and git is spawned (the run's own PATH finds it).
    const saved = process.env.PATH;
    process.env.PATH = fakeGit(t, 'exit 99');
    try {
      const again = keepGitStubs();
      t.after(again);
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(waiting(), 0);
      assert.equal((await git(['rev-parse', '--show-toplevel'], { cwd: repo, env: testEnv({ PATH: saved }) })).trim(), repo);
      again();
      // A perl that exits as soon as it starts: a few tries, then none.
      const perl = tempDir(t, 'lore-perl-');
      writeFileSync(join(perl, 'perl'), `#!/bin/sh\necho started >> "${join(perl, 'log')}"\nexit 1\n`);
      chmodSync(join(perl, 'perl'), 0o755);
      process.env.PATH = `${perl}:${saved}`;
      const broken = keepGitStubs();
      t.after(broken);
      // Each started and died; after a few, none is started any more.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const tries = readFileSync(join(perl, 'log'), 'utf8');
      assert.ok(tries.length >= 'started\n'.length * 3, tries);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.equal(readFileSync(join(perl, 'log'), 'utf8'), tries);
      assert.equal(waiting(), 0);
    } finally {
      process.env.PATH = saved;
    }
  });

  it('runs Perl with nothing of the environment but PATH (no PERL5OPT, no PERL5LIB)', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    const saved = { ...process.env };
    const lib = tempDir(t, 'lore-perl-lib-');
    writeFileSync(join(lib, 'Loud.pm'), 'package Loud; print STDERR "loaded\\n"; exit 3; 1;\n');
    Object.assign(process.env, { PERL5OPT: '-MLoud', PERL5LIB: lib });
    try {
      await withStubs(t);
    } finally {
      for (const name of ['PERL5OPT', 'PERL5LIB']) if (saved[name] === undefined) delete process.env[name];
    }
    const before = taken();
    assert.equal((await git(['rev-parse', '--show-toplevel'], { cwd: repo, env: testEnv() })).trim(), repo);
    assert.equal(taken(), before + 1);
  });

  it('starts with a spool of its own, or a pipe when spool files cannot be made', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n'.repeat(30_000) });
    const blob = gitSync(repo, ['rev-parse', 'HEAD:a.txt']).trim();
    const stop = keepGitStubs();
    t.after(stop);
    await until(() => waiting() === 5, 'five stubs waiting');
    const started = startGit(['cat-file', '--batch'], { cwd: repo, env: testEnv() }, true);
    assert.equal(typeof started.spool, 'number');
    started.child.stdin!.end();
    await new Promise((resolve) => started.child.on('close', resolve));
    assert.equal(started.child.exitCode, 0);
    stop();
    // No temporary folder: four stubs with pipes, and cat-file through a pipe.
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = join(tempDir(t), 'no-such-folder');
    try {
      const again = keepGitStubs();
      t.after(again);
      await until(() => waiting() === 4, 'four stubs waiting');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(waiting(), 4);
      const read = await readBlobsCapped({ cwd: repo, env: testEnv() }, [blob]);
      assert.equal(read.blobs.get(blob)?.toString('utf8'), 'a\n'.repeat(30_000));
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });
});

describe('lore serve and its stubs', () => {
  it('keeps them as its own children, answers hooks through them, and leaves none behind, stopped or killed', linuxOnly, async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-env')]: prohibition('pro-env', { globs: ['**/.env'] }) });
    const bin = tempDir(t, 'lore-path-');
    symlinkSync(LORE_BIN, join(bin, 'lore'));
    const env = testEnv({ PATH: `${bin}:${process.env.PATH}` });
    assert.equal((await lore(['hook', 'install'], { cwd: repo, env })).code, 0);
    for (const end of ['SIGTERM', 'SIGKILL'] as const) {
      const daemon = await startDaemon(t, repo, ['--no-ui'], { PATH: env.PATH });
      const pid = daemon.child.pid!;
      await until(() => children(pid, 'perl').length === 5, 'five stubs under lore serve');
      const before = children(pid, 'perl');
      writeFiles(repo, { '.env': 'SECRET=1\n' });
      gitSync(repo, ['add', '.env']);
      const result = await gitRun(repo, ['commit', '-q', '-m', 'change'], env);
      assert.deepEqual({ code: result.code, stderr: result.stderr }, { code: 1, stderr: blockedEnv(1) });
      assert.match(daemon.output(), /answered a commit hook in .*: blocked/);
      // The answer's git processes were stubs (they became git and exited); new ones took their place.
      await until(() => children(pid, 'perl').length === 5, 'the pool filled again');
      assert.ok(children(pid, 'perl').filter((stub) => before.includes(stub)).length < 5, 'some stubs were used');
      const stubs = children(pid, 'perl');
      daemon.child.kill(end);
      await new Promise((resolve) => daemon.child.once('exit', resolve));
      await until(() => stubs.every((stub) => !alive(stub)), `no stub outlives a daemon stopped by ${end}`);
      gitSync(repo, ['reset', '-q', 'HEAD', '.env']);
    }
  });
});

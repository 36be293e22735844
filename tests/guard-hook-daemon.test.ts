// `lore serve` answers the pre-commit hook that `lore hook install` writes, and the hook runs lore
// itself whenever the answer is not whole: real repositories, real commits through git, a real
// daemon (killed with SIGKILL in one test), real Perl in the hook.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { RACY_MS } from '../src/fs/read-text.js';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { copyPackage, lore, LORE_BIN } from './helpers/cli.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { blockedEnv, envWithLore, gitRun, guardRepo, prohibition, prohibitionPath } from './helpers/guard.js';
import { gitSync, tempDir, testEnv, writeFiles } from './helpers/temp.js';

const RULES = {
  [prohibitionPath('pro-env')]: prohibition('pro-env', { globs: ['**/.env'] }),
  [prohibitionPath('pro-token')]: prohibition('pro-token', { content: ['tok_[0-9a-f]{8}'] }),
};

const BLOCKED_ENV = blockedEnv(2);

/** A PATH whose `lore` is a link to `bin` (npm's way: the daemon recognises its own install through it). */
function pathWithLore(t: TestContext, bin = LORE_BIN): NodeJS.ProcessEnv {
  const dir = tempDir(t, 'lore-path-');
  symlinkSync(bin, join(dir, 'lore'));
  return testEnv({ PATH: `${dir}:${process.env.PATH}` });
}

/** A guarded repository with lore's hook installed (the shim in .git/hooks). */
async function hookedRepo(t: TestContext, env: NodeJS.ProcessEnv): Promise<string> {
  const repo = guardRepo(t, RULES);
  const install = await lore(['hook', 'install'], { cwd: repo, env });
  assert.equal(install.code, 0, install.stderr);
  return repo;
}

/** Resolves once the daemon printed a line matching `pattern` (at most 20 s). */
async function printed(daemon: Daemon, pattern: RegExp): Promise<void> {
  const until = Date.now() + 20_000;
  while (!pattern.test(daemon.output())) {
    if (Date.now() > until) throw new Error(`lore serve never printed ${pattern}:\n${daemon.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function answering(t: TestContext, repo: string, bin?: string): Promise<Daemon> {
  const daemon = await startDaemon(t, repo, ['--no-ui'], {}, bin);
  await printed(daemon, /answers the pre-commit hook of /);
  return daemon;
}

/** The daemon's lines about hooks, in order ("answered ... blocked", "declined ...: why"). */
const hookLines = (daemon: Daemon): string[] => daemon.output().split('\n').filter((line) => / a commit hook in /.test(line)).map((line) => line.replace(/ \(\d+ ms\)$/, ''));

/** Stages the files and runs git commit with its hooks. */
async function commit(repo: string, env: NodeJS.ProcessEnv, files: Record<string, string>, args: string[] = []): Promise<{ code: number; stderr: string }> {
  writeFiles(repo, files);
  if (!args.includes('-a')) gitSync(repo, ['add', '--', ...Object.keys(files)]);
  const result = await gitRun(repo, ['commit', '-q', ...args, '-m', 'change'], env);
  return { code: result.code, stderr: result.stderr };
}

/** Runs git commit again on what is staged already (a commit the hook blocked). */
async function recommit(repo: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  const result = await gitRun(repo, ['commit', '-q', '-m', 'change'], env);
  return { code: result.code, stderr: result.stderr };
}

describe('lore serve answers the commit hook', () => {
  it('blocks and passes exactly as lore itself does, and the hook asks lore again once the daemon is gone', async (t) => {
    const env = pathWithLore(t);
    const repo = await hookedRepo(t, env);
    const daemon = await answering(t, repo);
    const socket = join(repo, '.git/lore/run/hook.sock');
    assert.equal(lstatSync(join(repo, '.git/lore/run')).mode & 0o777, 0o700);

    const blocked = await commit(repo, env, { '.env': 'SECRET=1\n' });
    assert.deepEqual(blocked, { code: 1, stderr: BLOCKED_ENV });
    gitSync(repo, ['rm', '-q', '--cached', '.env']);
    unlinkSync(join(repo, '.env'));
    const passed = await commit(repo, env, { 'notes.md': 'fine\n' });
    assert.deepEqual(passed, { code: 0, stderr: 'lore: passed: no match for 2 prohibitions in 1 file, 1 added line\n' });
    assert.deepEqual(hookLines(daemon), [`lore serve: answered a commit hook in ${repo}: blocked`, `lore serve: answered a commit hook in ${repo}: passed`]);

    // LORE_NO_DAEMON=1: the hook runs lore itself, and says the same.
    assert.deepEqual(await commit(repo, { ...env, LORE_NO_DAEMON: '1' }, { '.env': 'SECRET=1\n' }), { code: 1, stderr: BLOCKED_ENV });
    gitSync(repo, ['rm', '-q', '--cached', '.env']);
    assert.equal(hookLines(daemon).length, 2);

    // lore hook status still proves that lore itself is reached (its probe never asks the daemon).
    const status = await lore(['hook', 'status', '--json'], { cwd: repo, env });
    assert.equal((JSON.parse(status.stdout) as { runs: boolean }).runs, true);
    assert.equal(hookLines(daemon).length, 2);

    assert.equal(await daemon.stop(), 0);
    assert.equal(existsSync(socket), false, 'a stopped daemon removes its socket');
    assert.deepEqual(await commit(repo, env, { '.env': 'SECRET=1\n' }), { code: 1, stderr: BLOCKED_ENV });
  });

  it('checks what git commit -a commits (the hook\'s GIT_INDEX_FILE), not the index as it was', async (t) => {
    const env = pathWithLore(t);
    const repo = await hookedRepo(t, env);
    const daemon = await answering(t, repo);
    const result = await commit(repo, env, { 'README.md': '# demo\nkey tok_0123abcd\n' }, ['-a']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^BLOCKED pro-token \[critical\]/m);
    assert.match(result.stderr, /README\.md:2:5: matched "tok_0123abcd"/);
    assert.deepEqual(hookLines(daemon), [`lore serve: answered a commit hook in ${repo}: blocked`]);
  });

  it('reads its rule snapshot and automata again once they change on disk, and still blocks over damaged ones', async (t) => {
    const env = pathWithLore(t);
    const repo = await hookedRepo(t, env);
    const daemon = await answering(t, repo);
    assert.deepEqual(await commit(repo, env, { '.env': 'SECRET=1\n' }), { code: 1, stderr: BLOCKED_ENV });
    // Old enough that the daemon keeps their parse between answers (RACY_MS), and kept by one.
    await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));
    assert.deepEqual(await recommit(repo, env), { code: 1, stderr: BLOCKED_ENV });
    const cache = join(repo, '.knowledge/.cache');
    for (const name of ['guard-rules.json', 'guard-literals-paths.bin']) {
      const saved = readFileSync(join(cache, name));
      // Garbage of the same length, written in place: the same inode and size, new times.
      writeFileSync(join(cache, name), Buffer.alloc(saved.length, 0x7b));
      assert.deepEqual(await recommit(repo, env), { code: 1, stderr: BLOCKED_ENV }, name);
      assert.deepEqual(readFileSync(join(cache, name)), saved, `${name}: written again`);
    }
    assert.equal(hookLines(daemon).filter((line) => line.endsWith(': blocked')).length, 4);
  });

  it('after kill -9, its socket is left behind: the hook runs lore itself, and the next daemon takes the socket over', async (t) => {
    const env = pathWithLore(t);
    const repo = await hookedRepo(t, env);
    const first = await answering(t, repo);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    assert.equal(lstatSync(join(repo, '.git/lore/run/hook.sock')).isSocket(), true);
    assert.deepEqual(await commit(repo, env, { '.env': 'SECRET=1\n' }), { code: 1, stderr: BLOCKED_ENV });

    const second = await answering(t, repo);
    const again = await gitRun(repo, ['commit', '-q', '-m', 'change'], env);
    assert.deepEqual([again.code, again.stderr], [1, BLOCKED_ENV]);
    assert.deepEqual(hookLines(second), [`lore serve: answered a commit hook in ${repo}: blocked`]);
  });

  it("is asked without Perl's Socket module on Linux: a Socket that fails to load changes nothing", { skip: process.platform !== 'linux' }, async (t) => {
    const env = pathWithLore(t);
    // The perl first on PATH finds a Socket.pm that dies before the real one.
    const dir = tempDir(t, 'lore-perl-');
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib/Socket.pm'), 'die "this Socket.pm was loaded\\n";\n');
    const perl = execFileSync('sh', ['-c', 'command -v perl'], { encoding: 'utf8' }).trim();
    writeFileSync(join(dir, 'perl'), `#!/bin/sh\nexec "${perl}" -I"${join(dir, 'lib')}" "$@"\n`);
    chmodSync(join(dir, 'perl'), 0o755);
    const withPerl = { ...env, PATH: `${dir}:${env.PATH}` };
    const repo = await hookedRepo(t, env);
    const daemon = await answering(t, repo);
    assert.deepEqual(await commit(repo, withPerl, { '.env': 'SECRET=1\n' }), { code: 1, stderr: BLOCKED_ENV });
    assert.deepEqual(hookLines(daemon), [`lore serve: answered a commit hook in ${repo}: blocked`]);
  });

  it('declines a hook that runs another lore, and one whose lore changed on disk since the daemon started', async (t) => {
    const pkg = copyPackage(t);
    const bin = join(pkg, 'bin/lore.js');
    const repo = await hookedRepo(t, pathWithLore(t, bin));
    const daemon = await answering(t, repo, bin);

    // A wrapper script is another file than the daemon's bin/lore.js: lore runs, and blocks.
    const wrapped = envWithLore(t);
    const wrapper = realpathSync(join(wrapped.PATH!.split(':')[0]!, 'lore'));
    assert.deepEqual(await commit(repo, wrapped, { '.env': 'SECRET=1\n' }), { code: 1, stderr: BLOCKED_ENV });
    const env = pathWithLore(t, bin);
    assert.deepEqual(await recommit(repo, env), { code: 1, stderr: BLOCKED_ENV });
    // The copy's code changes under the running daemon (a rebuild, an upgrade in place).
    utimesSync(join(pkg, 'dist/guard/scan.js'), new Date(), new Date(Date.now() + 5000));
    assert.deepEqual(await recommit(repo, env), { code: 1, stderr: BLOCKED_ENV });
    assert.deepEqual(hookLines(daemon), [
      `lore serve: declined a commit hook in ${repo}: the hook runs ${wrapper}, not this daemon's ${realpathSync(bin)}`,
      `lore serve: answered a commit hook in ${repo}: blocked`,
      `lore serve: declined a commit hook in ${repo}: lore changed on disk since this daemon started (restart lore serve)`,
    ]);
  });

  it('declines once a dependency of its install is updated on disk (its package.json rewritten), and lore answers itself', async (t) => {
    // A copy of lore with a node_modules of its own: re2js copied (to be "updated"), the rest linked.
    const pkg = copyPackage(t);
    const modules = join(pkg, 'node_modules');
    unlinkSync(modules);
    mkdirSync(modules);
    const shared = join(LORE_BIN, '../../node_modules');
    for (const name of readdirSync(shared)) {
      if (name === 're2js') cpSync(join(shared, name), join(modules, name), { recursive: true });
      else symlinkSync(join(shared, name), join(modules, name));
    }
    const bin = join(pkg, 'bin/lore.js');
    const env = pathWithLore(t, bin);
    const repo = await hookedRepo(t, env);
    const daemon = await answering(t, repo, bin);
    assert.deepEqual(await commit(repo, env, { '.env': 'SECRET=1\n' }), { code: 1, stderr: BLOCKED_ENV });
    writeFileSync(join(modules, 're2js/package.json'), readFileSync(join(modules, 're2js/package.json')));
    const again = await gitRun(repo, ['commit', '-q', '-m', 'change'], env);
    assert.deepEqual([again.code, again.stderr], [1, BLOCKED_ENV]);
    assert.deepEqual(hookLines(daemon), [
      `lore serve: answered a commit hook in ${repo}: blocked`,
      `lore serve: declined a commit hook in ${repo}: lore changed on disk since this daemon started (restart lore serve)`,
    ]);
  });

  it("declines a hook that would run lore with another node or other Node options, which lore then runs itself", async (t) => {
    const env = pathWithLore(t);
    const repo = await hookedRepo(t, env);
    const daemon = await answering(t, repo);
    // Another node first on PATH: a script that runs the same Node (bin/lore.js starts with /usr/bin/env node).
    const dir = tempDir(t, 'lore-node-');
    writeFileSync(join(dir, 'node'), `#!/bin/sh\nexec "${process.execPath}" "$@"\n`);
    chmodSync(join(dir, 'node'), 0o755);
    assert.deepEqual(await commit(repo, { ...env, PATH: `${dir}:${env.PATH}` }, { '.env': 'SECRET=1\n' }), { code: 1, stderr: BLOCKED_ENV });
    const again = await gitRun(repo, ['commit', '-q', '-m', 'change'], { ...env, NODE_OPTIONS: '--max-old-space-size=512' });
    assert.deepEqual([again.code, again.stderr], [1, BLOCKED_ENV]);
    assert.deepEqual(hookLines(daemon), [
      `lore serve: declined a commit hook in ${repo}: the hook's node is ${join(dir, 'node')}, not this daemon's ${realpathSync(process.execPath)}`,
      `lore serve: declined a commit hook in ${repo}: the hook's NODE_OPTIONS is not this daemon's`,
    ]);
  });

  it('is never asked through a run folder that others can enter', async (t) => {
    const env = pathWithLore(t);
    const repo = await hookedRepo(t, env);
    const daemon = await answering(t, repo);
    // Perl's own options from the environment never reach the client (-MO=Deparse would end it with exit 0).
    assert.deepEqual(await commit(repo, { ...env, PERL5OPT: '-MO=Deparse' }, { '.env': 'SECRET=1\n' }), { code: 1, stderr: BLOCKED_ENV });
    chmodSync(join(repo, '.git/lore/run'), 0o755);
    const again = await gitRun(repo, ['commit', '-q', '-m', 'change'], env);
    assert.deepEqual([again.code, again.stderr], [1, BLOCKED_ENV]);
    assert.deepEqual(hookLines(daemon), [`lore serve: answered a commit hook in ${repo}: blocked`]);
  });

  it('a listener that answers less than a whole frame cannot pass a commit: the hook runs lore', async (t) => {
    const env = pathWithLore(t);
    const repo = await hookedRepo(t, env);
    const dir = join(repo, '.git/lore/run');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Each says "passed, exit 0" in a frame that is cut short, too long, or not the protocol.
    for (const reply of ['lore-hook/1 0 0 9\nlore: ok', 'lore-hook/1 0 0 2\nokok', 'lore-hook/1 3 0 0\n', 'lore-hook/2 0 0 0\n', 'declined\n']) {
      const server = createServer({ allowHalfOpen: true }, (socket) => socket.on('end', () => socket.end(reply)).resume());
      socket(server, join(dir, 'hook.sock'));
      await new Promise((resolve) => server.once('listening', resolve));
      assert.deepEqual(await commit(repo, env, { '.env': 'SECRET=1\n' }), { code: 1, stderr: BLOCKED_ENV }, `after ${JSON.stringify(reply)}`);
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("a listener of another user in the hook's own run folder cannot pass a commit: the hook runs lore", { skip: process.getuid?.() === 0 ? false : 'needs root, to listen as another user' }, async (t) => {
    const env = pathWithLore(t);
    const repo = await hookedRepo(t, env);
    const dir = join(repo, '.git/lore/run');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Listens where its user can, says "passed" in a whole frame, and its socket is then moved into
    // the run folder (what a rename of .git/lore between the hook's look and its connect would do).
    const listener = "const [path, reply] = process.argv.slice(1); require('node:net').createServer({ allowHalfOpen: true }, (c) => c.on('error', () => undefined).on('end', () => c.end(reply)).resume()).listen(path, () => console.log('listening'));";
    const forged = async (uid: number, files: Record<string, string>): Promise<{ code: number; stderr: string }> => {
      const spot = tempDir(t, 'lore-listener-');
      chmodSync(spot, 0o777);
      const child = spawn(process.execPath, ['-e', listener, join(spot, 'l.sock'), 'lore-hook/1 0 0 0\n'], { uid, stdio: ['ignore', 'pipe', 'inherit'] });
      try {
        // A listener that cannot start (its user cannot run node) fails the test rather than hang it.
        await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(([code]) => { throw new Error(`the listener as uid ${uid} exited with ${code}`); })]);
        renameSync(join(spot, 'l.sock'), join(dir, 'hook.sock'));
        return await commit(repo, env, files);
      } finally {
        child.kill();
      }
    };
    assert.deepEqual(await forged(65534, { '.env': 'SECRET=1\n' }), { code: 1, stderr: BLOCKED_ENV });
    // The same listener run as this user is believed: its user is what the hook refused.
    assert.deepEqual(await forged(process.getuid!(), { '.env': 'SECRET=2\n' }), { code: 0, stderr: '' });
  });

  it('answers a request that is not one with a refusal, and keeps serving', async (t) => {
    const env = pathWithLore(t);
    const repo = await hookedRepo(t, env);
    await answering(t, repo);
    const ask = (bytes: string): Promise<string> => new Promise((resolve, reject) => {
      const client = connect(join(repo, '.git/lore/run/hook.sock'));
      let answer = '';
      client.on('data', (chunk: Buffer) => { answer += chunk.toString(); });
      client.on('end', () => resolve(answer));
      client.on('error', reject);
      client.end(bytes);
    });
    // Fields: protocol, lore, its arguments, directory, tty, columns, then NAME=value each. Each
    // request below is one the daemon answers (the control) but for the one thing wrong with it.
    const path = `PATH=${env.PATH}`;
    assert.match(await ask(`lore-hook/1\0lore\0hook pre-commit\0${repo}\x000\x000\0${path}\0\0`), /^lore-hook\/1 0 0 \d+\nlore: passed: /);
    assert.equal(await ask(`lore-hook/1\0lore\0hook pre-commit\0.\x000\x000\0${path}\0\0`), 'lore-hook/1 declined\n');
    assert.equal(await ask('GET / HTTP/1.1\r\n\r\n\0\0'), 'lore-hook/1 declined\n');
    assert.equal(await ask(`lore-hook/1\0lore\0hook pre-commit\0${repo}\x000\x000\0${path}\0NO_EQUALS_SIGN\0\0`), 'lore-hook/1 declined\n');
    assert.equal(await ask(`lore-hook/1\0lore\0hook status\0${repo}\x000\x000\0${path}\0\0`), 'lore-hook/1 declined\n');
    assert.deepEqual(await commit(repo, env, { '.env': 'SECRET=1\n' }), { code: 1, stderr: BLOCKED_ENV });
  });
});

function socket(server: ReturnType<typeof createServer>, path: string): void {
  if (existsSync(path)) unlinkSync(path);
  server.listen(path);
}

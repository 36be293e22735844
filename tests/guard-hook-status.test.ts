import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { pathToFileURL } from 'node:url';
import { inProcess } from './helpers/cli.js';
import { envWithLore, gitRun, guardRepo, prohibition, prohibitionPath } from './helpers/guard.js';
import { gitSync, testEnv } from './helpers/temp.js';

const { lore } = inProcess;

const HUSKY = pathToFileURL(join(import.meta.dirname, '../node_modules/husky/index.js')).href;

/** A repository with .husky/pre-commit committed, set up by husky's own installer. */
function huskyRepo(t: TestContext, userHook: string): string {
  const repo = guardRepo(t, { '.husky/pre-commit': userHook });
  execFileSync(process.execPath, ['--input-type=module', '-e', `import husky from ${JSON.stringify(HUSKY)}; const r = husky(); if (r !== '') throw new Error(r);`], { cwd: repo, env: testEnv() });
  return repo;
}

/** A user command that leaves a file behind when it runs: the dry run must not run it. */
const SIDE_EFFECT = 'echo ran > side-effect.txt';

describe('lore hook status', () => {
  it('proves lore runs from husky by a dry run that stops at lore, before the hook\'s other commands', async (t) => {
    const repo = huskyRepo(t, `${SIDE_EFFECT}\n`);
    const env = envWithLore(t);
    const user = join(repo, '.husky/pre-commit');
    const runner = join(repo, '.husky/_/pre-commit');

    assert.deepEqual(await lore(['hook', 'status'], { cwd: repo, env }), {
      code: 1,
      stdout: `lore does not run on commit (husky): husky runs ${user}, and lore's line does not run first: lore's line is not in it\nfix: Run lore hook install\n`,
      stderr: '',
    });
    assert.equal((await lore(['hook', 'install'], { cwd: repo, env })).code, 0);
    assert.deepEqual(await lore(['hook', 'status'], { cwd: repo, env: { ...env, LORE_SKIP: '1' } }), {
      code: 0,
      stdout: `lore runs on commit (husky): husky runs ${user} (git runs ${runner})\nproof: a dry run (git hook run pre-commit) reached lore hook pre-commit as its first command, and stopped there\n`,
      stderr: '',
    });
    const asJson = await lore(['hook', 'status', '--json'], { cwd: join(repo, '.husky'), env });
    assert.deepEqual([asJson.code, JSON.parse(asJson.stdout)], [0, {
      manager: 'husky',
      file: runner,
      via: user,
      runs: true,
      proof: 'dry-run',
      message: `husky runs ${user} (git runs ${runner})`,
      evidence: 'a dry run (git hook run pre-commit) reached lore hook pre-commit as its first command, and stopped there',
    }]);
    assert.equal(existsSync(join(repo, 'side-effect.txt')), false);
  });

  it("proves lore's shim runs without running the hook it chains, and says when there is no hook at all", async (t) => {
    const repo = guardRepo(t);
    const env = envWithLore(t);
    const hook = join(repo, '.git/hooks/pre-commit');
    assert.deepEqual(await lore(['hook', 'status', '--json'], { cwd: repo, env }), {
      code: 1,
      stdout: `${JSON.stringify({ manager: 'none', file: hook, runs: false, message: `${hook} does not exist, so git runs no pre-commit hook`, fix: 'Run lore hook install' }, null, 2)}\n`,
      stderr: '',
    });

    writeFileSync(hook, `#!/bin/sh\n${SIDE_EFFECT}\n`, { mode: 0o755 });
    assert.deepEqual(await lore(['hook', 'status'], { cwd: repo, env }), { code: 1, stdout: `lore does not run on commit (git): git runs ${hook}, which does not run lore\nfix: Run lore hook install\n`, stderr: '' });
    assert.equal((await lore(['hook', 'install'], { cwd: repo, env })).code, 0);
    assert.deepEqual(await lore(['hook', 'status'], { cwd: repo, env }), {
      code: 0,
      stdout: `lore runs on commit (git): git runs lore's shim ${hook}\nproof: a dry run (git hook run pre-commit) reached lore hook pre-commit without running the hook it chains\n`,
      stderr: '',
    });
    assert.equal(existsSync(join(repo, 'side-effect.txt')), false);
  });

  it('fails the proof, printing what the hook said, when lore cannot be found, and when hooks are off', async (t) => {
    const repo = guardRepo(t);
    const hook = join(repo, '.githooks/pre-commit');
    gitSync(repo, ['config', 'core.hooksPath', '.githooks']);
    mkdirSync(join(repo, '.githooks'));
    assert.equal((await lore(['hook', 'install'], { cwd: repo, env: envWithLore(t) })).code, 0);
    // git, sh and the basic tools, but no lore.
    const bare = testEnv({ PATH: '/usr/local/bin:/usr/bin:/bin' });
    const result = await lore(['hook', 'status'], { cwd: repo, env: { ...envWithLore(t), PATH: bare.PATH } });
    assert.deepEqual(result, {
      code: 1,
      stdout: `lore does not run on commit (hooks-path): git runs lore's shim ${hook}, but a dry run (git hook run pre-commit) exited 2 without reaching lore hook pre-commit\nthe dry run printed:\n  lore: the pre-commit hook cannot find lore (install it in this repository: npm install); LORE_SKIP=1 skips it\nfix: Run lore hook install\n`,
      stderr: '',
    });

    gitSync(repo, ['config', 'core.hooksPath', '/dev/null']);
    assert.deepEqual(await lore(['hook', 'status'], { cwd: repo, env: envWithLore(t) }), {
      code: 1,
      stdout: 'lore does not run on commit (none): git looks for hooks in /dev/null, which is not a folder (core.hooksPath), so git runs no hooks\nfix: Point core.hooksPath at a folder, or unset it (git config --unset core.hooksPath), then run lore hook install\n',
      stderr: '',
    });
  });

  it('does not dry-run a hook where something of the user\'s would run before lore', async (t) => {
    const repo = guardRepo(t);
    const hook = join(repo, '.git/hooks/pre-commit');
    writeFileSync(hook, `#!/bin/sh\n${SIDE_EFFECT}\nlore hook pre-commit # lore-hook-shim\n`, { mode: 0o755 });
    assert.deepEqual(await lore(['hook', 'status'], { cwd: repo, env: envWithLore(t) }), {
      code: 1,
      stdout: `lore does not run on commit (git): ${hook} carries lore's marker but is not lore's shim or line as lore writes them, so lore cannot prove what it runs\nfix: Run lore hook uninstall, then lore hook install\n`,
      stderr: '',
    });
    assert.equal(existsSync(join(repo, 'side-effect.txt')), false);
  });

  it("reports lefthook's hook that cannot find lefthook: the dry run does not reach lore, and the fix is lefthook's config", async (t) => {
    const repo = guardRepo(t, { 'lefthook.yml': 'pre-commit:\n  commands:\n    lore:\n      run: ./node_modules/.bin/lore hook pre-commit\n' });
    const hook = join(repo, '.git/hooks/pre-commit');
    writeFileSync(hook, readFileSync(join(import.meta.dirname, 'fixtures/lefthook-pre-commit.sh'), 'utf8'), { mode: 0o755 });
    const config = join(repo, 'lefthook.yml');
    const result = await lore(['hook', 'status', '--json'], { cwd: repo, env: envWithLore(t) });
    assert.deepEqual([result.code, JSON.parse(result.stdout)], [1, {
      manager: 'lefthook',
      file: hook,
      via: config,
      runs: false,
      message: `lefthook runs ${hook}, and a dry run (git hook run pre-commit) exited 0 without reaching lore hook pre-commit (lefthook's config must name lore's command lore)`,
      fix: `Add lore to ${config} (merge it into the pre-commit section, if there is one)`,
      text: 'pre-commit:\n  commands:\n    lore:\n      run: ./node_modules/.bin/lore hook pre-commit\n',
      output: "Can't find lefthook in PATH\n",
    }]);
  });

  it('proves lore runs through a real lefthook, asked for its command lore alone (LORE_TEST_LEFTHOOK: the lefthook binary)', async (t) => {
    const binary = process.env.LORE_TEST_LEFTHOOK;
    if (binary === undefined || binary === '') return t.skip('set LORE_TEST_LEFTHOOK to a lefthook binary (npm install --ignore-scripts lefthook, in a temp folder)');
    const repo = guardRepo(t, { [prohibitionPath('pro-env')]: prohibition('pro-env', { globs: ['**/.env'] }), 'lefthook.yml': `pre-commit:\n  commands:\n    lint:\n      run: ${SIDE_EFFECT}\n    lore:\n      run: lore hook pre-commit\n` });
    execFileSync(binary, ['install'], { cwd: repo, env: testEnv() });
    const env = { ...envWithLore(t), LEFTHOOK_BIN: binary };
    const hook = join(repo, '.git/hooks/pre-commit');
    assert.deepEqual(await lore(['hook', 'status'], { cwd: repo, env }), {
      code: 0,
      stdout: `lore runs on commit (lefthook): lefthook runs the command lore of ${join(repo, 'lefthook.yml')} (git runs ${hook})\nproof: a dry run (git hook run pre-commit -- --command lore) reached lore hook pre-commit and ran no other command\n`,
      stderr: '',
    });
    assert.equal(existsSync(join(repo, 'side-effect.txt')), false);
    // lore hook install leaves lefthook's hooks alone, so lore runs once per commit: from lefthook.
    assert.equal((await lore(['hook', 'install'], { cwd: repo, env })).code, 1);
    writeFileSync(join(repo, '.env'), 'SECRET=1\n');
    gitSync(repo, ['add', '.env']);
    const result = await gitRun(repo, ['commit', '-q', '-m', 'env'], env);
    assert.equal(result.code, 1);
    assert.equal(`${result.stdout}${result.stderr}`.split('lore: scanned the staged change').length - 1, 1);
  });

  it('proves the pre-commit framework runs lore from its config, without a dry run', async (t) => {
    const config = 'repos:\n  - repo: https://example.com/lore\n    rev: v0.1.0\n    hooks:\n      - id: lore\n';
    const repo = guardRepo(t, { '.pre-commit-config.yaml': config });
    const hook = join(repo, '.git/hooks/pre-commit');
    // The hook pre-commit 4.6 installs (its hook-tmpl, templated as `pre-commit install` does); it needs python, which the proof never runs.
    writeFileSync(hook, readFileSync(join(import.meta.dirname, 'fixtures/pre-commit-framework-hook.sh'), 'utf8'), { mode: 0o755 });
    const path = join(repo, '.pre-commit-config.yaml');
    assert.deepEqual(await lore(['hook', 'status'], { cwd: repo, env: envWithLore(t) }), {
      code: 0,
      stdout: `lore runs on commit (pre-commit): the pre-commit framework runs ${path} (git runs ${hook})\nproof: ${path} has the hook lore for the pre-commit stage (no dry run: it would run the other hooks too)\n`,
      stderr: '',
    });

    writeFileSync(path, config.replace('id: lore', 'id: lore\n        stages: [pre-push]'));
    assert.deepEqual(await lore(['hook', 'status'], { cwd: repo, env: envWithLore(t) }), {
      code: 1,
      stdout: `lore does not run on commit (pre-commit): the pre-commit framework runs ${hook}, but ${path} has no hook lore for the pre-commit stage\nfix: Add the lore hook to ${path} (see docs/guides/adopting.md, "Setting up the hook")\n`,
      stderr: '',
    });

    writeFileSync(path, 'repos: [\n');
    const broken = await lore(['hook', 'status'], { cwd: repo, env: envWithLore(t) });
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, new RegExp(`could not read ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('lore hook pre-commit under the probe says it was reached and exits 3 without checking anything', async (t) => {
    const repo = guardRepo(t, { '.knowledge/config.yaml': 'not: [valid\n' });
    assert.deepEqual(await lore(['hook', 'pre-commit'], { cwd: repo, env: envWithLore(t, { LORE_HOOK_PROBE: 'abc123' }) }), {
      code: 3,
      stdout: '',
      stderr: 'lore: hook probe abc123: lore hook pre-commit was reached; nothing was checked\n',
    });
  });

  it('an exported LORE_HOOK_PROBE blocks a real git commit instead of letting it through unchecked', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-env')]: prohibition('pro-env', { globs: ['**/.env'] }) });
    const env = envWithLore(t, { LORE_HOOK_PROBE: '1' });
    assert.equal((await lore(['hook', 'install'], { cwd: repo, env: envWithLore(t) })).code, 0);
    const head = gitSync(repo, ['rev-parse', 'HEAD']);
    writeFileSync(join(repo, '.env'), 'SECRET=1\n');
    gitSync(repo, ['add', '.env']);
    assert.deepEqual(await gitRun(repo, ['commit', '-q', '-m', 'env'], env), {
      code: 1,
      stdout: '',
      stderr: 'lore: hook probe 1: lore hook pre-commit was reached; nothing was checked\n',
    });
    assert.equal(gitSync(repo, ['rev-parse', 'HEAD']), head);
  });
});

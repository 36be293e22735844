import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { pathToFileURL } from 'node:url';
import { inProcess } from './helpers/cli.js';
import { blockedEnv, envWithLore, gitRun, guardRepo, prohibition, prohibitionPath } from './helpers/guard.js';
import { gitSync, tempDir, testEnv, writeFiles } from './helpers/temp.js';
import { LORE_HOOK } from '../src/guard/_hook-script.js';
import { PREVIOUS_SHIMS, SHIM } from '../src/guard/_hook-files.js';

const { lore } = inProcess;

/** The line lore puts in a husky hook, as users will read it: husky 9.1+ puts node_modules/.bin on PATH. */
const LINE = `${LORE_HOOK} if [ "\${LORE_SKIP:-}" = "1" ]; then echo "lore: LORE_SKIP=1: the pre-commit check was skipped" >&2; elif command -v lore >/dev/null 2>&1; then lore_hook lore hook pre-commit || exit $?; else echo "lore: the pre-commit hook cannot find lore (install it in this repository: npm install); LORE_SKIP=1 skips it" >&2; exit 2; fi # lore-hook-shim`;

/** The line lore puts in a tracked hook file that git runs itself (no PATH from a manager). */
const GIT_LINE = `${LORE_HOOK} if [ "\${LORE_SKIP:-}" = "1" ]; then echo "lore: LORE_SKIP=1: the pre-commit check was skipped" >&2; elif [ -x ./node_modules/.bin/lore ]; then lore_hook ./node_modules/.bin/lore hook pre-commit || exit $?; elif command -v lore >/dev/null 2>&1; then lore_hook lore hook pre-commit || exit $?; else echo "lore: the pre-commit hook cannot find lore (install it in this repository: npm install); LORE_SKIP=1 skips it" >&2; exit 2; fi # lore-hook-shim`;
/** What an earlier lore wrote (it never asked lore serve). */
const PREVIOUS_GIT_LINE = 'if [ "${LORE_SKIP:-}" = "1" ]; then echo "lore: LORE_SKIP=1: the pre-commit check was skipped" >&2; elif [ -x ./node_modules/.bin/lore ]; then ./node_modules/.bin/lore hook pre-commit || exit $?; elif command -v lore >/dev/null 2>&1; then lore hook pre-commit || exit $?; else echo "lore: the pre-commit hook cannot find lore (install it in this repository: npm install); LORE_SKIP=1 skips it" >&2; exit 2; fi # lore-hook-shim';

/** What lore wrote on 2026-11-29 (063acb4 to 6ebf3ae), whose client asked lore serve without checking who listens: tests/fixtures/hooks-2026-11-29/. */
/** What earlier lores wrote, by the folder of fixtures that holds it. */
const UNCHECKED_CLIENT = 'hooks-2026-11-29';
const SOCKET_MODULE_CLIENT = 'hooks-socket-module';
const EARLIER = (name: 'shim' | 'hook-line' | 'husky-line', version = UNCHECKED_CLIENT): string => readFileSync(new URL(`fixtures/${version}/${name}`, import.meta.url), 'utf8');
/** Why install rewrites each, as status says it. */
const EARLIER_WHY = [[UNCHECKED_CLIENT, 'whose client does not check who answers on the socket'], [SOCKET_MODULE_CLIENT, "whose client loads Perl's Socket module on every commit"]] as const;

const ENV_RULE = { [prohibitionPath('pro-env')]: prohibition('pro-env', { globs: ['**/.env'] }) };

/** What lore says (on stderr, through git) when the commit stages `.env`. */
const BLOCKED = blockedEnv(1);
const PASSED = 'lore: passed: no match for 1 prohibition in 1 file, 1 added line\n';
const HUSKY_FAILED = 'husky - pre-commit script failed (code 1)\n';

const HUSKY = pathToFileURL(join(import.meta.dirname, '../node_modules/husky/index.js')).href;

/** A guarded repository with .husky/pre-commit committed (when given), set up by husky 9's own installer. */
function huskyRepo(t: TestContext, userHook?: string): string {
  const repo = guardRepo(t, { ...ENV_RULE, ...(userHook === undefined ? {} : { '.husky/pre-commit': userHook }) });
  execFileSync(process.execPath, ['--input-type=module', '-e', `import husky from ${JSON.stringify(HUSKY)}; const r = husky(); if (r !== '') throw new Error(r);`], { cwd: repo, env: testEnv() });
  return repo;
}

const head = (repo: string): string => gitSync(repo, ['rev-parse', 'HEAD']).trim();

/** Stages the files and runs `git commit` with its hooks; says whether HEAD moved. */
async function commit(repo: string, env: NodeJS.ProcessEnv, files: Record<string, string>): Promise<{ code: number; stderr: string; committed: boolean }> {
  const before = head(repo);
  writeFiles(repo, files);
  gitSync(repo, ['add', '--', ...Object.keys(files)]);
  const result = await gitRun(repo, ['commit', '-q', '-m', 'change'], env);
  return { code: result.code, stderr: result.stderr, committed: head(repo) !== before };
}

/** A directory on PATH with a fake `npx` that says what it was asked to run. */
function withFakeNpx(t: TestContext, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const bin = tempDir(t, 'lore-npx-');
  writeFileSync(join(bin, 'npx'), '#!/bin/sh\necho "npx $* ran"\n');
  chmodSync(join(bin, 'npx'), 0o755);
  return { ...env, PATH: `${bin}:${env.PATH}` };
}

const TRACKED = (hook: string): string => `${hook} is tracked by git: commit the change so that the team runs lore too\n`;
/** What install prints for husky's user hook, committed in these tests unless `tracked` is false. */
const installed = (hook: string, repo: string, extra = '', tracked = true): string => `installed lore's pre-commit hook in ${hook} as its first command (git runs it through husky's ${join(repo, '.husky/_/pre-commit')})${extra}\n${tracked ? TRACKED(hook) : ''}`;

describe('lore hook install with husky', () => {
  it('puts its line before the exit 0 that ends a husky hook, so a staged .env is blocked', async (t) => {
    const original = 'echo "lint ran"\nexit 0\n';
    const repo = huskyRepo(t, original);
    const env = envWithLore(t);
    const hook = join(repo, '.husky/pre-commit');
    const mode = statSync(hook).mode;

    assert.deepEqual(await lore(['hook', 'install'], { cwd: repo, env }), { code: 0, stdout: installed(hook, repo), stderr: '' });
    assert.equal(readFileSync(hook, 'utf8'), `${LINE}\necho "lint ran"\nexit 0\n`);
    assert.equal(statSync(hook).mode, mode);

    assert.deepEqual(await commit(repo, env, { '.env': 'SECRET=1\n' }), { code: 1, stderr: `${BLOCKED}${HUSKY_FAILED}`, committed: false });

    gitSync(repo, ['rm', '-q', '--cached', '.env']);
    assert.deepEqual(await commit(repo, env, { 'ok.txt': 'fine\n' }), { code: 0, stderr: `${PASSED}lint ran\n`, committed: true });

    assert.deepEqual(await lore(['hook', 'uninstall'], { cwd: repo, env }), { code: 0, stdout: `removed lore's pre-commit hook from ${hook}\n`, stderr: '' });
    assert.equal(readFileSync(hook, 'utf8'), original);
    assert.equal(gitSync(repo, ['status', '--porcelain', '--', '.husky']), '');
  });

  it('runs lore before an exec that replaces a husky hook, and the exec still runs when lore passes', async (t) => {
    const repo = huskyRepo(t, '# lint what is staged\nexec npx lint-staged\n');
    const env = withFakeNpx(t, envWithLore(t));
    const hook = join(repo, '.husky/pre-commit');

    assert.deepEqual(await lore(['hook', 'install'], { cwd: repo, env }), { code: 0, stdout: installed(hook, repo), stderr: '' });
    assert.equal(readFileSync(hook, 'utf8'), `# lint what is staged\n${LINE}\nexec npx lint-staged\n`);

    assert.deepEqual(await commit(repo, env, { '.env': 'SECRET=1\n' }), { code: 1, stderr: `${BLOCKED}${HUSKY_FAILED}`, committed: false });
    gitSync(repo, ['rm', '-q', '--cached', '.env']);
    assert.deepEqual(await commit(repo, env, { 'ok.txt': 'fine\n' }), { code: 0, stderr: `${PASSED}npx lint-staged ran\n`, committed: true });
  });

  it('keeps a husky hook that sets -e working: lore runs first, then the commands in order', async (t) => {
    const repo = huskyRepo(t, '#!/bin/sh\n# format, then lint\nset -e\necho "format ran"\necho "lint ran"\n');
    const env = envWithLore(t);
    const hook = join(repo, '.husky/pre-commit');

    assert.deepEqual(await lore(['hook', 'install'], { cwd: repo, env }), { code: 0, stdout: installed(hook, repo), stderr: '' });
    assert.equal(readFileSync(hook, 'utf8'), `#!/bin/sh\n# format, then lint\n${LINE}\nset -e\necho "format ran"\necho "lint ran"\n`);

    assert.deepEqual(await commit(repo, env, { '.env': 'SECRET=1\n' }), { code: 1, stderr: `${BLOCKED}${HUSKY_FAILED}`, committed: false });
    gitSync(repo, ['rm', '-q', '--cached', '.env']);
    assert.deepEqual(await commit(repo, env, { 'ok.txt': 'fine\n' }), { code: 0, stderr: `${PASSED}format ran\nlint ran\n`, committed: true });
  });

  it('lets LORE_SKIP=1 through visibly, and fails closed with exit 2 when lore is nowhere to be found', async (t) => {
    const repo = huskyRepo(t, 'echo "lint ran"\n');
    assert.equal((await lore(['hook', 'install'], { cwd: repo, env: envWithLore(t) })).code, 0);

    const skipped = await commit(repo, envWithLore(t, { LORE_SKIP: '1' }), { '.env': 'SECRET=1\n' });
    assert.deepEqual(skipped, { code: 0, stderr: 'lore: LORE_SKIP=1: the pre-commit check was skipped\nlint ran\n', committed: true });

    // No lore anywhere: git, sh and the tools husky's runner uses, nothing else.
    const bare = testEnv({ PATH: [...new Set([dirname(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()), '/usr/bin', '/bin'])].join(':') });
    const missing = await commit(repo, bare, { 'ok.txt': 'fine\n' });
    assert.deepEqual(missing, { code: 1, stderr: 'lore: the pre-commit hook cannot find lore (install it in this repository: npm install); LORE_SKIP=1 skips it\nhusky - pre-commit script failed (code 2)\n', committed: false });
  });

  it('refuses a husky hook written in another language, changes nothing and says what to edit', async (t) => {
    const original = '#!/usr/bin/env node\nconsole.log("checks ran");\n';
    const repo = huskyRepo(t, original);
    const env = envWithLore(t);
    const hook = join(repo, '.husky/pre-commit');
    const message = `${hook} is not a shell script (#!/usr/bin/env node), and husky runs it with sh, so lore cannot add its line to it`;
    const fix = `Make ${hook} a shell script by hand: move its code to a file of its own, call that file from ${hook}, and put this line before every other command`;

    assert.deepEqual(await lore(['hook', 'install'], { cwd: repo, env }), { code: 1, stdout: '', stderr: `lore: hook not installed: ${message}. Nothing was changed.\n${fix}:\n\n${LINE}\n` });
    const asJson = await lore(['hook', 'install', '--json'], { cwd: repo, env });
    assert.deepEqual([asJson.code, JSON.parse(asJson.stdout), asJson.stderr], [1, { file: hook, style: 'husky', manager: 'husky', runner: join(repo, '.husky/_/pre-commit'), tracked: true, status: 'refused', reason: 'not-a-shell-script', message, fix, text: `${LINE}\n` }, '']);
    assert.equal(readFileSync(hook, 'utf8'), original);
    assert.equal(gitSync(repo, ['status', '--porcelain']), '');
  });

  it('moves a lore line that an earlier install appended after exit 0 to the top', async (t) => {
    const repo = huskyRepo(t, 'echo "lint ran"\nexit 0\nnpx --no-install lore hook pre-commit # lore-hook-shim\n');
    const env = envWithLore(t);
    const hook = join(repo, '.husky/pre-commit');

    assert.deepEqual(await lore(['hook', 'install'], { cwd: repo, env }), { code: 0, stdout: installed(hook, repo, "; it replaced lore's earlier line 3"), stderr: '' });
    assert.equal(readFileSync(hook, 'utf8'), `${LINE}\necho "lint ran"\nexit 0\n`);
    assert.deepEqual(await lore(['hook', 'install'], { cwd: repo, env }), { code: 0, stdout: `lore's pre-commit hook is already installed in ${hook}\n`, stderr: '' });
    assert.deepEqual(await commit(repo, env, { '.env': 'SECRET=1\n' }), { code: 1, stderr: `${BLOCKED}${HUSKY_FAILED}`, committed: false });
  });

  it('creates the husky hook when there is none, and uninstall deletes it again', async (t) => {
    const repo = huskyRepo(t);
    const env = envWithLore(t);
    const hook = join(repo, '.husky/pre-commit');

    const asJson = await lore(['hook', 'install', '--json'], { cwd: repo, env });
    assert.deepEqual([asJson.code, JSON.parse(asJson.stdout)], [0, { file: hook, style: 'husky', manager: 'husky', runner: join(repo, '.husky/_/pre-commit'), tracked: false, status: 'installed' }]);
    assert.equal(readFileSync(hook, 'utf8'), `${LINE}\n`);
    assert.deepEqual(await commit(repo, env, { '.env': 'SECRET=1\n' }), { code: 1, stderr: `${BLOCKED}${HUSKY_FAILED}`, committed: false });

    await lore(['hook', 'uninstall'], { cwd: repo, env });
    assert.equal(existsSync(hook), false);
  });

  it("refuses when git would not run husky's runner, and changes nothing", async (t) => {
    const original = 'npm test\n';
    const repo = huskyRepo(t, original);
    const env = envWithLore(t);
    const hook = join(repo, '.husky/pre-commit');
    const runner = join(repo, '.husky/_/pre-commit');
    chmodSync(runner, 0o644);

    const result = await lore(['hook', 'install'], { cwd: repo, env });
    assert.deepEqual(result, {
      code: 1,
      stdout: '',
      stderr: `lore: hook not installed: ${runner} is not executable (git skips it), so lore cannot prove that git runs ${hook} with lore on PATH. Nothing was changed.\nInstall husky 9.1 or later and run npx husky to restore husky's files in ${join(repo, '.husky/_')}, then lore hook install again:\n\n${LINE}\n`,
    });
    assert.equal(readFileSync(hook, 'utf8'), original);
  });
});

describe('lore hook install with husky, versions and upgrades', () => {
  it("refuses husky 9.0, whose runner does not put node_modules/.bin on PATH, and changes nothing", async (t) => {
    const original = 'npm test\n';
    const repo = huskyRepo(t, original);
    const h = join(repo, '.husky/_/h');
    // husky 9.0's h is 9.1's without the PATH line (typicode/husky v9.0.11 and v9.1.7, compared).
    writeFileSync(h, readFileSync(h, 'utf8').replace('export PATH="node_modules/.bin:$PATH"\n', ''));
    const hook = join(repo, '.husky/pre-commit');
    assert.deepEqual(await lore(['hook', 'install'], { cwd: repo, env: envWithLore(t) }), {
      code: 1,
      stdout: '',
      stderr: `lore: hook not installed: ${h} does not put node_modules/.bin on PATH (husky 9.0; lore's line needs husky 9.1 or later), so lore cannot prove that git runs ${hook} with lore on PATH. Nothing was changed.\nInstall husky 9.1 or later and run npx husky to restore husky's files in ${join(repo, '.husky/_')}, then lore hook install again:\n\n${LINE}\n`,
    });
    assert.equal(readFileSync(hook, 'utf8'), original);
  });

  for (const [version, why] of EARLIER_WHY) {
    it(`proves the line an earlier lore put in a husky hook (${why}), says install updates it, and install does`, async (t) => {
      const repo = huskyRepo(t, `#!/bin/sh\n${EARLIER('husky-line', version)}echo "lint ran"\n`);
      const hook = join(repo, '.husky/pre-commit');
      const env = envWithLore(t);
      assert.deepEqual(await lore(['hook', 'status'], { cwd: repo, env }), {
        code: 0,
        stdout: `lore runs on commit (husky): husky runs ${hook} (git runs ${join(repo, '.husky/_/pre-commit')}) (as an earlier lore wrote it, ${why}: lore hook install updates it)\nproof: a dry run (git hook run pre-commit) reached lore hook pre-commit as its first command, and stopped there\n`,
        stderr: '',
      });
      assert.deepEqual(await lore(['hook', 'install'], { cwd: repo, env }), { code: 0, stdout: installed(hook, repo, "; it replaced lore's earlier line 2"), stderr: '' });
      assert.equal(readFileSync(hook, 'utf8'), `#!/bin/sh\n${LINE}\necho "lint ran"\n`);
    });
  }

  it("upgrades the line an older lore put first (./node_modules/.bin, then PATH) in place, and the hook finds lore through husky's PATH", async (t) => {
    const repo = huskyRepo(t, `#!/bin/sh\n${GIT_LINE}\necho "lint ran"\n`);
    const hook = join(repo, '.husky/pre-commit');
    assert.deepEqual(await lore(['hook', 'install'], { cwd: repo, env: envWithLore(t) }), { code: 0, stdout: installed(hook, repo, "; it replaced lore's earlier line 2"), stderr: '' });
    assert.equal(readFileSync(hook, 'utf8'), `#!/bin/sh\n${LINE}\necho "lint ran"\n`);

    // lore only in node_modules/.bin, as npm installs it: husky's runner puts it on PATH.
    const bin = join(repo, 'node_modules/.bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(repo, '.gitignore'), 'node_modules/\n');
    writeFileSync(join(bin, 'lore'), readFileSync(join(envWithLore(t).PATH!.split(':')[0]!, 'lore')));
    chmodSync(join(bin, 'lore'), 0o755);
    assert.deepEqual(await commit(repo, testEnv(), { '.env': 'SECRET=1\n' }), { code: 1, stderr: `${BLOCKED}${HUSKY_FAILED}`, committed: false });
  });
});

/**
 * lefthook's hook exactly as `lefthook install` (lefthook 2.2.2, the npm package's linux-x64 binary)
 * wrote it, but for the binary's own path, which it embeds: here one that does not exist.
 */
const LEFTHOOK_HOOK = readFileSync(join(import.meta.dirname, 'fixtures/lefthook-pre-commit.sh'), 'utf8');

/** What `lefthook install` 2.2.2 did to a pre-commit hook it did not write (observed): moved it to pre-commit.old, wrote its own. */
function lefthookInstall(hooks: string): void {
  renameSync(join(hooks, 'pre-commit'), join(hooks, 'pre-commit.old'));
  writeFileSync(join(hooks, 'pre-commit'), LEFTHOOK_HOOK, { mode: 0o755 });
}

describe('lore hook install with lefthook', () => {
  it('refuses a lefthook-managed hook and prints the lefthook.yml snippet instead of chaining it', async (t) => {
    const repo = guardRepo(t, { ...ENV_RULE, 'lefthook.yml': 'pre-commit:\n  commands:\n    lint:\n      run: echo lint\n' });
    const env = envWithLore(t);
    const hooks = join(repo, '.git/hooks');
    writeFileSync(join(hooks, 'pre-commit'), LEFTHOOK_HOOK);
    chmodSync(join(hooks, 'pre-commit'), 0o755);
    const listing = readdirSync(hooks).sort();
    const config = join(repo, 'lefthook.yml');
    const message = `lefthook manages this repository's git hooks (${config}); lore does not edit them, since lefthook install would replace what it wrote`;
    const fix = `Add lore to ${config} by hand (merge it into the pre-commit section, if there is one)`;
    const snippet = 'pre-commit:\n  commands:\n    lore:\n      run: ./node_modules/.bin/lore hook pre-commit\n';

    assert.deepEqual(await lore(['hook', 'install'], { cwd: repo, env }), { code: 1, stdout: '', stderr: `lore: hook not installed: ${message}. Nothing was changed.\n${fix}:\n\n${snippet}` });
    const asJson = await lore(['hook', 'install', '--json'], { cwd: repo, env });
    assert.deepEqual([asJson.code, JSON.parse(asJson.stdout)], [1, { file: join(hooks, 'pre-commit'), style: 'hooks', manager: 'lefthook', tracked: false, status: 'refused', reason: 'lefthook', message, fix, text: snippet }]);
    assert.equal(readFileSync(join(hooks, 'pre-commit'), 'utf8'), LEFTHOOK_HOOK);
    assert.deepEqual(readdirSync(hooks).sort(), listing);
    assert.equal(gitSync(repo, ['status', '--porcelain']), '');
  });

  it("recognises lefthook by its hook alone, or by a config in another format, and answers in that config's format", async (t) => {
    const byHook = guardRepo(t, ENV_RULE);
    const hook = join(byHook, '.git/hooks/pre-commit');
    writeFileSync(hook, LEFTHOOK_HOOK);
    chmodSync(hook, 0o755);
    const first = JSON.parse((await lore(['hook', 'install', '--json'], { cwd: byHook, env: envWithLore(t) })).stdout) as Record<string, string>;
    assert.deepEqual([first.reason, first.message, first.fix, first.text], [
      'lefthook',
      `lefthook manages this repository's git hooks (lefthook's hook ${hook}); lore does not edit them, since lefthook install would replace what it wrote`,
      `Add lore to ${join(byHook, 'lefthook.yml')} by hand (merge it into the pre-commit section, if there is one)`,
      'pre-commit:\n  commands:\n    lore:\n      run: ./node_modules/.bin/lore hook pre-commit\n',
    ]);

    const byToml = guardRepo(t, { ...ENV_RULE, '.config/lefthook.toml': '[pre-commit.commands.lint]\nrun = "echo lint"\n' });
    const second = await lore(['hook', 'install', '--json'], { cwd: byToml, env: envWithLore(t) });
    const parsed = JSON.parse(second.stdout) as Record<string, string>;
    assert.deepEqual([second.code, parsed.fix, parsed.text], [1, `Add lore to ${join(byToml, '.config/lefthook.toml')} by hand (merge it into the pre-commit section, if there is one)`, '[pre-commit.commands.lore]\nrun = "./node_modules/.bin/lore hook pre-commit"\n']);
    assert.equal(existsSync(join(byToml, '.git/hooks/pre-commit')), false);
  });

  it("takes back the shim a later lefthook install moved to pre-commit.old, and gives lefthook the hook lore had chained", async (t) => {
    const repo = guardRepo(t, ENV_RULE);
    const env = envWithLore(t);
    const hooks = join(repo, '.git/hooks');
    const original = '#!/bin/sh\necho "my hook ran" >&2\n';
    writeFileSync(join(hooks, 'pre-commit'), original, { mode: 0o755 });
    assert.equal((await lore(['hook', 'install'], { cwd: repo, env })).code, 0);

    writeFileSync(join(repo, 'lefthook.yml'), 'pre-commit:\n  commands:\n    lore:\n      run: ./node_modules/.bin/lore hook pre-commit\n');
    lefthookInstall(hooks);
    const config = join(repo, 'lefthook.yml');
    const moved = join(hooks, 'pre-commit.old');
    const again = await lore(['hook', 'install', '--json'], { cwd: repo, env });
    assert.deepEqual([again.code, JSON.parse(again.stdout).message], [1, `lefthook manages this repository's git hooks (${config}); lore does not edit them, since lefthook install would replace what it wrote; lefthook install moved lore's shim to ${moved}, and lore hook uninstall removes it`]);
    assert.equal(readFileSync(join(hooks, 'pre-commit'), 'utf8'), LEFTHOOK_HOOK);

    assert.deepEqual(await lore(['hook', 'uninstall'], { cwd: repo, env }), { code: 0, stdout: `removed lore's pre-commit hook from ${moved}; the previous hook is back\n`, stderr: '' });
    // As if lore had never been there: lefthook's hook, and the hook it replaced kept where lefthook uninstall looks.
    assert.deepEqual(readdirSync(hooks).filter((name) => !name.endsWith('.sample')).sort(), ['pre-commit', 'pre-commit.old']);
    assert.equal(readFileSync(join(hooks, 'pre-commit'), 'utf8'), LEFTHOOK_HOOK);
    assert.equal(readFileSync(moved, 'utf8'), original);
    assert.deepEqual(await lore(['hook', 'uninstall'], { cwd: repo, env }), { code: 0, stdout: `lore's pre-commit hook is not installed (${join(hooks, 'pre-commit')})\n`, stderr: '' });
  });
});

describe('lore hook install with a plain git hook', () => {
  const hooks: Array<[string, string]> = [
    ['a shell hook', '#!/bin/sh\necho "existing hook ran" >&2\nexit 0\n'],
    ['a node hook', '#!/usr/bin/env node\nprocess.stderr.write("existing hook ran\\n");\n'],
  ];
  for (const [name, original] of hooks) {
    it(`chains ${name} in .git/hooks, which runs first, and lore blocks a staged .env`, async (t) => {
      const repo = guardRepo(t, ENV_RULE);
      const env = envWithLore(t);
      const hook = join(repo, '.git/hooks/pre-commit');
      writeFileSync(hook, original);
      chmodSync(hook, 0o755);

      assert.deepEqual(await lore(['hook', 'install'], { cwd: repo, env }), { code: 0, stdout: `installed lore's pre-commit hook in ${hook} (the existing hook now runs first, from ${hook}.lore-chained)\n`, stderr: '' });
      assert.deepEqual(await commit(repo, env, { '.env': 'SECRET=1\n' }), { code: 1, stderr: `existing hook ran\n${BLOCKED}`, committed: false });

      await lore(['hook', 'uninstall'], { cwd: repo, env });
      assert.equal(readFileSync(hook, 'utf8'), original);
      assert.equal(statSync(hook).mode & 0o777, 0o755);
    });
  }

  for (const [shim, why] of [[PREVIOUS_SHIMS[0]!.text, 'which never asks lore serve'], ...EARLIER_WHY.map(([version, why]) => [EARLIER('shim', version), why] as const)] as const) {
    it(`brings an earlier lore's shim up to date (${why}): status still proves it runs lore, install rewrites it, the chained hook stays`, async (t) => {
      const repo = guardRepo(t, ENV_RULE);
      const env = envWithLore(t);
      const hook = join(repo, '.git/hooks/pre-commit');
      writeFileSync(`${hook}.lore-chained`, '#!/bin/sh\necho "existing hook ran" >&2\n');
      chmodSync(`${hook}.lore-chained`, 0o755);
      writeFileSync(hook, shim);
      chmodSync(hook, 0o755);
      assert.deepEqual(await lore(['hook', 'status'], { cwd: repo, env }), {
        code: 0,
        stdout: `lore runs on commit (git): git runs lore's shim ${hook} (as an earlier lore wrote it, ${why}: lore hook install updates it)\nproof: a dry run (git hook run pre-commit) reached lore hook pre-commit without running the hook it chains\n`,
        stderr: '',
      });
      assert.deepEqual(await lore(['hook', 'install'], { cwd: repo, env }), { code: 0, stdout: `installed lore's pre-commit hook in ${hook}\n`, stderr: '' });
      assert.equal(readFileSync(hook, 'utf8'), SHIM);
      assert.deepEqual(await commit(repo, env, { '.env': 'SECRET=1\n' }), { code: 1, stderr: `existing hook ran\n${BLOCKED}`, committed: false });
    });
  }

  it("refuses lore's shim once it was edited by hand, and uninstall still puts back the hook it chained", async (t) => {
    const repo = guardRepo(t, ENV_RULE);
    const env = envWithLore(t);
    const hook = join(repo, '.git/hooks/pre-commit');
    const original = '#!/bin/sh\nexit 0\n';
    writeFileSync(hook, original);
    chmodSync(hook, 0o755);
    await lore(['hook', 'install'], { cwd: repo, env });
    const edited = `${readFileSync(hook, 'utf8')}echo "never reached"\n`;
    writeFileSync(hook, edited);

    assert.deepEqual(await lore(['hook', 'install'], { cwd: repo, env }), {
      code: 1,
      stdout: '',
      stderr: `lore: hook not installed: ${hook} carries lore's marker but is not lore's shim or line as lore writes them, so lore cannot prove what it runs. Nothing was changed.\nRun lore hook uninstall (it removes what lore added and restores the hook it chained), then lore hook install again.\n`,
    });
    assert.equal(readFileSync(hook, 'utf8'), edited);
    assert.equal((await lore(['hook', 'uninstall'], { cwd: repo, env })).stdout, `removed lore's pre-commit hook from ${hook}; the previous hook is back\n`);
    assert.equal(readFileSync(hook, 'utf8'), original);
    assert.equal(existsSync(`${hook}.lore-chained`), false);
  });

  it('refuses when core.hooksPath turns hooks off, and changes nothing', async (t) => {
    const repo = guardRepo(t, ENV_RULE);
    gitSync(repo, ['config', 'core.hooksPath', '/dev/null']);
    const result = await lore(['hook', 'install'], { cwd: repo, env: envWithLore(t) });
    assert.deepEqual(result, {
      code: 1,
      stdout: '',
      stderr: 'lore: hook not installed: git looks for hooks in /dev/null, which is not a folder (core.hooksPath), so git runs no hooks in this repository. Nothing was changed.\nPoint core.hooksPath at a folder, or unset it (git config --unset core.hooksPath), then run lore hook install again.\n',
    });
  });

  it('follows core.hooksPath, relative to the top of the work tree, when run from a subfolder', async (t) => {
    const repo = guardRepo(t, ENV_RULE);
    const env = envWithLore(t);
    gitSync(repo, ['config', 'core.hooksPath', '.githooks']);
    mkdirSync(join(repo, 'src'));
    const result = await lore(['hook', 'install'], { cwd: join(repo, 'src'), env });
    assert.deepEqual(result, { code: 0, stdout: `installed lore's pre-commit hook in ${join(repo, '.githooks/pre-commit')}\n`, stderr: '' });
    assert.deepEqual(await commit(repo, env, { '.env': 'SECRET=1\n' }), { code: 1, stderr: BLOCKED, committed: false });
  });
});

describe('lore hook install with a hook file git tracks (core.hooksPath)', () => {
  it('puts its line first in the tracked file, says that the file must be committed, and lore then blocks a staged .env', async (t) => {
    const original = '#!/bin/sh\necho "team hook ran" >&2\n';
    const repo = guardRepo(t, { ...ENV_RULE, '.githooks/pre-commit': original });
    gitSync(repo, ['config', 'core.hooksPath', '.githooks']);
    const env = envWithLore(t);
    const hook = join(repo, '.githooks/pre-commit');
    assert.equal(statSync(hook).mode & 0o111, 0);

    assert.deepEqual(await lore(['hook', 'install'], { cwd: repo, env }), { code: 0, stdout: `installed lore's pre-commit hook in ${hook} as its first command\n${TRACKED(hook)}`, stderr: '' });
    assert.equal(readFileSync(hook, 'utf8'), `#!/bin/sh\n${GIT_LINE}\necho "team hook ran" >&2\n`);
    // git runs only executable hooks: install made it one, which git records too.
    assert.equal(gitSync(repo, ['diff', '--summary', '--', '.githooks']), ' mode change 100644 => 100755 .githooks/pre-commit\n');
    assert.deepEqual(readdirSync(join(repo, '.githooks')), ['pre-commit']);

    const again = await lore(['hook', 'install', '--json'], { cwd: repo, env });
    assert.deepEqual([again.code, JSON.parse(again.stdout)], [0, { file: hook, style: 'hooks', tracked: true, status: 'already-installed' }]);

    assert.deepEqual(await commit(repo, env, { '.env': 'SECRET=1\n' }), { code: 1, stderr: BLOCKED, committed: false });
    gitSync(repo, ['rm', '-q', '--cached', '.env']);
    assert.deepEqual(await commit(repo, env, { 'ok.txt': 'fine\n' }), { code: 0, stderr: `${PASSED}team hook ran\n`, committed: true });

    assert.deepEqual(await lore(['hook', 'uninstall'], { cwd: repo, env }), { code: 0, stdout: `removed lore's pre-commit hook from ${hook}\n`, stderr: '' });
    assert.equal(readFileSync(hook, 'utf8'), original);
  });

  for (const [line, why] of [[PREVIOUS_GIT_LINE, 'which never asks lore serve'], ...EARLIER_WHY.map(([version, why]) => [EARLIER('hook-line', version).trimEnd(), why] as const)] as const) {
    it(`replaces the line an earlier lore put in a tracked hook (${why}), which status still proves until then`, async (t) => {
      const repo = guardRepo(t, { ...ENV_RULE, '.githooks/pre-commit': `#!/bin/sh\n${line}\necho "team hook ran" >&2\n` });
      gitSync(repo, ['config', 'core.hooksPath', '.githooks']);
      const hook = join(repo, '.githooks/pre-commit');
      chmodSync(hook, 0o755);
      const env = envWithLore(t);
      assert.deepEqual(await lore(['hook', 'status'], { cwd: repo, env }), {
        code: 0,
        stdout: `lore runs on commit (hooks-path): git runs ${hook} (as an earlier lore wrote it, ${why}: lore hook install updates it)\nproof: a dry run (git hook run pre-commit) reached lore hook pre-commit as its first command, and stopped there\n`,
        stderr: '',
      });
      assert.deepEqual(await lore(['hook', 'install'], { cwd: repo, env }), { code: 0, stdout: `installed lore's pre-commit hook in ${hook} as its first command; it replaced lore's earlier line 2\n${TRACKED(hook)}`, stderr: '' });
      assert.equal(readFileSync(hook, 'utf8'), `#!/bin/sh\n${GIT_LINE}\necho "team hook ran" >&2\n`);
      assert.deepEqual(await commit(repo, env, { '.env': 'SECRET=1\n' }), { code: 1, stderr: BLOCKED, committed: false });
    });
  }

  it('refuses a tracked hook in another language rather than move it aside, and changes nothing', async (t) => {
    const original = '#!/usr/bin/env node\nconsole.log("checks ran");\n';
    const repo = guardRepo(t, { ...ENV_RULE, '.githooks/pre-commit': original });
    gitSync(repo, ['config', 'core.hooksPath', '.githooks']);
    const hook = join(repo, '.githooks/pre-commit');
    const result = await lore(['hook', 'install', '--json'], { cwd: repo, env: envWithLore(t) });
    assert.deepEqual([result.code, JSON.parse(result.stdout)], [1, {
      file: hook,
      style: 'hooks',
      tracked: true,
      status: 'refused',
      reason: 'not-a-shell-script',
      message: `${hook} is not a shell script (#!/usr/bin/env node), and lore does not move a tracked hook aside (the team would lose it), so lore cannot add its line to it`,
      fix: `Make ${hook} a shell script by hand: move its code to a file of its own, call that file from ${hook}, and put this line before every other command`,
      text: `${GIT_LINE}\n`,
    }]);
    assert.equal(readFileSync(hook, 'utf8'), original);
    assert.equal(gitSync(repo, ['status', '--porcelain']), '');
  });
});

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { COMMANDS } from '../src/cli/registry.js';
import { distance } from '../src/schema/suggest.js';
import { execFile } from 'node:child_process';
import { assertNotInRepository, inProcess, LORE_BIN, loreJson as loreJsonProcess } from './helpers/cli.js';
import { gitRepo, gitSync, tempDir, testEnv, writeFiles } from './helpers/temp.js';

const { lore, loreJson } = inProcess;

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('lore init, seed and validate', () => {
  it('initialises a new git repository into a valid store, and a second init and seed change nothing', async (t) => {
    const repo = gitRepo(t, { 'README.md': '# demo\n' });
    const init = await lore(['init'], { cwd: repo });
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, /^initialised \.knowledge\/ in .*:\n {2}created \.knowledge\/config\.yaml\n/);
    assert.match(init.stdout, /\nnext: install the pre-commit hook, so every commit is checked: npx lore hook install\n$/);
    assert.equal((await lore(['validate'], { cwd: repo })).code, 0);
    gitSync(repo, ['add', '-A']);
    gitSync(repo, ['commit', '-q', '-m', 'add lore']);

    const again = await lore(['init'], { cwd: repo });
    assert.equal(again.code, 0);
    assert.equal(again.stdout, `.knowledge/ in ${repo} is already initialised: nothing to change\nnext: install the pre-commit hook, so every commit is checked: npx lore hook install\n`);
    const seed = await lore(['seed'], { cwd: repo });
    assert.equal(seed.stdout, 'added 0, reset 0, kept 11, skipped 0 edited records\n');
    assert.equal(gitSync(repo, ['status', '--porcelain']), '');
  });

  it('writes the documented configuration defaults', async (t) => {
    const repo = gitRepo(t);
    await lore(['init'], { cwd: repo });
    const { json } = await loreJson<{ counts: Record<string, number> }>(['status'], { cwd: repo });
    assert.deepEqual(json.counts, { recommendation: 0, prohibition: 17, learning: 0, pending: 0, role: 2, gate: 6, mode: 3, override: 0, entity: 0, allow: 0 });
    const config = readFileSync(join(repo, '.knowledge/config.yaml'), 'utf8');
    const settings = config.split('\n').filter((l) => !l.trim().startsWith('#') && l.includes(':')).map((l) => l.trim());
    assert.deepEqual(settings, [
      'version: 1', `project: ${repo.split('/').pop()!.toLowerCase()}`,
      'matching:', 'use_semantic: true', 'semantic_threshold: 0.7', 'keyword_boost: 1.5',
      'pre_task_check:', 'enabled: true', 'block_on_critical: true', 'max_recommendations: 5', 'max_learnings: 3',
      'capture:', 'auto_capture_success: true', 'auto_capture_failure: true', 'on_turn_record: false', 'require_approval: true',
      'retention:', 'max_age_days: 365', 'prune_low_priority: true', 'min_applications_to_keep: 3',
      'turns:', 'max_per_feature: 50', 'max_per_project: 200', 'max_turns: 3',
      'limits:', 'max_file_bytes: 1048576', 'max_yaml_aliases: 100', 'max_depth: 32',
    ]);
    assert.equal(readFileSync(join(repo, '.knowledge/.gitattributes'), 'utf8'), '*.ndjson merge=union\n');
    assert.equal(readFileSync(join(repo, '.knowledge/.gitignore'), 'utf8'), '.cache/\n*.tmp\n*.stale\n.write.lock\n*.ndjson.lock\n*.lock.break-*\n.journal.json\n');
  });

  it('completes the .gitignore of a store made by an older lore, so crash leftovers stay out of commits', async (t) => {
    const repo = gitRepo(t, { 'README.md': '# demo\n' });
    await lore(['init'], { cwd: repo });
    writeFileSync(join(repo, '.knowledge/.gitignore'), '.cache/\n# ours\nnotes.txt\n');
    const doctor = await lore(['doctor'], { cwd: repo });
    assert.deepEqual(doctor, { code: 1, stdout: '.knowledge/.gitignore: does not ignore *.tmp, *.stale, .write.lock, *.ndjson.lock, *.lock.break-*, .journal.json, so git add -A would commit what a crash leaves behind\nlore doctor --fix deals with them\n', stderr: '' });
    const init = await lore(['init'], { cwd: repo });
    assert.equal(init.stdout, `initialised .knowledge/ in ${repo}:\n  updated .knowledge/.gitignore\nnext: install the pre-commit hook, so every commit is checked: npx lore hook install\n`);
    assert.equal(readFileSync(join(repo, '.knowledge/.gitignore'), 'utf8'), '.cache/\n# ours\nnotes.txt\n*.tmp\n*.stale\n.write.lock\n*.ndjson.lock\n*.lock.break-*\n.journal.json\n');
    assert.deepEqual(await lore(['doctor'], { cwd: repo }), { code: 0, stdout: 'nothing to fix: no crash leftovers, .gitignore complete\n', stderr: '' });
  });

  it('refuses to init outside a git repository', async (t) => {
    const dir = tempDir(t);
    const result = await lore(['init'], { cwd: dir });
    assert.equal(result.code, 2);
    assert.equal(result.stderr, `error: ${dir} is not inside a git repository\nhint: run "git init" first, or pass --store DIR to create the store elsewhere\n`);
  });

  it('makes validate exit 1 naming the file, line and field of a hand-broken record', async (t) => {
    const repo = gitRepo(t);
    await lore(['init'], { cwd: repo });
    const path = join(repo, '.knowledge/gates/feature-4-6.yaml');
    writeFileSync(path, readFileSync(path, 'utf8').replace('coverage_threshold: 0.8', 'coverage_threshold: 85'));
    const result = await lore(['validate'], { cwd: repo });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, [
      '.knowledge/gates/feature-4-6.yaml:8:21: error: coverage_threshold must be <= 1 (found 85)',
      '    7 | coverage_required: true',
      '  > 8 | coverage_threshold: 85',
      '      |                     ^^',
      'checked 28 record files and 0 logs: 1 error, 0 warnings',
      '',
    ].join('\n'));
    const { code, json } = await loreJson<{ valid: boolean; problems: unknown[] }>(['validate'], { cwd: repo });
    assert.equal(code, 1);
    assert.equal(json.valid, false);
    assert.deepEqual(json.problems, [{ severity: 'error', file: '.knowledge/gates/feature-4-6.yaml', line: 8, column: 21, frame: '  7 | coverage_required: true\n> 8 | coverage_threshold: 85\n    |                     ^^', pointer: '/coverage_threshold', message: 'coverage_threshold must be <= 1 (found 85)' }]);
  });

  it('lists problems in the same order whatever the locale: by file in code-unit order, then line', async (t) => {
    const repo = gitRepo(t);
    await lore(['init'], { cwd: repo });
    // Upper case sorts before lower case, and ä after z, as code units; a collator says otherwise.
    const broken = ['Zed.yaml', 'apple.yaml', 'zebra.yaml', 'äpple.yaml'];
    mkdirSync(join(repo, '.knowledge/knowledge/recommendations'), { recursive: true });
    for (const name of broken) writeFileSync(join(repo, '.knowledge/knowledge/recommendations', name), 'id: [\n');
    const files = async (locale: string): Promise<string[]> => {
      // A process of its own: the locale is what Node starts with.
      const { code, json } = await loreJsonProcess<{ problems: Array<{ file: string }> }>(['validate'], { cwd: repo, env: { ...testEnv(), LANG: locale, LC_ALL: locale } });
      assert.equal(code, 1);
      return json.problems.map((p) => p.file.slice('.knowledge/knowledge/recommendations/'.length));
    };
    const expected = ['Zed.yaml', 'apple.yaml', 'zebra.yaml', 'äpple.yaml'];
    assert.deepEqual(await files('en_US.UTF-8'), expected);
    assert.deepEqual(await files('sv_SE.UTF-8'), expected);
    assert.deepEqual(await files('C'), expected);
  });

  it('skips a seeded record a person edited, and resets it only with --force', async (t) => {
    const repo = gitRepo(t);
    await lore(['init'], { cwd: repo });
    const path = join(repo, '.knowledge/roles/coach.yaml');
    const edited = readFileSync(path, 'utf8').replace('  - Track AC status\n', '  - Track AC status\n  - Check the changelog\n');
    writeFileSync(path, edited);
    const seed = await lore(['seed'], { cwd: repo });
    assert.equal(seed.stdout, 'skipped ROLE-coach (.knowledge/roles/coach.yaml): differs from the default (edited by a person?); --force resets it\nadded 0, reset 0, kept 10, skipped 1 edited record\n');
    assert.equal(readFileSync(path, 'utf8'), edited);
    const forced = await lore(['seed', '--force'], { cwd: repo });
    assert.equal(forced.stdout, 'reset ROLE-coach (.knowledge/roles/coach.yaml)\nadded 0, reset 1, kept 10, skipped 0 edited records\n');
    assert.doesNotMatch(readFileSync(path, 'utf8'), /changelog/);
  });

  it('explains a missing store and a newer format, with exit 2', async (t) => {
    const dir = tempDir(t);
    const missing = await lore(['validate'], { cwd: dir });
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, `error: no .knowledge/ found in ${dir} or any parent directory\nhint: run "lore init" in your repository to create one, or pass --store DIR\n`);
    writeFileSync(join(tempDir(t), 'x'), '');
    const repo = gitRepo(t, { '.knowledge/config.yaml': 'version: 7\n' });
    const newer = await lore(['list'], { cwd: repo });
    assert.equal(newer.code, 2);
    assert.match(newer.stderr, /^error: \.knowledge\/config\.yaml says the store has format version 7, but this lore reads only version 1 and older\nhint: upgrade lore/);
  });
});

describe('lore list, show and status', () => {
  it('lists records of a kind and shows one by id, as text and JSON', async (t) => {
    const repo = gitRepo(t);
    await lore(['init'], { cwd: repo });
    const list = await lore(['list', 'modes'], { cwd: repo });
    assert.equal(list.stdout, [
      'mode  MODE-autobuild  autobuild 5-10, full ceremony: Multi-task features, Work needing player-coach adversarial cooperation',
      'mode  MODE-direct     direct 1-3, minimal ceremony: Simple file ops, Config changes',
      'mode  MODE-task_work  task_work 3-7, standard ceremony: Feature work needing quality gates, Multi-file changes',
      '',
    ].join('\n'));
    const show = await loreJson<{ kind: string; id: string; file: string; value: { coverage_threshold: number } }>(['show', 'QG-feature-7-10'], { cwd: repo });
    assert.deepEqual([show.json.kind, show.json.id, show.json.file, show.json.value.coverage_threshold], ['gate', 'QG-feature-7-10', '.knowledge/gates/feature-7-10.yaml', 0.85]);
    const text = await lore(['show', 'ROLE-player'], { cwd: repo });
    assert.match(text.stdout, /^# \.knowledge\/roles\/player\.yaml\nid: ROLE-player\nrole: player\nmust_do:\n {2}- Implement code\n/);
    const unknown = await lore(['show', 'MODE-dirct'], { cwd: repo });
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stderr, 'error: no record with id "MODE-dirct"\nhint: did you mean MODE-direct?\n');
  });

  it("never lets a test run a writing command in lore's own checkout", () => {
    for (const cwd of [REPO_ROOT, join(REPO_ROOT, 'hooks')]) {
      assert.throws(() => assertNotInRepository(['hook', 'install'], cwd), /a test ran "lore hook install" in .*, inside lore's own checkout/);
      assert.throws(() => assertNotInRepository(['init'], cwd), /inside lore's own checkout/);
      assertNotInRepository(['status'], cwd);
    }
    assertNotInRepository(['hook', 'install'], tmpdir());
  });

  it('reports this repository\'s own store as valid (what npm start runs)', async () => {
    const result = await lore(['status'], { cwd: REPO_ROOT });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^lore store .*\.knowledge \(project lore\)\n\n {2}recommendations +\d+\n {2}prohibitions +\d+\n/);
    assert.match(result.stdout, /\nvalid \(0 errors, \d+ warnings?\)\n$/);
  });
});

describe('the CLI', () => {
  it('answers --help on every command with its usage', async (t) => {
    const dir = tempDir(t);
    for (const command of COMMANDS) {
      const result = await lore([...command.name.split(' '), '--help'], { cwd: dir });
      assert.equal(result.code, 0, command.name);
      assert.ok(result.stdout.startsWith(`lore ${command.name} - ${command.summary}\n\nUsage: lore ${command.name}`), result.stdout);
    }
    const top = await lore(['--help'], { cwd: dir });
    for (const command of COMMANDS) assert.ok(top.stdout.includes(`  ${command.name}`), command.name);
  });

  it('turns unknown commands and options into usage errors (exit 2) with a suggestion', async (t) => {
    const dir = tempDir(t);
    assert.deepEqual(await lore(['valdate'], { cwd: dir }), { code: 2, stdout: '', stderr: 'error: unknown command "valdate"\nhint: did you mean "lore validate"?\n' });
    // Two letters swapped are one edit: lsit is list, not init.
    assert.deepEqual(await lore(['lsit'], { cwd: dir }), { code: 2, stdout: '', stderr: 'error: unknown command "lsit"\nhint: did you mean "lore list"?\n' });
    assert.deepEqual([distance('lsit', 'list'), distance('lsit', 'init'), distance('ca', 'abc'), distance('prohibitoin', 'prohibition')], [1, 2, 3, 1]);
    // A misspelt type word is named as the user gave it, not as an option they never typed.
    assert.deepEqual(await lore(['add', 'prohibitoin', '--title', 'x', '--description', 'y'], { cwd: dir }), { code: 2, stdout: '', stderr: 'error: the type must be one of recommendation, prohibition, learning (found "prohibitoin")\nhint: did you mean prohibition?\n' });
    assert.deepEqual(await lore(['list', '--jsn'], { cwd: dir }), { code: 2, stdout: '', stderr: 'error: unknown option --jsn for lore list\nhint: did you mean --json?\n' });
    assert.deepEqual(await lore(['show'], { cwd: dir }), { code: 2, stdout: '', stderr: 'error: lore show needs <id>\nhint: usage: lore show <id> [options]\n' });
    const json = await loreJson<{ error: { code: string; message: string } }>(['show', 'x', 'y'], { cwd: dir });
    assert.deepEqual([json.code, json.json.error.code, json.json.error.message], [2, 'USAGE', 'unexpected argument "y" for lore show']);
  });

  it('exits quietly when its reader closes the pipe early (lore list | head -1)', async (t) => {
    const repo = gitRepo(t);
    const files: Record<string, string> = {};
    for (let i = 0; i < 1500; i++) {
      files[`.knowledge/knowledge/learnings/learn-${i}.yaml`] = `id: learn-${i}\ntype: learning\ntitle: ${'A long enough title to fill the pipe '.repeat(2)}${i}\ndescription: D\nscope: global\nkeywords: []\npriority: low\nsource: manual\ncreatedAt: "2026-01-01T00:00:00Z"\nupdatedAt: "2026-01-01T00:00:00Z"\ncreatedBy: me\nenabled: true\n`;
    }
    writeFiles(repo, { '.knowledge/config.yaml': 'version: 1\n', ...files });
    const result = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
      execFile('bash', ['-c', `"${process.execPath}" "${LORE_BIN}" list learnings | head -1; echo "exit \${PIPESTATUS[0]}"`], { cwd: repo, env: testEnv() }, (_e, stdout, stderr) => resolve({ stdout, stderr }));
    });
    assert.deepEqual([result.stdout.split('\n').slice(1).join('\n'), result.stderr], ['exit 0\n', '']);
  });

  it('colours output only when allowed: FORCE_COLOR turns it on, NO_COLOR and --no-color turn it off', async (t) => {
    const repo = gitRepo(t);
    await lore(['init'], { cwd: repo });
    const coloured = await lore(['validate'], { cwd: repo, env: testEnv({ NO_COLOR: '', FORCE_COLOR: '1' }) });
    assert.ok(coloured.stdout.includes('\u001b[32m'), coloured.stdout);
    const plain = await lore(['validate'], { cwd: repo, env: testEnv({ NO_COLOR: '1', FORCE_COLOR: '1' }) });
    assert.ok(!plain.stdout.includes('\u001b['));
    const flag = await lore(['validate', '--no-color'], { cwd: repo, env: testEnv({ NO_COLOR: '', FORCE_COLOR: '1' }) });
    assert.ok(!flag.stdout.includes('\u001b['));
  });
});

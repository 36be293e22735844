// Globs lore refuses (extglobs, POSIX classes, [!...]: see tests/match.test.ts) are refused
// wherever a glob enters, through the real CLI: add, edit, import, validate, check-plan and the
// pre-commit hook. A glob that silently never matched would be a guard rule that never fires.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SCHEMA_NAMES, SCHEMAS_DIR, schemaFileName } from '../src/schema/schemas.js';
import { inProcess } from './helpers/cli.js';
import { envWithLore, guardRepo, prohibition, prohibitionPath } from './helpers/guard.js';
import { gitRepo, gitSync, writeFiles } from './helpers/temp.js';

const { lore } = inProcess;

const EXTGLOB = 'extglob +(js|ts) is not supported: write {a,b} for one of several alternatives, * or ** to repeat, or \\( for a literal (';
const JS_RULE = prohibition('pro-js', { globs: ['dist/**', '**/*.+(js|ts)'] });

function stage(repo: string, files: Record<string, string>): void {
  writeFiles(repo, files);
  gitSync(repo, ['add', '-A']);
}

function gitRun(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env }, (error, _stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stderr }));
  });
}

describe('a glob lore refuses', () => {
  it('is refused by lore add, naming the glob, and nothing is written', async (t) => {
    const repo = gitRepo(t, { '.knowledge/config.yaml': 'version: 1\n' });
    const add = await lore(['add', 'prohibition', '--title', 'No generated js', '--description', 'Build output.', '--glob', 'dist/**', '--glob', '*.+(js|ts)', '--priority', 'critical'], { cwd: repo });
    assert.deepEqual(add, {
      code: 1,
      stdout: '',
      stderr: [
        'error: the prohibition pro-no-generated-js is invalid',
        `.knowledge/knowledge/prohibitions/pro-no-generated-js.yaml: error: globs[1] "*.+(js|ts)" is not a usable glob: ${EXTGLOB}`,
        '',
      ].join('\n'),
    });
    assert.equal(existsSync(join(repo, prohibitionPath('pro-no-generated-js'))), false);
  });

  it('is refused by lore edit, and the entry keeps its globs', async (t) => {
    const repo = gitRepo(t, { '.knowledge/config.yaml': 'version: 1\n', [prohibitionPath('pro-keys')]: prohibition('pro-keys', { globs: ['**/*.pem'] }) });
    const before = readFileSync(join(repo, prohibitionPath('pro-keys')), 'utf8');
    const edit = await lore(['edit', 'pro-keys', '--set', 'globs=["**/*.pem", "**/@(id_rsa|id_ed25519)"]'], { cwd: repo });
    assert.deepEqual(edit, {
      code: 1,
      stdout: '',
      stderr: [
        'error: the prohibition pro-keys is invalid',
        '.knowledge/knowledge/prohibitions/pro-keys.yaml: error: globs[1] "**/@(id_rsa|id_ed25519)" is not a usable glob: extglob @(id_rsa|id_ed25519) is not supported: write {id_rsa,id_ed25519} instead',
        '',
      ].join('\n'),
    });
    assert.equal(readFileSync(join(repo, prohibitionPath('pro-keys')), 'utf8'), before);
  });

  it('is refused by lore import (a POSIX class), and nothing is imported', async (t) => {
    const repo = gitRepo(t, { '.knowledge/config.yaml': 'version: 1\n' });
    writeFileSync(join(repo, 'in.json'), '[\n  { "id": "pro-keys", "type": "prohibition", "title": "Keys", "description": "No keys.", "scope": "global", "keywords": [], "priority": "critical", "globs": ["**/[[:alnum:]]*.key"] }\n]\n');
    const result = await lore(['import', 'in.json'], { cwd: repo });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr.split('\n').slice(0, 2).join('\n'), [
      'error: nothing was imported: in.json has 1 problem',
      'in.json:2:159: error: globs[0] "**/[[:alnum:]]*.key" is not a usable glob: POSIX class [:alnum:] is not supported: write [a-zA-Z0-9] instead',
    ].join('\n'));
    assert.equal(existsSync(join(repo, prohibitionPath('pro-keys'))), false);
  });

  it('is reported by lore validate with file, line and field, in prohibitions, allowlist records, role constraints and overrides', async (t) => {
    const repo = gitRepo(t, {
      '.knowledge/config.yaml': 'version: 1\n',
      [prohibitionPath('pro-js')]: JS_RULE,
      '.knowledge/allow/fixtures.yaml': 'id: fixtures\nentry: pro-js\npaths: ["tests/[[:digit:]]/**"]\nreason: fixtures\nauthor: Test\n',
      '.knowledge/roles/coach.yaml': 'id: ROLE-coach\nrole: coach\nmust_do: []\nmust_not_do:\n  - text: Write implementation code\n    paths: ["src/[!t]*"]\nask_before: []\nescalate_when: []\n',
      '.knowledge/overrides/demo.yaml': 'role_constraints:\n  player:\n    must_not_do_additions:\n      - text: Touch the gates\n        paths: ["gates/**", ".knowledge/{gates,modes}.+(yaml)"]\n',
    });
    const result = await lore(['validate'], { cwd: repo });
    assert.equal(result.code, 1);
    const errors = result.stdout.split('\n').filter((line) => line.includes(': error: '));
    assert.deepEqual(errors, [
      '.knowledge/allow/fixtures.yaml:3:9: error: paths[0] "tests/[[:digit:]]/**" is not a usable glob: POSIX class [:digit:] is not supported: write [0-9] instead',
      `.knowledge/knowledge/prohibitions/pro-js.yaml:16:5: error: globs[1] "**/*.+(js|ts)" is not a usable glob: ${EXTGLOB}`,
      `.knowledge/overrides/demo.yaml:5:29: error: role_constraints.player.must_not_do_additions[0].paths[1] ".knowledge/{gates,modes}.+(yaml)" is not a usable glob: ${EXTGLOB.replace('+(js|ts)', '+(yaml)')}`,
      '.knowledge/roles/coach.yaml:6:13: error: must_not_do[0].paths[0] "src/[!t]*" is not a usable glob: [!...] is ambiguous (micromatch reads ! as a character, POSIX shells negate): write [^...] to negate, or [\\!...] to match !',
    ]);
  });

  it('makes lore check-plan refuse to answer, naming the glob, instead of passing the plan', async (t) => {
    const repo = gitRepo(t, { '.knowledge/config.yaml': 'version: 1\n', [prohibitionPath('pro-js')]: JS_RULE });
    const input = JSON.stringify({ task: { description: 'build the site' }, plan: { approach: 'compile', fileChanges: [{ path: 'src/app.js', change: 'modify' }] } });
    const result = await lore(['check-plan'], { cwd: repo, input });
    assert.deepEqual(result, {
      code: 1,
      stdout: '',
      stderr: [
        'error: the plan check cannot run: a prohibition it checks against is invalid',
        `.knowledge/knowledge/prohibitions/pro-js.yaml:16:5: error: globs[1] "**/*.+(js|ts)" is not a usable glob: ${EXTGLOB}`,
        '    15 |     "dist/**",',
        '  > 16 |     "**/*.+(js|ts)"',
        '       |     ^^^^^^^^^^^^^^^',
        'hint: fix the files (lore validate)',
        '',
      ].join('\n'),
    });
  });

  it('blocks the pre-commit hook when the rule is staged with the change', async (t) => {
    const repo = guardRepo(t);
    stage(repo, { [prohibitionPath('pro-js')]: JS_RULE, 'src/app.js': 'x\n' });
    const result = await lore(['hook', 'pre-commit'], { cwd: repo });
    // The rule arrives with the change: the change's knowledge is invalid, so the change is blocked (exit 1).
    assert.deepEqual(result, {
      code: 1,
      stdout: '',
      stderr: [
        'lore: scanned the staged change: 2 files, 19 added lines, 374 bytes against 0 prohibitions (0 from the change itself)',
        '',
        'BLOCKED the knowledge this change brings must parse and validate, so the store stays valid:',
        `.knowledge/knowledge/prohibitions/pro-js.yaml:16:5: error: globs[1] "**/*.+(js|ts)" is not a usable glob: ${EXTGLOB}`,
        '    15 |     "dist/**",',
        '  > 16 |     "**/*.+(js|ts)"',
        '       |     ^^^^^^^^^^^^^^^',
        '  how to proceed: fix the files (lore validate shows the same problems), stage them again and commit',
        '',
        'lore: blocked: 1 knowledge file in the change does not validate (1 problem)',
        '',
      ].join('\n'),
    });
  });

  it('stops git commit when the rule is already committed, naming the glob once', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-js')]: JS_RULE });
    const env = envWithLore(t);
    assert.equal((await lore(['hook', 'install'], { cwd: repo, env })).code, 0);
    const head = gitSync(repo, ['rev-parse', 'HEAD']);
    stage(repo, { 'src/app.js': 'x\n' });
    const commit = await gitRun(repo, ['commit', '-m', 'app'], env);
    assert.equal(commit.code, 1);
    assert.equal(commit.stderr.split('\n').filter((line) => line.includes('is not a usable glob')).join('\n'), `.knowledge/knowledge/prohibitions/pro-js.yaml:16:5: error: globs[1] "**/*.+(js|ts)" is not a usable glob: ${EXTGLOB}`);
    assert.equal(gitSync(repo, ['rev-parse', 'HEAD']), head);
  });

  it('is not served as valid from a cache an earlier lore wrote (cache format 3)', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-js')]: JS_RULE });
    // The record as an earlier lore, which accepted extglobs, cached it: parsed, without problems.
    const blob = gitSync(repo, ['rev-parse', `HEAD:${prohibitionPath('pro-js')}`]).trim();
    const record = { kind: 'prohibition', id: 'pro-js', file: prohibitionPath('pro-js'), value: JSON.parse(JS_RULE) as unknown };
    const oldKey = createHash('sha1').update('3').update(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    for (const name of SCHEMA_NAMES) oldKey.update(readFileSync(SCHEMAS_DIR + schemaFileName(name)));
    mkdirSync(join(repo, '.knowledge/.cache'), { recursive: true });
    writeFileSync(join(repo, '.knowledge/.cache/git-records.json'), JSON.stringify({ key: oldKey.digest('hex'), entries: { [`prohibition:pro-js.yaml:${blob}`]: { record, problems: [] } }, derived: {} }));
    stage(repo, { 'src/app.js': 'x\n' });
    const result = await lore(['hook', 'pre-commit'], { cwd: repo });
    assert.equal(result.code, 2);
    assert.equal(result.stderr.split('\n').slice(0, 2).join('\n'), [
      'error: the commit guard cannot run: the knowledge it checks against is invalid',
      `.knowledge/knowledge/prohibitions/pro-js.yaml:16:5: error: globs[1] "**/*.+(js|ts)" is not a usable glob: ${EXTGLOB}`,
    ].join('\n'));
  });
});

describe('a glob segment', () => {
  it('matches a newline like any other character: **/.env blocks a staged a<newline>b/.env', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-env')]: prohibition('pro-env', { globs: ['**/.env', 'x*y'] }) });
    stage(repo, { 'a\nb/.env': 'A=1\n', 'x\ny': 'z\n' });
    const result = await lore(['check', '--json'], { cwd: repo });
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout) as { outcome: { active: Array<{ path: string; text: string }> } };
    assert.deepEqual(report.outcome.active.map((f) => [f.path, f.text]), [['a\nb/.env', 'a\nb/.env'], ['x\ny', 'x\ny']]);
  });
});

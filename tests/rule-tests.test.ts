// Rule tests: a prohibition's tests run through the guard's and check-plan's matching; lore test
// names each failing rule and test, lore validate reports them at the test's line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runRuleTests } from '../src/guard/rule-tests.js';
import { compileRules } from '../src/guard/rules.js';
import { scan } from '../src/guard/scan.js';
import { inProcess } from './helpers/cli.js';
import { entry } from './helpers/knowledge.js';
import { tempStore } from './helpers/temp.js';

const { lore, loreJson } = inProcess;

const FILE = '.knowledge/knowledge/prohibitions/pro-env.yaml';
const RECORD = `id: pro-env
type: prohibition
title: Never commit .env files
description: Secrets live in the vault.
scope: global
keywords:
  - commit env
globs:
  - "**/.env"
content:
  - "PASSWORD=\\\\S+"
tests:
  match:
    - path: config/.env
    - line: PASSWORD=hunter2
      path: app.sh
    - path: config/.env.local
  noMatch:
    - line: PASSWORD=
    - plan: We commit .env files for CI.
priority: critical
source: manual
createdAt: "2026-01-01T00:00:00.000Z"
updatedAt: "2026-01-01T00:00:00.000Z"
createdBy: test
enabled: true
`;
const PASSING = entry({ id: 'pro-keys', type: 'prohibition', priority: 'critical', content: ['BEGIN_KEY'], keywords: ['commit key'], tests: { match: [{ line: 'x BEGIN_KEY y' }, { plan: 'We commit key files.' }], noMatch: [{ line: 'begin_key' }, { plan: 'Rotate the key.' }] } });
const files = { '.knowledge/config.yaml': 'version: 1\nproject: shop\n', [FILE]: RECORD, '.knowledge/knowledge/prohibitions/pro-keys.yaml': `${JSON.stringify(PASSING)}\n` };

const FAILURES = [
  `FAIL pro-env (${FILE}): tests.match[2]: must match path "config/.env.local", but nothing matched`,
  `FAIL pro-env (${FILE}): tests.noMatch[1]: must not match plan "We commit .env files for CI.", but keywords[0] (commit env) matched it`,
];

describe('lore test', () => {
  it('runs every test of every rule and exits 1 naming each rule and test that failed', async (t) => {
    const root = tempStore(t, files);
    assert.deepEqual(await lore(['test'], { cwd: root }), { code: 1, stdout: `${FAILURES.join('\n')}\n9 rule tests of 2 prohibitions: 2 failed\n`, stderr: '' });
  });

  it('tests only the rules named, and exits 0 with a one-line summary when they pass', async (t) => {
    const root = tempStore(t, files);
    assert.deepEqual(await lore(['test', 'pro-keys'], { cwd: root }), { code: 0, stdout: '4 rule tests of 1 prohibition: all passed\n', stderr: '' });
    assert.deepEqual(await lore(['test', 'pro-key'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: no prohibition has the id pro-key\nhint: did you mean pro-keys?\n' });
  });

  it('prints the failures for scripts with --json', async (t) => {
    const root = tempStore(t, files);
    const { code, json } = await loreJson(['test', 'pro-env'], { cwd: root });
    assert.equal(code, 1);
    assert.deepEqual(json, {
      rules: 1, tests: 5, passed: false,
      failures: [
        { entryId: 'pro-env', file: FILE, field: 'tests.match[2]', pointer: '/tests/match/2', message: 'tests.match[2]: must match path "config/.env.local", but nothing matched' },
        { entryId: 'pro-env', file: FILE, field: 'tests.noMatch[1]', pointer: '/tests/noMatch/1', message: 'tests.noMatch[1]: must not match plan "We commit .env files for CI.", but keywords[0] (commit env) matched it' },
      ],
    });
  });
});

describe('lore validate', () => {
  it('reports each failing rule test as an error at the test, with file, line and field', async (t) => {
    const root = tempStore(t, files);
    const result = await lore(['validate'], { cwd: root });
    assert.equal(result.code, 1);
    assert.equal(result.stdout.split('\n').filter((l) => l.startsWith('.knowledge/')).join('\n'), [
      `${FILE}:17:7: error: tests.match[2]: must match path "config/.env.local", but nothing matched`,
      `${FILE}:20:7: error: tests.noMatch[1]: must not match plan "We commit .env files for CI.", but keywords[0] (commit env) matched it`,
    ].join('\n'));
    assert.match(result.stdout, /checked 2 record files and 0 logs: 2 errors, 0 warnings\n$/);
    const { json } = await loreJson<{ valid: boolean; errors: number }>(['status'], { cwd: root });
    assert.deepEqual([json.valid, json.errors], [false, 2]);
  });

  it('refuses a test that gives a plan together with a path', async (t) => {
    const root = tempStore(t, { ...files, [FILE]: RECORD.replace('    - plan: We commit .env files for CI.', '    - plan: We commit .env files for CI.\n      path: .env') });
    const result = await lore(['validate'], { cwd: root });
    assert.equal(result.code, 1);
    assert.match(result.stdout, new RegExp(`^${FILE.replace(/\./g, '\\.')}:20:7: error: tests\\.noMatch\\[1\\] with plan must hold no other field \\(found plan, path\\)$`, 'm'));
  });
});

describe('rule tests and the guard', () => {
  const rule = { entry: entry({ id: 'pro-token', type: 'prohibition', priority: 'critical', content: ['TOKEN_[0-9]{4}'], tests: { match: [{ line: 'TOKEN_1234' }] } }), origin: 'committed' as const, file: '.knowledge/knowledge/prohibitions/pro-token.yaml' };

  it('never match a rule in its own record file, where its tests are written, and match everywhere else', () => {
    const added = [{ line: 3, text: '    - line: TOKEN_1234' }];
    const { findings } = scan([{ files: [{ path: rule.file, status: 'added', added }, { path: 'notes.md', status: 'added', added }] }], compileRules([rule]));
    assert.deepEqual(findings.map((f) => [f.entryId, f.path, f.line]), [['pro-token', 'notes.md', 3]]);
  });

  it('are not compiled into the rules the hook scans with', () => {
    const { paths, content } = compileRules([rule]);
    assert.deepEqual([paths.matchers.length, content.matchers.map((m) => m.text)], [0, ['TOKEN_[0-9]{4}']]);
  });

  it('run through that same scan: a line test in the rule\'s own file does not match', () => {
    const report = runRuleTests([{ entry: { ...rule.entry, tests: { match: [{ line: 'TOKEN_1234', path: rule.file }] } }, file: rule.file }]);
    assert.deepEqual(report.failures.map((f) => f.message), [`tests.match[0]: must match line "TOKEN_1234" in "${rule.file}", but nothing matched`]);
  });
});

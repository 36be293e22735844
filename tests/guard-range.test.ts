import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { inProcess } from './helpers/cli.js';
import { commitFiles, guardRepo, KEY_HEADER, prohibition, prohibitionPath } from './helpers/guard.js';
import { sarifErrors } from './helpers/sarif.js';
import { gitSync } from './helpers/temp.js';

const { lore, loreJson } = inProcess;

const KEY_RULE = prohibition('pro-key', { content: ['-----BEGIN ([A-Z]+ )?PRIVATE KEY-----'], secret: true });
const GOLDEN = new URL('./golden/guard/', import.meta.url);

interface Report {
  blocked: boolean;
  range: { commits: string[] };
  scanned: { commits: number };
  outcome: { active: Array<{ entryId: string; commit: string; path: string; line: number }>; allowed: Array<{ commit: string }> };
}

describe('lore check --range', () => {
  it('checks every commit of the range, so a line added and removed again is still caught', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-key')]: KEY_RULE, 'a.txt': 'a\n' });
    gitSync(repo, ['checkout', '-q', '-b', 'feature']);
    const added = commitFiles(repo, { 'a.txt': `a\n${KEY_HEADER}\n` }, 'oops');
    commitFiles(repo, { 'a.txt': 'a\n' }, 'remove it again');
    const { code, json } = await loreJson<Report>(['check', '--range', 'main...feature'], { cwd: repo });
    assert.equal(code, 1);
    assert.deepEqual(json.outcome.active.map((f) => [f.entryId, f.commit, f.path, f.line]), [['pro-key', added, 'a.txt', 2]]);
    assert.equal(json.scanned.commits, 2);
    const text = await lore(['check', '--range', 'main...feature'], { cwd: repo });
    assert.match(text.stdout, new RegExp(`^lore: scanned main\\.\\.\\.feature \\(2 commits from [0-9a-f]{12}\\): 2 files, 1 added line, 32 bytes against 1 prohibition`));
    assert.match(text.stdout, new RegExp(`\\n {2}${added.slice(0, 12)} a\\.txt:2:1: matched`));
  });

  it('refuses an empty range instead of passing it', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-key')]: KEY_RULE });
    const result = await lore(['check', '--range', 'main...main'], { cwd: repo });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^error: the range main\.\.\.main has no commits to check \(merge base [0-9a-f]{12} is its head\)\nhint: an empty range is not a pass: check that CI fetched the branch and its base\n$/);
    const unknown = await lore(['check', '--range', 'main...nope'], { cwd: repo });
    assert.deepEqual([unknown.code, unknown.stderr.split('\n')[0]], [2, 'error: unknown revision "nope"']);
  });

  it('applies an allowlist record from the commit after the one that adds it', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-key')]: KEY_RULE });
    gitSync(repo, ['checkout', '-q', '-b', 'feature']);
    const early = commitFiles(repo, { 'tests/fixtures/a.pem': `${KEY_HEADER}\n` }, 'too early');
    commitFiles(repo, { '.knowledge/allow/fixture-keys.yaml': 'id: fixture-keys\nentry: pro-key\npaths: ["tests/fixtures/**"]\nreason: fake keys\nauthor: Test\n' }, 'allow fixture keys');
    const later = commitFiles(repo, { 'tests/fixtures/b.pem': `${KEY_HEADER}\n` }, 'allowed now');
    const { json } = await loreJson<Report>(['check', '--range', 'main...feature'], { cwd: repo });
    assert.deepEqual(json.outcome.active.map((f) => f.commit), [early]);
    assert.deepEqual(json.outcome.allowed.map((f) => f.commit), [later]);
  });

  it('writes SARIF 2.1.0 that validates against the official schema and holds no secret text', async (t) => {
    const repo = guardRepo(t, {
      [prohibitionPath('pro-key')]: KEY_RULE,
      [prohibitionPath('pro-todo')]: prohibition('pro-todo', { priority: 'medium', content: ['TODO'] }),
      [prohibitionPath('pro-env')]: prohibition('pro-env', { globs: ['**/.env'], priority: 'high' }),
    });
    gitSync(repo, ['checkout', '-q', '-b', 'feature']);
    commitFiles(repo, { 'src/a b.ts': `const k = "${KEY_HEADER}";\n// TODO later\n`, '.env': 'X=1\n' }, 'findings');
    const result = await lore(['check', '--range', 'main...feature', '--format', 'sarif'], { cwd: repo });
    assert.equal(result.code, 1);
    const sarif = JSON.parse(result.stdout) as { runs: Array<{ tool: { driver: { rules: Array<{ id: string; defaultConfiguration: { level: string } }> } }; results: Array<{ ruleId: string; level: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }>; partialFingerprints: Record<string, string> }> }> };
    assert.deepEqual(sarifErrors(sarif), []);
    const run = sarif.runs[0]!;
    assert.deepEqual(run.tool.driver.rules.map((r) => [r.id, r.defaultConfiguration.level]).sort(), [['pro-env', 'warning'], ['pro-key', 'error'], ['pro-todo', 'note']]);
    assert.deepEqual(run.results.map((r) => [r.ruleId, r.level, r.locations[0]!.physicalLocation.artifactLocation.uri, r.locations[0]!.physicalLocation.region?.startLine]).sort(), [
      ['pro-env', 'warning', '.env', undefined], ['pro-key', 'error', 'src/a%20b.ts', 1], ['pro-todo', 'note', 'src/a%20b.ts', 2],
    ]);
    assert.ok(run.results.every((r) => /^[0-9a-f]{32}$/.test(r.partialFingerprints['loreFinding/v1']!)));
    assert.equal(result.stdout.includes(KEY_HEADER), false);
  });
});

describe('lore diff', () => {
  it('summarises knowledge changes for a PR, weakenings first (golden file)', async (t) => {
    const gate = (threshold: number): string => `id: QG-feature-4-6\ntask_type: feature\ncomplexity_range: [4, 6]\narch_review_required: true\narch_review_threshold: 60\ncoverage_required: true\ncoverage_threshold: ${threshold}\ntests_required: true\ntests_must_pass: true\n`;
    const coach = (mustNot: string[]): string => `id: ROLE-coach\nrole: coach\nmust_do: [Run quality gates]\nmust_not_do: [${mustNot.join(', ')}]\nask_before: []\nescalate_when: []\n`;
    const repo = guardRepo(t, {
      [prohibitionPath('pro-env')]: prohibition('pro-env', { title: 'Never commit .env files', globs: ['**/.env', '**/.env.*'] }),
      [prohibitionPath('pro-old')]: prohibition('pro-old', { title: 'An old rule', priority: 'low' }),
      '.knowledge/gates/feature-4-6.yaml': gate(0.8),
      '.knowledge/roles/coach.yaml': coach(['Write implementation code', 'Change AC mid-task']),
      '.knowledge/graph/entities/api.yaml': 'name: api\ntype: service\n',
    });
    gitSync(repo, ['checkout', '-q', '-b', 'feature']);
    gitSync(repo, ['rm', '-q', prohibitionPath('pro-old')]);
    commitFiles(repo, {
      [prohibitionPath('pro-env')]: prohibition('pro-env', { title: 'Never commit .env files', globs: ['**/.env'], priority: 'high' }),
      [prohibitionPath('pro-secrets')]: prohibition('pro-secrets', { title: 'No secrets in code', content: ['secret_[a-z]+'] }),
      '.knowledge/gates/feature-4-6.yaml': gate(0.7),
      '.knowledge/roles/coach.yaml': coach(['Write implementation code']),
      '.knowledge/allow/env-example.yaml': 'id: env-example\nentry: pro-env\npaths: ["**/.env.example"]\nreason: a template without values\nauthor: Test\n',
      '.knowledge/graph/entities/api.yaml': 'name: api\ntype: service\nrelationships:\n  - to: db\n    type: reads_from\n',
      '.knowledge/graph/entities/db.yaml': 'name: db\ntype: data_store\n',
      '.knowledge/turns/demo/FEAT-1.ndjson': '{"id":"COMPLETE-FEAT-1","feature_id":"FEAT-1","completed":true,"timestamp":"2026-01-01T00:00:00Z"}\n',
      '.knowledge/config.yaml': 'version: 1\nproject: demo\npre_task_check:\n  block_on_critical: false\n',
    }, 'weaken some things');
    const result = await lore(['diff', 'main...feature'], { cwd: repo });
    assert.equal(result.code, 0);
    // UPDATE_GOLDEN=1 rewrites the golden file; review its diff before committing it.
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(new URL('diff.md', GOLDEN), result.stdout);
    const expected = readFileSync(new URL('diff.md', GOLDEN), 'utf8');
    assert.equal(result.stdout, expected);
    const { json } = await loreJson<{ records: Array<{ kind: string; id: string; change: string; risk: string }>; config: Array<{ field: string; risk: string }>; logs: Array<{ file: string; added: number }> }>(['diff', 'main...feature'], { cwd: repo });
    assert.deepEqual(json.records.map((r) => [r.kind, r.id, r.change, r.risk]), [
      ['prohibition', 'pro-env', 'changed', 'weakens'], ['prohibition', 'pro-old', 'removed', 'weakens'], ['role', 'ROLE-coach', 'changed', 'weakens'],
      ['gate', 'QG-feature-4-6', 'changed', 'weakens'], ['allow', 'env-example', 'added', 'weakens'], ['prohibition', 'pro-secrets', 'added', 'strengthens'],
      ['entity', 'api', 'changed', 'neutral'], ['entity', 'db', 'added', 'neutral'],
    ]);
    assert.deepEqual([json.config, json.logs], [[{ field: 'pre_task_check.block_on_critical', before: true, after: false, risk: 'weakens', summary: 'pre_task_check.block_on_critical changed from true to false' }], [{ file: '.knowledge/turns/demo/FEAT-1.ndjson', added: 1, removed: 0 }]]);
    const empty = await lore(['diff', 'main...main'], { cwd: repo });
    assert.match(empty.stdout, /^## lore diff main\.\.\.main\n\nNo changes to \.knowledge\/ between [0-9a-f]{12} and [0-9a-f]{12}\.\n$/);
  });
});

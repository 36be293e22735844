import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { inProcess, lore as loreProcess } from './helpers/cli.js';
import { guardRepo, KEY_HEADER, prohibition, prohibitionPath } from './helpers/guard.js';
import { gitSync, tempDir, testEnv, writeFiles } from './helpers/temp.js';

const { lore, loreJson } = inProcess;

interface Report {
  blocked: boolean;
  scanned: { commits: number; files: number; lines: number; bytes: number };
  rules: { applied: number; fromChange: number };
  outcome: { active: Array<{ entryId: string; path: string; line?: number; priority: string; text: string; kind: string }>; suppressed: Array<{ entryId: string; reason: string }>; allowed: Array<{ entryId: string; allow: string }>; baselined: unknown[]; notes: string[] };
}

const ENV_RULE = prohibition('pro-env', { globs: ['**/.env'] });
const KEY_RULE = prohibition('pro-key', { content: ['-----BEGIN ([A-Z]+ )?PRIVATE KEY-----'], secret: true });

function stage(repo: string, files: Record<string, string>): void {
  writeFiles(repo, files);
  gitSync(repo, ['add', '-A']);
}

describe('lore check --staged', () => {
  it('blocks a critical path match and says what it scanned and how to proceed', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-env')]: ENV_RULE });
    stage(repo, { 'config/.env': 'A=1\nB=2\n' });
    const result = await lore(['check'], { cwd: repo });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, [
      'lore: scanned the staged change: 1 file, 2 added lines, 8 bytes against 1 prohibition (0 from the change itself)',
      '',
      'BLOCKED pro-env [critical] Title of pro-env',
      '  config/.env: path matches **/.env',
      '  how to proceed: take the file out of the commit (git rm --cached -- "config/.env"); if it must be committed, add an allowlist record in .knowledge/allow/ and have it reviewed',
      '',
      'lore: blocked: 1 critical finding',
      '',
    ].join('\n'));
  });

  it('blocks a critical content match with its line and column, redacting secret-like text', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-key')]: KEY_RULE, 'src/a.ts': 'export const a = 1;\n' });
    stage(repo, { 'src/a.ts': `export const a = 1;\nconst key = "${KEY_HEADER}";\n` });
    const { code, json } = await loreJson<Report>(['check'], { cwd: repo });
    assert.equal(code, 1);
    assert.deepEqual(json.outcome.active.map((f) => [f.entryId, f.path, f.line, f.text]), [['pro-key', 'src/a.ts', 2, '[redacted: 31 characters]']]);
    assert.equal(JSON.stringify(json).includes('PRIVATE KEY'), true); // the rule text is shown...
    assert.equal(JSON.stringify(json).includes(KEY_HEADER), false); // ...but never the matched secret
  });

  it('lists findings riskiest first, then by path in code-unit order (the same in every locale), then by line', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-env')]: ENV_RULE, [prohibitionPath('pro-todo')]: prohibition('pro-todo', { priority: 'medium', content: ['TODO'] }) });
    stage(repo, { 'b/.env': 'A=1\n', 'B/.env': 'A=1\n', 'a.txt': 'x\nTODO 2\n', 'Z.txt': 'TODO\nTODO\n', 'é.txt': 'TODO\n' });
    const { code, json } = await loreJson<Report>(['check'], { cwd: repo });
    assert.equal(code, 1);
    // localeCompare would put a.txt before Z.txt, and b/ before B/.
    assert.deepEqual(json.outcome.active.map((f) => `${f.path}:${f.line ?? '-'}`), ['B/.env:-', 'b/.env:-', 'Z.txt:1', 'Z.txt:2', 'a.txt:2', 'é.txt:1']);
  });

  it('writes the report as markdown for a pull-request comment', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-env')]: ENV_RULE, [prohibitionPath('pro-todo')]: prohibition('pro-todo', { priority: 'medium', content: ['TODO'] }) });
    stage(repo, { 'config/.env': 'A=1\n', 'a.txt': 'TODO: later\n' });
    const result = await lore(['check', '--format', 'markdown'], { cwd: repo });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, [
      '### lore check: blocked: 1 critical finding and 1 warning',
      '',
      'scanned the staged change: 2 files, 2 added lines, 16 bytes against 2 prohibitions (0 from the change itself)',
      '',
      '| | entry | priority | where | what |',
      '|---|---|---|---|---|',
      '| ⛔ | `pro-env` Title of pro-env | critical | `config/.env` | **/.env |',
      '| ⚠️ | `pro-todo` Title of pro-todo | medium | `a.txt:1:1` | `TODO` |',
      '',
    ].join('\n'));
  });

  it('only warns for a high prohibition (exit 0)', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-todo')]: prohibition('pro-todo', { priority: 'high', content: ['TODO\\(later\\)'] }) });
    stage(repo, { 'a.txt': 'x\nTODO(later): fix\n' });
    const result = await lore(['check'], { cwd: repo });
    assert.equal(result.code, 0);
    assert.match(result.stdout, /\nwarning pro-todo \[high\] Title of pro-todo\n {2}a\.txt:2:1: matched "TODO\(later\)" \(TODO\\\(later\\\)\)\n {2}how to proceed: fix the line, or mark it: lore-allow: pro-todo reason="\.\.\." on the line or the line above\n\nlore: passed with 1 warning\n$/);
  });

  it('says what it scanned even when nothing matched', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-env')]: ENV_RULE });
    stage(repo, { 'a.txt': 'hello\n' });
    const result = await lore(['check', '--staged'], { cwd: repo });
    assert.deepEqual([result.code, result.stdout], [0, 'lore: scanned the staged change: 1 file, 1 added line, 6 bytes against 1 prohibition (0 from the change itself)\n\nlore: passed: no prohibition matched\n']);
  });

  it('still blocks when the same change deletes or downgrades the rule it violates', async (t) => {
    for (const weaken of ['delete', 'downgrade', 'disable'] as const) {
      const repo = guardRepo(t, { [prohibitionPath('pro-env')]: ENV_RULE });
      if (weaken === 'delete') gitSync(repo, ['rm', '-q', prohibitionPath('pro-env')]);
      else stage(repo, { [prohibitionPath('pro-env')]: prohibition('pro-env', { globs: ['**/.env'], ...(weaken === 'downgrade' ? { priority: 'low' } : { enabled: false }) }) });
      stage(repo, { '.env': 'SECRET=1\n' });
      const { code, json } = await loreJson<Report>(['check'], { cwd: repo });
      assert.equal(code, 1, weaken);
      assert.deepEqual(json.outcome.active.map((f) => [f.entryId, f.priority]), [['pro-env', 'critical']], weaken);
    }
  });

  it('applies a rule the change adds to the change itself, also in a repository whose first store is staged', async (t) => {
    const repo = guardRepo(t, {});
    stage(repo, { [prohibitionPath('pro-env')]: ENV_RULE, '.env': 'X=1\n' });
    const { code, json } = await loreJson<Report>(['check'], { cwd: repo });
    assert.deepEqual([code, json.rules, json.outcome.active.map((f) => f.entryId)], [1, { applied: 1, fromChange: 1 }, ['pro-env']]);

    const fresh = guardRepo(t, {});
    gitSync(fresh, ['rm', '-rq', '.knowledge']);
    gitSync(fresh, ['commit', '-qm', 'no store yet']);
    stage(fresh, { '.knowledge/config.yaml': 'version: 1\n', [prohibitionPath('pro-env')]: ENV_RULE, 'app/.env': 'X=1\n' });
    assert.equal((await lore(['check'], { cwd: fresh })).code, 1);
  });

  it('checks renamed files by their new path, and reads files git calls binary like any other', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-env')]: ENV_RULE, [prohibitionPath('pro-key')]: KEY_RULE, 'notes.txt': 'a\nb\nc\n' });
    gitSync(repo, ['mv', 'notes.txt', '.env']);
    writeFileSync(join(repo, 'blob.bin'), Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(KEY_HEADER)]));
    gitSync(repo, ['add', '-A']);
    const { json } = await loreJson<Report>(['check'], { cwd: repo });
    // A NUL byte makes git call blob.bin binary; its content is scanned all the same.
    assert.deepEqual(json.outcome.active.map((f) => [f.entryId, f.path, f.kind, f.line]), [['pro-env', '.env', 'path', undefined], ['pro-key', 'blob.bin', 'content', 1]]);
    // A file that existed before is unstaged with restore, a new one with rm --cached.
    assert.match((await lore(['check'], { cwd: repo })).stdout, /how to proceed: take the file out of the commit \(git restore --staged -- "\.env"\)/);
    // The rename moved notes.txt's lines unchanged: nothing of it is added.
    assert.deepEqual(json.scanned, { commits: 0, files: 2, lines: 1, bytes: 3 + Buffer.byteLength(KEY_HEADER) + 1 });
  });

  it('honours lore-allow with a reason for non-critical entries only', async (t) => {
    const repo = guardRepo(t, {
      [prohibitionPath('pro-todo')]: prohibition('pro-todo', { priority: 'medium', content: ['TODO'] }),
      [prohibitionPath('pro-key')]: KEY_RULE,
    });
    stage(repo, {
      'a.txt': [
        'TODO one // lore-allow: pro-todo reason="tracked in #12"',
        '// lore-allow: pro-todo reason="next line"',
        'TODO two',
        'TODO three // lore-allow: pro-todo',
        `${KEY_HEADER} // lore-allow: pro-key reason="test"`,
        '',
      ].join('\n'),
    });
    const { code, json } = await loreJson<Report>(['check'], { cwd: repo });
    assert.equal(code, 1);
    assert.deepEqual(json.outcome.suppressed.map((f) => [f.entryId, f.reason]), [['pro-todo', 'tracked in #12'], ['pro-todo', 'next line']]);
    assert.deepEqual(json.outcome.active.map((f) => [f.entryId, f.line]), [['pro-key', 5], ['pro-todo', 4]]);
    assert.deepEqual(json.outcome.notes, [
      'a.txt:5: lore-allow cannot allow the critical entry pro-key; only a record in .knowledge/allow/ can',
      'a.txt:4: lore-allow: pro-todo needs a reason="..." and was ignored',
    ]);
  });

  it('lets a critical entry pass only through an allowlist record already committed', async (t) => {
    const allow = 'id: allow-fixture-keys\nentry: pro-key\npaths: ["tests/fixtures/**"]\nreason: fake keys for parser tests\nauthor: Test Author\n';
    const repo = guardRepo(t, { [prohibitionPath('pro-key')]: KEY_RULE, '.knowledge/allow/allow-fixture-keys.yaml': allow });
    stage(repo, { 'tests/fixtures/key.pem': `${KEY_HEADER}\n`, 'src/key.pem': `${KEY_HEADER}\n` });
    const { code, json } = await loreJson<Report>(['check'], { cwd: repo });
    assert.equal(code, 1);
    assert.deepEqual(json.outcome.allowed.map((f) => [f.entryId, f.allow]), [['pro-key', 'allow-fixture-keys']]);
    assert.deepEqual(json.outcome.active.map((f) => f.path), ['src/key.pem']);

    // The same record staged together with the violation does not let it through.
    const same = guardRepo(t, { [prohibitionPath('pro-key')]: KEY_RULE });
    stage(same, { '.knowledge/allow/allow-fixture-keys.yaml': allow, 'tests/fixtures/key.pem': `${KEY_HEADER}\n` });
    const selfAllowed = await loreJson<Report>(['check'], { cwd: same });
    assert.equal(selfAllowed.code, 1);
    assert.deepEqual(selfAllowed.json.outcome.notes, ['.knowledge/allow/allow-fixture-keys.yaml is added or changed by this change; an allowlist record applies from the commit after the one that adds it']);

    // An expired record no longer applies.
    const expired = guardRepo(t, { [prohibitionPath('pro-key')]: KEY_RULE, '.knowledge/allow/allow-fixture-keys.yaml': `${allow}expires: 2020-01-01\n` });
    stage(expired, { 'tests/fixtures/key.pem': `${KEY_HEADER}\n` });
    const late = await loreJson<Report>(['check'], { cwd: expired });
    assert.deepEqual([late.code, late.json.outcome.notes], [1, ['.knowledge/allow/allow-fixture-keys.yaml: expired on 2020-01-01 and no longer allows pro-key']]);
  });

  it('ignores findings recorded in a baseline, and only those', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-todo')]: prohibition('pro-todo', { priority: 'high', content: ['TODO \\w+'] }) });
    stage(repo, { 'a.txt': 'TODO old\n' });
    const baseline = join(repo, '.lore-baseline.json');
    const write = await lore(['check', '--write-baseline', baseline], { cwd: repo });
    assert.deepEqual([write.code, write.stderr], [0, `lore: wrote 1 finding to the baseline ${baseline}\n`]);
    const saved = JSON.parse(readFileSync(baseline, 'utf8')) as { version: number; findings: Array<{ entryId: string; path: string; fingerprint: string }> };
    assert.deepEqual([saved.version, saved.findings.map((f) => [f.entryId, f.path, f.fingerprint.length])], [1, [['pro-todo', 'a.txt', 32]]]);
    stage(repo, { 'a.txt': 'x\nTODO old\nTODO new\n' });
    const { json } = await loreJson<Report>(['check', '--baseline', baseline], { cwd: repo });
    assert.deepEqual([json.outcome.baselined.length, json.outcome.active.map((f) => f.line)], [1, [3]]);
  });

  it('cannot be hung by a catastrophic regular expression', { timeout: 60_000 }, async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-evil')]: prohibition('pro-evil', { content: ['(a+)+$'], priority: 'high' }) });
    stage(repo, { 'a.txt': `${'a'.repeat(50_000)}!\n` });
    const result = await lore(['check'], { cwd: repo });
    assert.deepEqual([result.code, result.stdout.split('\n').pop()], [0, '']);
    assert.match(result.stdout, /lore: passed: no prohibition matched\n$/);
  });

  it('blocks (exit 1) a change whose own prohibitions do not parse, and still applies the committed ones', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-env')]: ENV_RULE });
    stage(repo, { [prohibitionPath('pro-broken')]: 'id: pro-broken\ntitle: [unclosed\n', '.env': 'x\n' });
    const result = await lore(['check'], { cwd: repo });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /\nBLOCKED the knowledge this change brings must parse and validate, so the store stays valid:\n\.knowledge\/knowledge\/prohibitions\/pro-broken\.yaml:\d+:\d+: error: YAML syntax: /);
    assert.match(result.stdout, /\nBLOCKED pro-env \[critical\]/);
    assert.match(result.stdout, /\nlore: blocked: 1 knowledge file in the change does not validate \(\d+ problems?\) and 1 critical finding\n$/);
  });

  it('fails closed (exit 2) when the committed knowledge it checks against is invalid', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-broken')]: 'id: pro-broken\ntitle: [unclosed\n' });
    stage(repo, { 'a.txt': 'x\n' });
    const result = await lore(['check'], { cwd: repo });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^error: the commit guard cannot run: the knowledge it checks against is invalid\n\.knowledge\/knowledge\/prohibitions\/pro-broken\.yaml:\d+:\d+: error: YAML syntax: /);
    assert.match(result.stderr, /\nhint: fix the files \(lore validate\), or skip the check visibly with LORE_SKIP=1\n$/);
  });

  it('applies the role guard when LORE_ROLE names a role with path constraints', async (t) => {
    const coach = 'id: ROLE-coach\nrole: coach\nmust_do: []\nmust_not_do:\n  - text: Write implementation code\n    paths: ["src/**"]\nask_before: []\nescalate_when: []\n';
    const repo = guardRepo(t, { '.knowledge/roles/coach.yaml': coach });
    stage(repo, { 'src/impl.ts': 'x\n', 'docs/review.md': 'ok\n' });
    const asCoach = await loreJson<Report & { role: { role: string; source: string } }>(['check'], { cwd: repo, env: testEnv({ LORE_ROLE: 'coach' }) });
    assert.deepEqual([asCoach.code, asCoach.json.role, asCoach.json.outcome.active.map((f) => [f.entryId, f.path, f.kind])], [1, { role: 'coach', source: 'LORE_ROLE' }, [['ROLE-coach', 'src/impl.ts', 'role']]]);
    gitSync(repo, ['config', 'lore.role', 'player']);
    const asPlayer = await loreJson<Report>(['check'], { cwd: repo });
    assert.equal(asPlayer.code, 0);
    const noRole = await lore(['check', '--verbose'], { cwd: join(repo, 'src'), env: testEnv({ LORE_ROLE: '' , GIT_CONFIG_GLOBAL: '/dev/null' }) });
    assert.match(noRole.stdout, /lore: scanned the staged change: 2 files, 2 added lines, 5 bytes against 0 prohibitions \(0 from the change itself\); role player \(from git config lore.role\)\n/);
  });
});

describe('the role guard when git config cannot be read', () => {
  it('fails the check (exit 2) instead of checking without the role', async (t) => {
    const coach = 'id: ROLE-coach\nrole: coach\nmust_do: []\nmust_not_do:\n  - text: Write implementation code\n    paths: ["src/**"]\nask_before: []\nescalate_when: []\n';
    const repo = guardRepo(t, { '.knowledge/roles/coach.yaml': coach });
    gitSync(repo, ['config', 'lore.role', 'coach']);
    stage(repo, { 'src/impl.ts': 'x\n' });
    assert.equal((await lore(['check'], { cwd: repo })).code, 1);
    // A git whose `config` fails (a config file it cannot read, a process that could not start).
    const bin = tempDir(t, 'lore-git-');
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nfor a; do if [ "$a" = config ]; then echo "fatal: unable to read config" >&2; exit 128; fi; done\nexec "${real}" "$@"\n`);
    chmodSync(join(bin, 'git'), 0o755);
    const result = await loreProcess(['check'], { cwd: repo, env: testEnv({ PATH: `${bin}:${process.env.PATH}` }) });
    assert.deepEqual([result.code, result.stderr], [2, 'error: git config -z --get-regexp failed: fatal: unable to read config\n']);
  });
});

describe('the role guard from the committed turn history', () => {
  const player = 'id: ROLE-player\nrole: player\nmust_do: []\nmust_not_do:\n  - text: Modify quality profiles\n    paths: [".knowledge/gates/**"]\nask_before: []\nescalate_when: []\n';
  const turn = (n: number, decision: string): string => `${JSON.stringify({ id: `TURN-FEAT-001-TASK-1-T${n}`, feature_id: 'FEAT-001', task_id: 'TASK-1', turn_number: n, player_decision: 'p', coach_decision: decision, blockers_found: [], progress_summary: 's', acceptance_criteria_status: {}, mode: 'FRESH_START', quality_gate_results: null, timestamp: `2026-01-0${n}T00:00:00Z` })}\n`;
  const log = '.knowledge/turns/demo/FEAT-001.ndjson';
  const gate = '.knowledge/gates/feature-4-6.yaml';
  const gateText = 'id: QG-feature-4-6\ntask_type: feature\ncomplexity_range: [4, 6]\narch_review_required: false\ncoverage_required: false\ntests_required: false\ntests_must_pass: false\n';

  it('takes the player role after a committed revise verdict, on the feature named by the branch', async (t) => {
    const repo = guardRepo(t, { '.knowledge/roles/player.yaml': player, [log]: turn(1, 'approve') + turn(2, 'revise') });
    gitSync(repo, ['checkout', '-q', '-b', 'feature/FEAT-001']);
    stage(repo, { [gate]: gateText });
    const { code, json } = await loreJson<Report & { role: { role: string; source: string } }>(['check'], { cwd: repo });
    assert.deepEqual([code, json.role, json.outcome.active.map((f) => [f.entryId, f.path])], [1, { role: 'player', source: 'the turn log at HEAD (TURN-FEAT-001-TASK-1-T2: revise)' }, [['ROLE-player', gate]]]);
  });

  it('takes the feature from lore.feature on a detached HEAD, which names no branch', async (t) => {
    // A feature named HEAD has a revise verdict: a detached HEAD must not be read as that branch.
    const repo = guardRepo(t, { '.knowledge/roles/player.yaml': player, [log]: turn(1, 'approve') + turn(2, 'revise'), '.knowledge/turns/demo/HEAD.ndjson': turn(1, 'revise') });
    gitSync(repo, ['checkout', '-q', '--detach']);
    stage(repo, { [gate]: gateText });
    const detached = await loreJson<Report & { role?: unknown }>(['check'], { cwd: repo });
    assert.deepEqual([detached.code, detached.json.role, detached.json.outcome.active], [0, null, []]);
    gitSync(repo, ['config', 'lore.feature', 'FEAT-001']);
    const named = await loreJson<Report & { role: { role: string; source: string } }>(['check'], { cwd: repo });
    assert.deepEqual([named.code, named.json.role, named.json.outcome.active.map((f) => [f.entryId, f.path])], [1, { role: 'player', source: 'the turn log at HEAD (TURN-FEAT-001-TASK-1-T2: revise)' }, [['ROLE-player', gate]]]);
  });

  it('ignores a turn that is not committed yet, and names no role after approve', async (t) => {
    const repo = guardRepo(t, { '.knowledge/roles/player.yaml': player, [log]: turn(1, 'approve') });
    gitSync(repo, ['checkout', '-q', '-b', 'FEAT-001']);
    writeFiles(repo, { [log]: turn(1, 'approve') + turn(2, 'revise') });
    stage(repo, { [gate]: gateText });
    const { code, json } = await loreJson<Report & { role?: unknown }>(['check'], { cwd: repo });
    assert.deepEqual([code, json.role, json.outcome.active], [0, null, []]);
  });
});

describe('lore check --files', () => {
  it('checks whole working-tree files, given relative to the working directory', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-key')]: KEY_RULE });
    writeFiles(repo, { 'sub/k.txt': `one\n${KEY_HEADER}\n` });
    const { code, json } = await loreJson<Report>(['check', '--files', 'k.txt'], { cwd: join(repo, 'sub') });
    assert.deepEqual([code, json.outcome.active.map((f) => [f.path, f.line])], [1, [['sub/k.txt', 2]]]);
    const missing = await lore(['check', '--files', 'nope.txt'], { cwd: repo });
    assert.deepEqual([missing.code, missing.stderr], [2, 'error: nope.txt does not exist\n']);
  });
});

describe('the guard as a library', () => {
  it('checks a change from any source through checkChange, exported with the public API', async (t) => {
    const { checkChange } = await import('../src/index.js');
    const repo = guardRepo(t, { [prohibitionPath('pro-env')]: ENV_RULE });
    writeFileSync(join(repo, '.env'), 'A=1\n');
    const files = await checkChange({ kind: 'files', paths: ['.env'] }, { cwd: repo, env: testEnv() });
    assert.deepEqual([files.mode, files.blocked, files.outcome.active.map((f) => f.entryId)], ['files', true, ['pro-env']]);
    gitSync(repo, ['add', '.env']);
    const staged = await checkChange({ kind: 'staged' }, { cwd: repo, env: testEnv() });
    assert.deepEqual([staged.mode, staged.blocked, staged.scanned.files], ['staged', true, 1]);
  });
});

// The pre-task check (match reasons, blocking vs warning, caps, scope, disabled) and the
// knowledge-augmented agent prompt, pinned by golden files.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { matchPlan } from '../src/knowledge/plan-match.js';
import { checkBeforeTask } from '../src/knowledge/pre-task-check.js';
import type { DevelopmentPlan, KnowledgeEntry, TaskContext } from '../src/types.js';
import { runOp } from '../src/ops/run.js';
import { Workspace } from '../src/workspace/workspace.js';
import { inProcess } from './helpers/cli.js';
import { entry, knowledgeStore } from './helpers/knowledge.js';
import { testEnv } from './helpers/temp.js';

const { lore, loreJson } = inProcess;

const NOW = new Date('2026-03-01T12:00:00Z');
const GOLDEN = new URL('./golden/knowledge/', import.meta.url);

/** Compares with a golden file byte for byte; UPDATE_GOLDEN=1 rewrites it instead. */
function assertGolden(name: string, actual: string): void {
  const path = new URL(name, GOLDEN);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, actual);
  assert.ok(existsSync(path), `tests/golden/knowledge/${name} is missing; UPDATE_GOLDEN=1 writes it`);
  assert.equal(actual, readFileSync(path, 'utf8'), `differs from tests/golden/knowledge/${name}`);
}

describe('why a prohibition matches a plan', () => {
  const plan = (approach: string, ...paths: string[]): DevelopmentPlan => ({ approach, fileChanges: paths.map((path) => ({ path, change: 'modify' })) });
  const cases: Array<[string, Partial<KnowledgeEntry>, DevelopmentPlan, string[]]> = [
    ['a pattern on a path', { patterns: ['\\.env'] }, plan('', 'config/.env'), ['File config/.env matches prohibited pattern \\.env']],
    ['a glob on a path', { globs: ['**/.env'] }, plan('', 'a/b/.env'), ['File a/b/.env matches prohibited glob **/.env']],
    ['a glob that only matches whole names', { globs: ['**/.env'] }, plan('', '.env.example', 'src/env.ts'), []],
    ['each path, with its first matching rule', { patterns: ['secrets\\.'], globs: ['**/*.pem'] }, plan('', 'k/server.pem', 'secrets.yaml', 'ok.ts'), ['File k/server.pem matches prohibited glob **/*.pem', 'File secrets.yaml matches prohibited pattern secrets\\.']],
    ['a path written with ./ and backslashes', { patterns: ['^src/legacy/auth/'] }, plan('', '.\\src\\legacy\\auth\\x.ts'), ['File src/legacy/auth/x.ts matches prohibited pattern ^src/legacy/auth/']],
    ['a keyword as a whole word, any case', { keywords: ['env'] }, plan('Load the .ENV file'), ['Plan mentions prohibited keyword: env']],
    ['not a keyword inside a longer word', { keywords: ['env'] }, plan('update the environment and dotenv'), []],
    ['a keyword ending in * as a prefix', { keywords: ['env*'] }, plan('update the environment'), ['Plan mentions prohibited keyword: env*']],
    ['a keyword of several words in sequence', { keywords: ['force push'] }, plan('then FORCE-push to main'), ['Plan mentions prohibited keyword: force push']],
    ['not the words of a phrase apart', { keywords: ['force push'] }, plan('push with force'), []],
    ['paths first, then keywords', { globs: ['**/.env'], keywords: ['secrets', 'env'] }, plan('commit .env with secrets', '.env'), ['File .env matches prohibited glob **/.env', 'Plan mentions prohibited keyword: secrets', 'Plan mentions prohibited keyword: env']],
  ];
  for (const [name, fields, input, reasons] of cases) {
    it(`matches ${name}`, () => {
      const matched = matchPlan(entry({ id: 'pro-x', ...fields }), input);
      assert.deepEqual(matched.map((m) => m.reason), reasons);
    });
  }

  it('runs patterns in linear time: (a+)+$ against a 100,000-character path returns', () => {
    const matched = matchPlan(entry({ id: 'pro-x', patterns: ['(a+)+$'] }), plan('', `${'a'.repeat(100_000)}!`));
    assert.deepEqual(matched, []);
  });
});

const CORPUS = [
  entry({ id: 'pro-env', title: 'Never commit .env files', description: 'Environment files hold secrets.', keywords: ['env', 'secrets'], globs: ['**/.env'], priority: 'critical' }),
  entry({ id: 'pro-legacy', title: 'Do not modify the legacy auth module', description: 'It is being replaced; change the new auth service instead.', keywords: ['legacy auth'], patterns: ['^src/legacy/auth/'], scope: 'project', projectId: 'shop', priority: 'high' }),
  entry({ id: 'pro-blog', title: 'Blog sources are frozen', description: 'Only the blog team changes them.', patterns: ['^src/'], scope: 'project', projectId: 'blog', priority: 'critical' }),
  entry({ id: 'pro-force-push', title: 'Never force-push to main', description: 'Rewrite history on branches only.', keywords: ['force push'], priority: 'critical' }),
  entry({ id: 'rec-strict', title: 'Use TypeScript strict mode', description: 'Enable strict in tsconfig.json.', keywords: ['typescript'], priority: 'high' }),
  entry({ id: 'rec-config-tests', title: 'Test config loading', description: 'Cover missing and malformed settings.', keywords: ['config', 'settings'] }),
  entry({ id: 'rec-config-docs', title: 'Document every config setting', description: 'Each setting gets a line in the README.', keywords: ['config', 'settings'], priority: 'low' }),
  entry({ id: 'learn-validate-config', title: 'Validate config at startup', description: 'A typo in a setting failed a deploy an hour later.', keywords: ['config', 'settings'], examples: [{ scenario: 'A misspelt setting', goodApproach: 'Validate against a schema when the process starts', badApproach: 'Read settings lazily' }] }),
  entry({ id: 'learn-env-once', title: 'Read environment variables once', description: 'Scattered process.env reads made config untestable.', keywords: ['environment', 'config'] }),
  entry({ id: 'learn-config-reload', title: 'Config reload needs a lock', description: 'Two reloads at once left half-applied settings.', keywords: ['config', 'reload'], examples: [{ scenario: 'Two reloads at once', badApproach: 'Reload without a lock' }] }),
  entry({ id: 'learn-settings-defaults', title: 'Settings need documented defaults', description: 'Unset settings surprised operators.', keywords: ['settings', 'defaults'], examples: [{ scenario: 'A missing setting' }] }),
];
const TASK: TaskContext = { id: 'TASK-7', type: 'feature', description: 'Add config loading: read settings at startup.' };
const PLAN: DevelopmentPlan = {
  approach: 'Read settings from a .env file and environment variables; keep the legacy auth module untouched.',
  fileChanges: [{ path: 'config/.env', change: 'create' }, { path: 'src/config.ts', change: 'create' }, { path: 'src/legacy/auth/session.ts', change: 'modify' }],
  technologies: ['typescript'],
};

describe('the pre-task check', () => {
  it('blocks on a critical match, warns on the others, and caps recommendations and learnings', async (t) => {
    const { store } = await knowledgeStore(t, CORPUS, { config: 'pre_task_check:\n  max_recommendations: 2\n  max_learnings: 2\n' });
    const result = await checkBeforeTask({ store, task: TASK, plan: PLAN, now: NOW });
    assert.equal(result.canProceed, false);
    assert.deepEqual(result.blockers.map((b) => [b.knowledge.id, b.matchReason, b.matches.map((m) => m.reason)]), [
      ['pro-env', 'File config/.env matches prohibited glob **/.env', ['File config/.env matches prohibited glob **/.env', 'Plan mentions prohibited keyword: env']],
    ]);
    assert.deepEqual(result.warnings.map((w) => [w.knowledge.id, w.matches]), [
      ['pro-legacy', [
        { kind: 'pattern', path: 'src/legacy/auth/session.ts', pattern: '^src/legacy/auth/', reason: 'File src/legacy/auth/session.ts matches prohibited pattern ^src/legacy/auth/' },
        { kind: 'keyword', keyword: 'legacy auth', reason: 'Plan mentions prohibited keyword: legacy auth' },
      ]],
    ]);
    assert.deepEqual(result.recommendations.map((r) => r.knowledge.id), ['rec-config-tests', 'rec-config-docs']);
    assert.deepEqual(result.learnings.map((r) => r.knowledge.id), ['learn-env-once', 'learn-validate-config']);
    // pro-blog belongs to another project and is never checked.
    assert.deepEqual(result.checked, { prohibitions: 3, files: 3 });
    assert.equal(result.summary.split('\n')[0], '- AVOID [critical] Never commit .env files: Environment files hold secrets.');
  });

  it('lists as many recommendations as max_recommendations allows, above ten too', async (t) => {
    const recommendations = Array.from({ length: 14 }, (_, i) => entry({ id: `rec-config-${String(i).padStart(2, '0')}`, title: 'Test config loading', description: 'Cover missing settings.', keywords: ['config'] }));
    const { store } = await knowledgeStore(t, recommendations, { config: 'pre_task_check:\n  max_recommendations: 12\n' });
    const result = await checkBeforeTask({ store, task: TASK, plan: PLAN, now: NOW });
    assert.deepEqual(result.recommendations.map((r) => r.knowledge.id), recommendations.slice(0, 12).map((e) => e.id));
  });

  const outcomes: Array<[string, string, Partial<TaskContext>, boolean, string[], string[]]> = [
    ['a critical match blocks by default', '', {}, false, ['pro-env'], ['pro-legacy']],
    ['without block_on_critical a critical match only warns', 'pre_task_check:\n  block_on_critical: false\n', {}, true, [], ['pro-env', 'pro-legacy']],
    ["the task's project decides which project entries apply", '', { projectId: 'blog' }, false, ['pro-blog', 'pro-env'], []],
  ];
  for (const [name, config, task, canProceed, blockers, warnings] of outcomes) {
    it(name, async (t) => {
      const { store } = await knowledgeStore(t, CORPUS, { config });
      const result = await checkBeforeTask({ store, task: { ...TASK, ...task }, plan: PLAN, now: NOW });
      assert.deepEqual([result.canProceed, result.blockers.map((b) => b.knowledge.id), result.warnings.map((w) => w.knowledge.id)], [canProceed, blockers, warnings]);
    });
  }

  it('lists matched prohibitions by priority, highest first, then by id, from a fresh index and from its snapshot', async (t) => {
    // Ids in another order than priorities, so that neither the files' order nor the ids' gives the list.
    const priorities = { 'pro-a': 'low', 'pro-b': 'medium', 'pro-c': 'critical', 'pro-d': 'high', 'pro-e': 'critical', 'pro-f': 'high' } as const;
    const { store } = await knowledgeStore(t, Object.entries(priorities).map(([id, priority]) => entry({ id, priority, keywords: ['settings'] })));
    // Files an hour old: lore trusts their stamp, so the first check writes the index snapshot the second reads.
    const folder = join(store.root, '.knowledge/knowledge/prohibitions');
    const hourAgo = new Date(Date.now() - 3600_000);
    for (const name of readdirSync(folder)) utimesSync(join(folder, name), hourAgo, hourAgo);
    for (const from of ['records', 'snapshot']) {
      assert.equal(existsSync(join(store.root, '.knowledge/.cache/knowledge-index.bin')), from === 'snapshot', from);
      const result = await checkBeforeTask({ store, task: TASK, plan: PLAN, now: NOW });
      assert.deepEqual([result.blockers.map((b) => b.knowledge.id), result.warnings.map((w) => w.knowledge.id)], [['pro-c', 'pro-e'], ['pro-d', 'pro-f', 'pro-b', 'pro-a']], from);
    }
  });

  it('passes, and says so, when pre_task_check.enabled is false', async (t) => {
    const { store } = await knowledgeStore(t, CORPUS, { config: 'pre_task_check:\n  enabled: false\n' });
    const { problems: _, ...result } = await checkBeforeTask({ store, task: TASK, plan: PLAN, now: NOW });
    assert.deepEqual(result, { enabled: false, canProceed: true, blockers: [], warnings: [], recommendations: [], learnings: [], summary: 'The pre-task check is disabled (pre_task_check.enabled is false in .knowledge/config.yaml).', checked: { prohibitions: 0, files: 0 } });
  });
});

describe('lore check-plan', () => {
  const inputs = { 'task.json': JSON.stringify(TASK), 'plan.json': JSON.stringify(PLAN, null, 2) };

  it('prints the verdict with every reason and exits 1 when blocked', async (t) => {
    const { root } = await knowledgeStore(t, CORPUS, { files: inputs });
    const result = await lore(['check-plan', '--task', 'task.json', '--plan', 'plan.json'], { cwd: root });
    assert.equal(result.code, 1);
    assertGolden('check-plan-blocked.txt', result.stdout);
    const json = await loreJson<{ canProceed: boolean; blockers: Array<{ matchReason: string }> }>(['check-plan'], { cwd: root, input: JSON.stringify({ task: TASK, plan: PLAN }) });
    assert.deepEqual([json.code, json.json.canProceed, json.json.blockers[0]!.matchReason], [1, false, 'File config/.env matches prohibited glob **/.env']);
    const clean = await lore(['check-plan'], { cwd: root, input: JSON.stringify({ task: TASK, plan: { approach: 'Document the settings.', fileChanges: [{ path: 'README.md' }] } }) });
    assert.equal(clean.code, 0);
    assert.equal(clean.stdout.split('\n')[0], 'can proceed: no critical prohibition matches the plan');
  });

  it('says that a critical prohibition matched and does not block when pre_task_check.block_on_critical is false', async (t) => {
    const { root } = await knowledgeStore(t, CORPUS, { files: inputs, config: 'pre_task_check:\n  block_on_critical: false\n' });
    const result = await lore(['check-plan', '--task', 'task.json', '--plan', 'plan.json'], { cwd: root });
    assert.equal(result.code, 0);
    const lines = result.stdout.split('\n');
    assert.equal(lines[0], 'can proceed with 2 warnings: 1 critical prohibition matches the plan but does not block (pre_task_check.block_on_critical is false)');
    assert.match(lines[1]!, /^ {2}warning {2}pro-env {2}\[critical\] /);
  });

  it('lists every warning by default, and at most --max-warnings (plan.check lists 25 unless told), never cutting a blocker', async (t) => {
    const many = [
      entry({ id: 'pro-env', type: 'prohibition', priority: 'critical', title: 'Never commit .env files', globs: ['**/.env'] }),
      ...Array.from({ length: 30 }, (_, i) => entry({ id: `pro-w${String(i).padStart(2, '0')}`, type: 'prohibition', priority: i < 10 ? 'high' : 'low', title: `Warning ${i}`, keywords: ['settings'] })),
    ];
    const { root } = await knowledgeStore(t, many);
    const input = JSON.stringify({ task: TASK, plan: { approach: 'Write the settings.', fileChanges: [{ path: 'config/.env' }] } });
    const all = await loreJson<{ blockers: unknown[]; warnings: unknown[]; warningsOmitted?: number }>(['check-plan'], { cwd: root, input });
    assert.deepEqual([all.code, all.json.blockers.length, all.json.warnings.length, all.json.warningsOmitted], [1, 1, 30, undefined]);
    const cut = await lore(['check-plan', '--max-warnings', '2'], { cwd: root, input });
    assert.equal(cut.code, 1);
    assert.deepEqual(cut.stdout.split('\n').filter((line) => /^ {2}(blocker|warning|\.\.\.)/.test(line)), [
      '  blocker  pro-env  [critical] Never commit .env files',
      '  warning  pro-w00  [high] Warning 0',
      '  warning  pro-w01  [high] Warning 1',
      '  ... and 28 more warnings (--max-warnings)',
    ]);
    const ws = new Workspace({ cwd: root, env: testEnv() });
    const byDefault = await runOp('plan.check', JSON.parse(input), { ws, note: () => undefined, progress: () => undefined }) as { blockers: unknown[]; warnings: Array<{ knowledge: { priority: string } }>; warningsOmitted: number };
    assert.deepEqual([byDefault.blockers.length, byDefault.warnings.length, byDefault.warningsOmitted, byDefault.warnings.filter((w) => w.knowledge.priority === 'high').length], [1, 25, 5, 10]);
  });

  it('runs a catastrophic pattern from a file in linear time', async (t) => {
    const { root } = await knowledgeStore(t, [entry({ id: 'pro-redos', patterns: ['(a+)+$'], priority: 'critical' })]);
    const result = await loreJson<{ canProceed: boolean }>(['check-plan'], { cwd: root, input: JSON.stringify({ task: TASK, plan: { approach: '', fileChanges: [{ path: `${'a'.repeat(100_000)}!` }] } }) });
    assert.deepEqual([result.code, result.json.canProceed], [0, true]);
  });

  it('explains invalid input with its file, line and field', async (t) => {
    const { root } = await knowledgeStore(t, [], { files: { ...inputs, 'broken.json': '{\n  "approach": "x",\n  "fileChanges": [\n', 'bad-plan.json': '{\n  "approach": "x",\n  "fileChanges": [{ "file": "a.ts" }]\n}\n' } });
    const broken = await lore(['check-plan', '--task', 'task.json', '--plan', 'broken.json'], { cwd: root });
    assert.equal(broken.code, 1);
    assert.equal(broken.stderr, 'error: could not read the task and plan from task.json and broken.json\nbroken.json:4:1: error: JSON syntax: expected a value (found the end of the text)\n    3 |   "fileChanges": [\n  > 4 | \n      | ^\n');
    const bad = await lore(['check-plan', '--task', 'task.json', '--plan', 'bad-plan.json'], { cwd: root });
    assert.deepEqual(bad, { code: 1, stdout: '', stderr: [
      'error: the task and plan in task.json and bad-plan.json are invalid',
      'bad-plan.json:3:19: error: plan.fileChanges[0].path is required but missing',
      '    2 |   "approach": "x",',
      '  > 3 |   "fileChanges": [{ "file": "a.ts" }]',
      '      |                   ^^^^^^^^^^^^^^^^^^',
      'bad-plan.json:3:21: error: unknown field "file" in plan.fileChanges[0]',
      '    2 |   "approach": "x",',
      '  > 3 |   "fileChanges": [{ "file": "a.ts" }]',
      '      |                     ^^^^^^',
      'hint: the format is schemas/task-plan.schema.json: task { description, type?, projectId?, agentType? }, plan { approach, fileChanges: [{ path, change? }], technologies? }',
      '',
    ].join('\n') });
    assert.deepEqual(await lore(['check-plan', '--task', 'task.json'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: give both --task and --plan, or neither and one { "task": ..., "plan": ... } object on stdin\n' });
    assert.deepEqual(await lore(['check-plan', '--task', 'task.json', '--plan', 'nope.json'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: nope.json does not exist\n' });
    assert.deepEqual(await lore(['check-plan'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: no task and plan given: pass --task FILE --plan FILE, or pipe { "task": ..., "plan": ... } to stdin\n' });
  });
});

describe('lore prompt agent', () => {
  it('prints the spec prompt with blockers, warnings, recommendations and learnings', async (t) => {
    const { root } = await knowledgeStore(t, CORPUS, { config: 'pre_task_check:\n  max_learnings: 5\n', files: { 'task.json': JSON.stringify(TASK), 'plan.json': JSON.stringify(PLAN) } });
    const result = await lore(['prompt', 'agent', '--task', 'task.json', '--plan', 'plan.json'], { cwd: root });
    assert.equal(result.code, 0, result.stderr);
    // At most three learnings, though the check found four.
    assertGolden('prompt-agent-full.txt', result.stdout);
    const check = await loreJson<{ learnings: unknown[] }>(['check-plan', '--task', 'task.json', '--plan', 'plan.json'], { cwd: root });
    assert.equal(check.json.learnings.length, 4);
  });

  it('leaves out empty sections', async (t) => {
    const { root } = await knowledgeStore(t, CORPUS);
    const input = JSON.stringify({ task: { description: 'Bump the version number.' }, plan: { approach: 'Increase it by one.', fileChanges: [{ path: 'VERSION' }] } });
    const result = await lore(['prompt', 'agent'], { cwd: root, input });
    assertGolden('prompt-agent-empty.txt', result.stdout);
    const json = await loreJson<{ prompt: string; canProceed: boolean }>(['prompt', 'agent'], { cwd: root, input });
    assert.deepEqual(json.json, { prompt: '## Task\nBump the version number.\n\n## Plan\nIncrease it by one.\n\n', canProceed: true });
  });

  it('has only warnings when nothing critical matches', async (t) => {
    const { root } = await knowledgeStore(t, CORPUS.filter((e) => e.id !== 'pro-env'));
    const result = await lore(['prompt', 'agent'], { cwd: root, input: JSON.stringify({ task: TASK, plan: PLAN }) });
    assertGolden('prompt-agent-warnings.txt', result.stdout);
  });
});


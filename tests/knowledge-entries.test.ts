// Managing knowledge entries from the CLI: add, edit, enable, disable, rm, list filters.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isValidAt } from '../src/knowledge/applicable.js';
import { matchesFilter, type KnowledgeFilter } from '../src/knowledge/filter.js';
import type { KnowledgeEntry } from '../src/types.js';
import { inProcess } from './helpers/cli.js';
import { configYaml, entry, entryFiles } from './helpers/knowledge.js';
import { gitRepo, tempStore } from './helpers/temp.js';

const { lore, loreJson } = inProcess;

const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;
const read = (root: string, path: string): string => readFileSync(join(root, '.knowledge', path), 'utf8');

describe('lore add', () => {
  it('writes one canonical file with a readable id, timestamps and the git author', async (t) => {
    const repo = gitRepo(t, { '.knowledge/config.yaml': configYaml() });
    const add = await lore(['add', 'prohibition', '--title', 'Never commit .env files!', '--description', 'Environment files hold secrets.', '--glob', '**/.env', '--keyword', 'env', '--keyword', 'secrets', '--priority', 'critical'], { cwd: repo });
    assert.deepEqual(add, { code: 0, stdout: 'added pro-never-commit-env-files (.knowledge/knowledge/prohibitions/pro-never-commit-env-files.yaml)\n', stderr: '' });
    const text = read(repo, 'knowledge/prohibitions/pro-never-commit-env-files.yaml');
    assert.equal(text.replace(ISO, 'T'), [
      '# yaml-language-server: $schema=../../schemas/knowledge-entry.schema.json',
      'id: pro-never-commit-env-files',
      'type: prohibition',
      'title: Never commit .env files!',
      'description: Environment files hold secrets.',
      'scope: global',
      'keywords:',
      '  - env',
      '  - secrets',
      'globs:',
      '  - "**/.env"',
      'priority: critical',
      'source: manual',
      'createdAt: "T"',
      'updatedAt: "T"',
      'createdBy: Test Author <author@example.com>',
      'enabled: true',
      '',
    ].join('\n'));
    const again = await loreJson<{ id: string; status: string }>(['add', 'prohibition', '--title', 'Never commit .env files', '--description', 'Again.'], { cwd: repo });
    assert.deepEqual([again.code, again.json.id, again.json.status], [0, 'pro-never-commit-env-files-2', 'created']);
    const taken = await lore(['add', 'recommendation', '--id', 'pro-never-commit-env-files', '--title', 'X', '--description', 'Y'], { cwd: repo });
    assert.deepEqual([taken.code, taken.stderr.split('\n')[0]], [2, 'error: an entry with id pro-never-commit-env-files already exists']);
  });

  it('records "unknown" as the author when git has no identity, and says so', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': configYaml() });
    const add = await loreJson<{ entry: { createdBy: string; scope: string; projectId: string } }>(['add', 'learning', '--title', 'Cache the index', '--description', 'It is slow to rebuild.', '--project', 'shop'], { cwd: root });
    assert.equal(add.code, 0);
    assert.deepEqual([add.json.entry.createdBy, add.json.entry.scope, add.json.entry.projectId], ['unknown', 'project', 'shop']);
    assert.equal(add.stderr, 'warning: git has no user.name or user.email here, so "unknown" was recorded; set them with git config\n');
  });

  it('refuses an invalid entry with every problem named, and writes nothing', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': configYaml() });
    const add = await lore(['add', 'prohibition', '--title', 'Bad', '--description', 'Bad entry.', '--priority', 'urgent', '--pattern', '(?<=a)b', '--valid-from', '2026-02-30'], { cwd: root });
    assert.equal(add.code, 1);
    assert.equal(add.stdout, '');
    assert.equal(add.stderr, [
      'error: the prohibition pro-bad is invalid',
      '.knowledge/knowledge/prohibitions/pro-bad.yaml: error: priority must be one of low, medium, high, critical (found "urgent")',
      '',
    ].join('\n'));
    const rules = await lore(['add', 'prohibition', '--title', 'Bad', '--description', 'Bad entry.', '--pattern', '(?<=a)b', '--valid-from', '2026-02-30'], { cwd: root });
    assert.equal(rules.code, 1);
    assert.equal(rules.stderr, [
      'error: the prohibition pro-bad is invalid',
      '.knowledge/knowledge/prohibitions/pro-bad.yaml: error: validFrom "2026-02-30" is not a real date',
      '.knowledge/knowledge/prohibitions/pro-bad.yaml: error: patterns[0] "(?<=a)b" is not a usable regular expression: invalid named capture: `(?<=a)b` (patterns use RE2 syntax and run in linear time, so back-references and lookaround are not available)',
      '',
    ].join('\n'));
    assert.equal(existsSync(join(root, '.knowledge/knowledge/prohibitions')), false);
  });

  it('reads a validity window as it is applied: a validUntil date alone is the whole of that day', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': configYaml() });
    // From noon to the end of the same day: valid, and the entry applies that afternoon.
    const sameDay = await loreJson<{ entry: KnowledgeEntry }>(['add', 'learning', '--title', 'Afternoon', '--description', 'Half a day.', '--valid-from', '2026-05-01T12:00:00Z', '--valid-until', '2026-05-01'], { cwd: root });
    assert.equal(sameDay.code, 0);
    assert.deepEqual(['2026-05-01T11:59:59Z', '2026-05-01T18:00:00Z', '2026-05-02T00:00:00Z'].map((at) => isValidAt(sameDay.json.entry, new Date(at))), [false, true, false]);
    // Ending the day before it starts: refused, with nothing written.
    const reversed = await lore(['add', 'learning', '--title', 'Never', '--description', 'No day at all.', '--valid-from', '2026-05-02', '--valid-until', '2026-05-01T23:59:59Z'], { cwd: root });
    assert.equal(reversed.code, 1);
    assert.equal(reversed.stderr, [
      'error: the learning learn-never is invalid',
      '.knowledge/knowledge/learnings/learn-never.yaml: error: validUntil (2026-05-01T23:59:59Z) is before validFrom (2026-05-02): the entry could never apply',
      '',
    ].join('\n'));
    assert.equal(existsSync(join(root, '.knowledge/knowledge/learnings/learn-never.yaml')), false);
  });

  it('reads an entry from a file or stdin, with flags overriding the file', async (t) => {
    const repo = gitRepo(t, { '.knowledge/config.yaml': configYaml(), 'entry.yaml': 'type: learning\ntitle: Retry with backoff\ndescription: Fixed delays synchronise clients.\nexamples:\n  - scenario: API returns 429\n    goodApproach: Exponential backoff with jitter\nkeywords: [retry]\n' });
    const add = await loreJson<{ entry: Record<string, unknown> }>(['add', '--from-file', 'entry.yaml', '--priority', 'high'], { cwd: repo });
    assert.equal(add.code, 0, add.stderr);
    assert.deepEqual([add.json.entry.id, add.json.entry.priority, add.json.entry.examples], ['learn-retry-with-backoff', 'high', [{ scenario: 'API returns 429', goodApproach: 'Exponential backoff with jitter' }]]);
    const stdin = await lore(['add', 'recommendation', '--from-file', '-'], { cwd: repo, input: '{"title": "Pin versions", "description": "Lock files make builds repeatable.", "keywords": ["npm"]}' });
    assert.deepEqual(stdin, { code: 0, stdout: 'added rec-pin-versions (.knowledge/knowledge/recommendations/rec-pin-versions.yaml)\n', stderr: '' });
    const mismatch = await lore(['add', 'prohibition', '--from-file', 'entry.yaml'], { cwd: repo });
    assert.deepEqual([mismatch.code, mismatch.stderr.split('\n')[0]], [1, 'error: the entry says type learning, but a prohibition is being added']);
    const broken = await lore(['add', 'learning', '--from-file', '-'], { cwd: repo, input: 'title: [unclosed\n' });
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /^error: could not read the entry in <stdin>\n<stdin>:2:1: error: YAML syntax: /);
  });
});

describe('lore edit, enable, disable and rm', () => {
  const files = { '.knowledge/config.yaml': configYaml(), ...entryFiles([entry({ id: 'rec-strict', keywords: ['typescript'], details: 'Old details.' })]) };
  const path = 'knowledge/recommendations/rec-strict.yaml';

  it('sets fields as their type needs, removes a field with an empty value, and sets updatedAt', async (t) => {
    const repo = gitRepo(t, files);
    const edit = await lore(['edit', 'rec-strict', '--set', 'priority=high', '--set', 'keywords=[typescript, tsconfig]', '--set', 'details=', '--set', 'sourceRef=123', '--set', 'secret=true'], { cwd: repo });
    assert.deepEqual(edit, { code: 0, stdout: 'updated rec-strict (.knowledge/knowledge/recommendations/rec-strict.yaml)\n', stderr: '' });
    const text = read(repo, path);
    assert.match(text, /\nkeywords:\n {2}- typescript\n {2}- tsconfig\nsecret: true\npriority: high\nsource: manual\nsourceRef: "123"\ncreatedAt: "2026-01-01T00:00:00.000Z"\nupdatedAt: "20\d\d-/);
    assert.doesNotMatch(text, /details|updatedAt: "2026-01-01T00:00:00.000Z"/);
    const single = await loreJson<{ entry: { keywords: string[] } }>(['edit', 'rec-strict', '--set', 'keywords=strict'], { cwd: repo });
    assert.deepEqual(single.json.entry.keywords, ['strict']);
  });

  it('names the field when an edit is wrong', async (t) => {
    const repo = gitRepo(t, files);
    const cases: Array<[string[], number, string]> = [
      [['--set', 'priorty=high'], 2, 'error: unknown field "priorty" in --set\nhint: did you mean "priority"?\n'],
      [['--set', 'priority'], 2, 'error: --set expects field=value (found "priority")\nhint: e.g. --set priority=high, --set keywords="[env, secrets]", --set details= (empty removes the field)\n'],
      [['--set', 'id=other'], 2, 'error: id cannot be set: lore maintains it\n'],
      [['--set', 'priority=urgent'], 1, 'error: the recommendation rec-strict is invalid\n.knowledge/knowledge/recommendations/rec-strict.yaml: error: priority must be one of low, medium, high, critical (found "urgent")\n'],
      [['--set', 'enabled=maybe'], 1, 'error: the recommendation rec-strict is invalid\n.knowledge/knowledge/recommendations/rec-strict.yaml: error: enabled must be true or false (found string "maybe")\n'],
      [['--set', 'description='], 1, 'error: the recommendation rec-strict is invalid\n.knowledge/knowledge/recommendations/rec-strict.yaml: error: description is required but missing\n'],
      [[], 2, 'error: lore edit needs at least one --set field=value\nhint: e.g. lore edit <id> --set priority=high\n'],
    ];
    const before = read(repo, path);
    for (const [args, code, stderr] of cases) {
      assert.deepEqual(await lore(['edit', 'rec-strict', ...args], { cwd: repo }), { code, stdout: '', stderr }, args.join(' '));
    }
    assert.equal(read(repo, path), before);
  });

  it('disables, enables and removes entries, and explains an unknown id', async (t) => {
    const repo = gitRepo(t, files);
    assert.deepEqual(await lore(['disable', 'rec-strict'], { cwd: repo }), { code: 0, stdout: 'disabled rec-strict (.knowledge/knowledge/recommendations/rec-strict.yaml)\n', stderr: '' });
    assert.match(read(repo, path), /\nenabled: false\n$/);
    assert.deepEqual(await lore(['disable', 'rec-strict'], { cwd: repo }), { code: 0, stdout: 'rec-strict is already disabled\n', stderr: '' });
    assert.deepEqual(await lore(['enable', 'rec-strict'], { cwd: repo }), { code: 0, stdout: 'enabled rec-strict (.knowledge/knowledge/recommendations/rec-strict.yaml)\n', stderr: '' });
    assert.deepEqual(await lore(['rm', 'rec-stric'], { cwd: repo }), { code: 2, stdout: '', stderr: 'error: no knowledge entry with id "rec-stric"\nhint: did you mean rec-strict?\n' });
    assert.deepEqual(await lore(['rm', 'rec-strict'], { cwd: repo }), { code: 0, stdout: 'removed rec-strict (.knowledge/knowledge/recommendations/rec-strict.yaml)\n', stderr: '' });
    assert.deepEqual(readdirSync(join(repo, '.knowledge/knowledge/recommendations')), []);
  });
});

describe('lore list filters', () => {
  const entries = [
    entry({ id: 'rec-a', scope: 'project', projectId: 'shop', priority: 'high', keywords: ['typescript'] }),
    entry({ id: 'pro-b', scope: 'agent_type', agentTypes: ['player'], priority: 'critical', source: 'code_review', validUntil: '2026-06-30' }),
    entry({ id: 'learn-c', enabled: false, validFrom: '2026-07-01', title: 'Backoff with jitter' }),
  ];
  const cases: Array<[string, KnowledgeFilter, string[]]> = [
    ['no criteria', {}, ['rec-a', 'pro-b', 'learn-c']],
    ['type', { types: ['prohibition', 'learning'] }, ['pro-b', 'learn-c']],
    ['scope', { scopes: ['project'] }, ['rec-a']],
    ['project', { projectId: 'shop' }, ['rec-a']],
    ['agent type', { agentType: 'player' }, ['pro-b']],
    ['priority', { priorities: ['critical', 'high'] }, ['rec-a', 'pro-b']],
    ['source', { sources: ['code_review'] }, ['pro-b']],
    ['enabled', { enabled: false }, ['learn-c']],
    ['valid at, before a window', { validAt: new Date('2026-06-30T23:00:00Z') }, ['rec-a', 'pro-b']],
    ['valid at, inside a window', { validAt: new Date('2026-07-01T00:00:00Z') }, ['rec-a', 'learn-c']],
    ['text, any field, any case', { text: 'JITTER' }, ['learn-c']],
    ['text in keywords', { text: 'typescript' }, ['rec-a']],
    ['several criteria', { types: ['recommendation'], priorities: ['critical'] }, []],
  ];
  for (const [name, filter, expected] of cases) {
    it(`selects by ${name}`, () => {
      assert.deepEqual(entries.filter((e) => matchesFilter(e, filter)).map((e) => e.id), expected);
    });
  }

  it('applies the flags from the CLI and shows usage statistics', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': configYaml(), ...entryFiles(entries), '.knowledge/log/applications.ndjson': '{"id":"e1","entryId":"rec-a","taskId":"T1","helpful":true,"timestamp":"2026-02-01T00:00:00.000Z"}\n' });
    const list = await lore(['list', '--priority', 'critical', '--priority', 'high', '--valid-at', '2026-05-01'], { cwd: root });
    assert.deepEqual(list, { code: 0, stdout: 'recommendation  rec-a  [high] Title of rec-a (applied 1 time, 1 helpful, last 2026-02-01)\nprohibition     pro-b  [critical] Title of pro-b\n', stderr: '' });
    const json = await loreJson<Array<{ id: string; stats: unknown }>>(['list', 'prohibitions', '--text', 'pro-b'], { cwd: root });
    assert.deepEqual(json.json.map((r) => [r.id, r.stats]), [['pro-b', { timesApplied: 0, timesHelpful: 0 }]]);
    assert.deepEqual(await lore(['list', 'gates', '--enabled'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: the filters select knowledge entries only\nhint: list entries, recommendations, prohibitions, learnings or pending with them\n' });
    assert.deepEqual(await lore(['list', '--type', 'prohibitons'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: --type must be one of recommendation, prohibition, learning (found "prohibitons")\nhint: did you mean prohibition?\n' });
  });
});

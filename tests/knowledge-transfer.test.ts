// Export and import: the round trip, atomicity (all or nothing), conflicts, defaults.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { inProcess } from './helpers/cli.js';
import { renderRecord } from '../src/store/write.js';
import { entry, knowledgeStore } from './helpers/knowledge.js';

const { lore, loreJson } = inProcess;

const CORPUS = [
  entry({ id: 'pro-env', title: 'Never commit .env files', description: 'Secrets.', globs: ['**/.env'], keywords: ['env'], priority: 'critical', validUntil: '2030-01-01' }),
  entry({ id: 'rec-strict', title: 'Use TypeScript strict mode', description: 'Enable strict.', scope: 'agent_type', agentTypes: ['player'], details: 'Line one.\nLine two.' }),
  entry({ id: 'learn-backoff', title: 'Backoff', description: 'Use jitter.', examples: [{ scenario: '429', goodApproach: 'Exponential backoff', outcome: 'Fewer storms' }], source: 'task_success', sourceRef: 'PR #234' }),
];
const LOG = [
  { id: 'a1', entryId: 'rec-strict', taskId: 'T1', helpful: true, timestamp: '2026-02-01T00:00:00.000Z' },
  { id: 'a2', entryId: 'rec-strict', taskId: 'T2', helpful: false, timestamp: '2026-02-03T00:00:00.000Z' },
  { id: 'a3', entryId: 'pro-env', taskId: 'T2', timestamp: '2026-02-02T00:00:00.000Z' },
].map((l) => JSON.stringify(l)).join('\n');

describe('lore export and import', () => {
  it('round-trips: export, import into an empty store, export again gives the same bytes', async (t) => {
    const source = await knowledgeStore(t, CORPUS, { files: { '.knowledge/log/applications.ndjson': `${LOG}\n` } });
    for (const format of ['json', 'ndjson']) {
      const exported = await lore(['export', '--format', format], { cwd: source.root });
      assert.equal(exported.code, 0, exported.stderr);
      const target = await knowledgeStore(t, []);
      const imported = await lore(['import', '-'], { cwd: target.root, input: exported.stdout });
      assert.deepEqual(imported, { code: 0, stdout: [
        'created learn-backoff (.knowledge/knowledge/learnings/learn-backoff.yaml)',
        'created pro-env (.knowledge/knowledge/prohibitions/pro-env.yaml)',
        'created rec-strict (.knowledge/knowledge/recommendations/rec-strict.yaml)',
        'imported: 3 entries: 3 created, 0 overwritten, 0 unchanged, 0 renamed, 0 skipped',
        '',
      ].join('\n'), stderr: '' });
      assert.equal((await lore(['export', '--format', format], { cwd: target.root })).stdout, exported.stdout, format);
      for (const file of ['knowledge/learnings/learn-backoff.yaml', 'knowledge/prohibitions/pro-env.yaml', 'knowledge/recommendations/rec-strict.yaml']) {
        assert.equal(readFileSync(join(target.root, '.knowledge', file), 'utf8'), readFileSync(join(source.root, '.knowledge', file), 'utf8'), file);
      }
    }
  });

  it('exports full entries with their statistics, sorted by id, filtered like list', async (t) => {
    const { root } = await knowledgeStore(t, CORPUS, { files: { '.knowledge/log/applications.ndjson': `${LOG}\n` } });
    const all = await loreJson<Array<Record<string, unknown>>>(['export'], { cwd: root });
    assert.deepEqual(all.json.map((e) => [e.id, e.timesApplied, e.timesHelpful, e.lastApplied]), [['learn-backoff', 0, 0, undefined], ['pro-env', 1, 0, '2026-02-02T00:00:00.000Z'], ['rec-strict', 2, 1, '2026-02-03T00:00:00.000Z']]);
    assert.deepEqual(Object.keys(all.json[1]!), ['id', 'type', 'title', 'description', 'scope', 'keywords', 'globs', 'priority', 'source', 'createdAt', 'updatedAt', 'createdBy', 'validUntil', 'enabled', 'timesApplied', 'timesHelpful', 'lastApplied']);
    const critical = await lore(['export', '--priority', 'critical', '--format', 'ndjson'], { cwd: root });
    assert.equal(critical.stdout, `${JSON.stringify(all.json[1])}\n`);
    assert.deepEqual(await lore(['export', '--type', 'learning', '--text', 'nothing like this'], { cwd: root }), { code: 0, stdout: '[]\n', stderr: '' });
  });

  it('writes nothing when any entry is invalid, and lists every problem', async (t) => {
    const { root } = await knowledgeStore(t, []);
    const text = [
      '[',
      '  { "id": "rec-ok", "type": "recommendation", "title": "Fine", "description": "Fine.", "scope": "global", "keywords": [], "priority": "low" },',
      '  { "id": "rec-bad", "type": "recommendation", "title": "Bad", "description": "Bad.", "scope": "global", "keywords": [], "priority": "urgent" },',
      '  { "id": "pro-regex", "type": "prohibition", "title": "Regex", "description": "R.", "scope": "global", "keywords": [], "priority": "high", "patterns": ["(?<=x)y"] },',
      '  { "id": "rec-ok", "type": "tip", "title": "T", "description": "T." },',
      '  { "id": "rec-ok", "type": "recommendation", "description": "No title.", "scope": "global", "keywords": [], "priority": "low", "timesApplied": -1 }',
      ']',
      '',
    ].join('\n');
    const imported = await lore(['import', '-', '--json'], { cwd: root, input: text });
    assert.equal(imported.code, 1);
    const error = (JSON.parse(imported.stdout) as { error: { message: string; problems: Array<{ line: number; pointer: string; message: string }> } }).error;
    assert.equal(error.message, 'nothing was imported: <stdin> has 6 problems');
    assert.deepEqual(error.problems.map((p) => [p.line, p.pointer, p.message]), [
      [3, '/1/priority', 'priority must be one of low, medium, high, critical (found "urgent")'],
      [4, '/2/patterns/0', 'patterns[0] "(?<=x)y" is not a usable regular expression: invalid named capture: `(?<=x)y` (patterns use RE2 syntax and run in linear time, so back-references and lookaround are not available)'],
      [5, '/3/type', 'type must be one of recommendation, prohibition, learning (found "tip")'],
      [6, '/4/timesApplied', 'timesApplied must be a whole number from 0 to 100000 (found -1)'],
      [6, '/4/id', 'the id rec-ok is used by two entries of the file (the other is at line 2)'],
      [6, '/4/title', 'title is required but missing'],
    ]);
    assert.equal(existsSync(join(root, '.knowledge/knowledge')), false);
    assert.equal(existsSync(join(root, '.knowledge/log')), false);
  });

  it('skips, overwrites or renames an id that exists; --dry-run writes nothing; source import where missing', async (t) => {
    const existing = entry({ id: 'rec-strict', title: 'Old title', description: 'Old.' });
    const incoming = [
      { id: 'rec-strict', type: 'recommendation', title: 'New title', description: 'New.', scope: 'global', keywords: [], priority: 'high', timesApplied: 2, timesHelpful: 1, lastApplied: '2026-03-01T00:00:00.000Z' },
      { type: 'learning', title: 'Cache the index', description: 'Rebuilds are slow.', scope: 'global', keywords: ['cache'], priority: 'medium' },
    ].map((e) => JSON.stringify(e)).join('\n');
    const cases: Array<[string[], string[], string]> = [
      [[], ['skipped rec-strict', 'created learn-cache-the-index'], 'Old title'],
      [['--on-conflict', 'overwrite'], ['overwritten rec-strict', 'created learn-cache-the-index'], 'New title'],
      [['--on-conflict', 'rename'], ['renamed rec-strict → rec-strict-2', 'created learn-cache-the-index'], 'Old title'],
      [['--on-conflict', 'rename', '--dry-run'], ['would be renamed rec-strict → rec-strict-2', 'would be created learn-cache-the-index'], 'Old title'],
    ];
    for (const [flags, actions, title] of cases) {
      const { root } = await knowledgeStore(t, [existing]);
      const result = await lore(['import', '-', ...flags], { cwd: root, input: `${incoming}\n` });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(result.stdout.split('\n').slice(0, 2).map((l) => l.replace(/ \(\.knowledge\/.*\)$/, '')), actions, flags.join(' '));
      assert.match(readFileSync(join(root, '.knowledge/knowledge/recommendations/rec-strict.yaml'), 'utf8'), new RegExp(`\ntitle: ${title}\n`));
      const dryRun = flags.includes('--dry-run');
      assert.equal(existsSync(join(root, '.knowledge/knowledge/learnings/learn-cache-the-index.yaml')), !dryRun);
      if (dryRun) continue;
      const learned = await loreJson<{ value: Record<string, unknown>; stats: Record<string, unknown> }>(['show', 'learn-cache-the-index'], { cwd: root });
      assert.deepEqual([learned.json.value.source, learned.json.value.createdBy, learned.json.value.enabled], ['import', 'unknown', true]);
      // Statistics come along only for entries the import creates.
      const renamed = flags.includes('rename') ? await loreJson<{ stats: unknown }>(['show', 'rec-strict-2'], { cwd: root }) : undefined;
      if (renamed !== undefined) assert.deepEqual(renamed.json.stats, { timesApplied: 2, timesHelpful: 1, lastApplied: '2026-03-01T00:00:00.000Z' });
    }
  });

  it('keeps an imported lastApplied, and invents none when the export had none', async (t) => {
    const { root } = await knowledgeStore(t, []);
    const incoming = [
      { id: 'rec-dated', type: 'recommendation', title: 'Dated', description: 'Applied before.', scope: 'global', keywords: [], priority: 'high', timesApplied: 3, timesHelpful: 1, lastApplied: '2026-02-01T00:00:00.000Z' },
      { id: 'rec-undated', type: 'recommendation', title: 'Undated', description: 'Applied, when unknown.', scope: 'global', keywords: [], priority: 'high', timesApplied: 2, timesHelpful: 2 },
    ].map((e) => JSON.stringify(e)).join('\n');
    assert.equal((await lore(['import', '-'], { cwd: root, input: `${incoming}\n` })).code, 0);
    const exported = await loreJson<Array<{ id: string; timesApplied: number; timesHelpful: number; lastApplied?: string }>>(['export'], { cwd: root });
    assert.deepEqual(exported.json.map((e) => [e.id, e.timesApplied, e.timesHelpful, e.lastApplied]), [['rec-dated', 3, 1, '2026-02-01T00:00:00.000Z'], ['rec-undated', 2, 2, undefined]]);
    // A later application dates it.
    assert.equal((await lore(['applied', 'rec-undated', '--task', 'T-1'], { cwd: root })).code, 0);
    const after = await loreJson<{ stats: { timesApplied: number; lastApplied?: string } }>(['show', 'rec-undated'], { cwd: root });
    assert.equal(after.json.stats.timesApplied, 3);
    assert.match(after.json.stats.lastApplied ?? '', /^\d{4}-\d\d-\d\dT/);
  });

  it('imports into a full folder as into an empty one: ids taken on disk, hand-written .yml files, unchanged entries', async (t) => {
    // 30 entries per folder: past the point where a transaction lists a folder instead of asking per file.
    const stored = Array.from({ length: 30 }, (_, i) => entry({ id: `rec-k-${i}`, type: 'recommendation' }));
    const { root } = await knowledgeStore(t, [...stored.filter((_, i) => i !== 20), entry({ id: 'rec-k-0-2', type: 'recommendation' }), entry({ id: 'learn-cache-the-index', type: 'learning' })], {
      files: { '.knowledge/knowledge/recommendations/rec-k-20.yml': renderRecord('recommendation', stored[20]!) },
    });
    const incoming = [
      ...stored.map((e, i) => (i === 0 || i === 20 ? { ...e, title: `New title ${i}` } : e)),
      { id: 'rec-fresh', type: 'recommendation', title: 'Fresh', description: 'F.', scope: 'global', keywords: [], priority: 'low' },
      { type: 'learning', title: 'Cache the index', description: 'Rebuilds are slow.', scope: 'global', keywords: [], priority: 'medium' },
    ].map((e) => JSON.stringify(e)).join('\n');
    const overwrite = await lore(['import', '-', '--on-conflict', 'overwrite'], { cwd: root, input: `${incoming}\n` });
    assert.equal(overwrite.code, 0, overwrite.stderr);
    const lines = overwrite.stdout.split('\n');
    assert.deepEqual([lines[0], lines[1], lines[20], lines[29], lines[30], lines[31], lines[32]], [
      'overwritten rec-k-0 (.knowledge/knowledge/recommendations/rec-k-0.yaml)',
      'unchanged rec-k-1 (.knowledge/knowledge/recommendations/rec-k-1.yaml)',
      'overwritten rec-k-20 (.knowledge/knowledge/recommendations/rec-k-20.yaml)',
      'unchanged rec-k-29 (.knowledge/knowledge/recommendations/rec-k-29.yaml)',
      'created rec-fresh (.knowledge/knowledge/recommendations/rec-fresh.yaml)',
      'created learn-cache-the-index-2 (.knowledge/knowledge/learnings/learn-cache-the-index-2.yaml)',
      'imported: 32 entries: 2 created, 2 overwritten, 28 unchanged, 0 renamed, 0 skipped',
    ]);
    const recommendations = readdirSync(join(root, '.knowledge/knowledge/recommendations'));
    assert.deepEqual([recommendations.length, recommendations.includes('rec-k-20.yml')], [32, false]);
    assert.match(readFileSync(join(root, '.knowledge/knowledge/recommendations/rec-k-20.yaml'), 'utf8'), /\ntitle: New title 20\n/);
    const rename = await lore(['import', '-', '--on-conflict', 'rename'], { cwd: root, input: `${[...stored].reverse().map((e) => JSON.stringify(e)).join('\n')}\n` });
    assert.equal(rename.code, 0, rename.stderr);
    assert.deepEqual(rename.stdout.split('\n').slice(-3), [
      'renamed rec-k-0 → rec-k-0-3 (.knowledge/knowledge/recommendations/rec-k-0-3.yaml)',
      'imported: 30 entries: 0 created, 0 overwritten, 0 unchanged, 30 renamed, 0 skipped',
      '',
    ]);
  });

  it('refuses a file that is not a list of entries, and an unknown policy', async (t) => {
    const { root } = await knowledgeStore(t, []);
    assert.deepEqual(await lore(['import', '-'], { cwd: root, input: 'id: x\n' }), { code: 1, stdout: '', stderr: 'error: nothing was imported: <stdin> has 1 problem\n<stdin>:1:1: error: expected a list of entries (a JSON array, or one JSON object per line)\n' });
    assert.deepEqual(await lore(['import', 'x.json', '--on-conflict', 'replace'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: --on-conflict must be one of skip, overwrite, rename (found "replace")\n' });
    assert.deepEqual(await lore(['import', 'x.json'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: x.json does not exist\n' });
    // Nothing of the import was written; .cache/ holds config.yaml's parse, which any command keeps.
    assert.deepEqual(readdirSync(join(root, '.knowledge')).filter((name) => name !== '.cache'), ['config.yaml']);
    assert.deepEqual(readdirSync(join(root, '.knowledge', '.cache')), ['config.json']);
  });
});

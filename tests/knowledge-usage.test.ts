// Usage statistics (lore applied, aggregation, show/list) and retention (lore prune).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isPrunable } from '../src/knowledge/retention.js';
import { loadUsageStats, type UsageStats } from '../src/knowledge/stats.js';
import { DEFAULT_CONFIG } from '../src/store/config.js';
import type { KnowledgeEntry } from '../src/types.js';
import { inProcess } from './helpers/cli.js';
import { entry, knowledgeStore } from './helpers/knowledge.js';

const { lore, loreJson } = inProcess;

describe('usage statistics', () => {
  it('appends one event per application and aggregates them, leaving the entry file untouched', async (t) => {
    const { root } = await knowledgeStore(t, [entry({ id: 'rec-strict' }), [entry({ id: 'learn-pending' }), 'pending']]);
    const file = join(root, '.knowledge/knowledge/recommendations/rec-strict.yaml');
    const before = readFileSync(file, 'utf8');
    const first = await lore(['applied', 'rec-strict', '--task', 'T1', '--helpful'], { cwd: root });
    assert.equal(first.code, 0);
    assert.match(first.stdout, /^recorded: rec-strict applied to T1 \(helpful\); applied 1 time, 1 helpful, last \d{4}-\d\d-\d\d\n$/);
    await lore(['applied', 'rec-strict', '--task', 'T2', '--not-helpful'], { cwd: root });
    const third = await loreJson<{ event: Record<string, unknown>; stats: UsageStats }>(['applied', 'rec-strict', '--task', 'T3'], { cwd: root });
    assert.deepEqual(Object.keys(third.json.event), ['id', 'entryId', 'taskId', 'appliedBy', 'timestamp']);
    assert.deepEqual(third.json.stats, { timesApplied: 3, timesHelpful: 1, lastApplied: third.json.event.timestamp });
    assert.equal(readFileSync(file, 'utf8'), before);
    const lines = readFileSync(join(root, '.knowledge/log/applications.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(lines.map((l) => [l.entryId, l.taskId, l.helpful]), [['rec-strict', 'T1', true], ['rec-strict', 'T2', false], ['rec-strict', 'T3', undefined]]);
    const show = await loreJson<{ stats: UsageStats }>(['show', 'rec-strict'], { cwd: root });
    assert.deepEqual(show.json.stats, third.json.stats);
    const text = await lore(['show', 'rec-strict'], { cwd: root });
    assert.match(text.stdout, /\nenabled: true\n# usage: applied 3 times, 1 helpful, last \d{4}-\d\d-\d\d\n$/);
    assert.equal((await lore(['validate'], { cwd: root })).code, 0);
  });

  it('refuses unknown and pending ids and bad flags', async (t) => {
    const { root } = await knowledgeStore(t, [entry({ id: 'rec-strict' }), [entry({ id: 'learn-pending' }), 'pending']]);
    assert.deepEqual(await lore(['applied', 'rec-strct', '--task', 'T1'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: no knowledge entry with id "rec-strct"\nhint: did you mean rec-strict?\n' });
    assert.equal((await lore(['applied', 'learn-pending', '--task', 'T1'], { cwd: root })).stderr.split('\n')[0], 'error: no knowledge entry with id "learn-pending"');
    assert.deepEqual(await lore(['applied', 'rec-strict'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: lore applied needs --task T\nhint: usage: lore applied <id> --task T [--helpful|--not-helpful]\n' });
    assert.deepEqual(await lore(['applied', 'rec-strict', '--task', 'T', '--helpful', '--not-helpful'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: --helpful and --not-helpful exclude each other\n' });
    assert.equal(existsSync(join(root, '.knowledge/log/applications.ndjson')), false);
  });

  it('counts a line once when a union merge repeats it, and skips invalid lines with a problem', async (t) => {
    const line = (id: string, entryId: string, helpful: boolean | undefined, at: string): string => JSON.stringify({ id, entryId, taskId: 'T', ...(helpful === undefined ? {} : { helpful }), timestamp: at });
    const log = [
      line('a1', 'rec-a', true, '2026-01-02T00:00:00.000Z'),
      line('a2', 'rec-a', false, '2026-01-05T00:00:00.000Z'),
      line('a1', 'rec-a', true, '2026-01-02T00:00:00.000Z'),
      line('b1', 'rec-b', undefined, '2026-01-03T00:00:00.000Z'),
      '{"id":"bad","entryId":"rec-b"}',
      '',
    ].join('\n');
    const { root } = await knowledgeStore(t, [], { files: { '.knowledge/log/applications.ndjson': log } });
    const { stats, problems } = await loadUsageStats(root);
    assert.deepEqual(Object.fromEntries(stats), {
      'rec-a': { timesApplied: 2, timesHelpful: 1, lastApplied: '2026-01-05T00:00:00.000Z' },
      'rec-b': { timesApplied: 1, timesHelpful: 0, lastApplied: '2026-01-03T00:00:00.000Z' },
    });
    assert.deepEqual(problems.map((p) => [p.file, p.line, p.message]), [['.knowledge/log/applications.ndjson', 5, 'line 5 is invalid: taskId is required but missing; timestamp is required but missing; skipped']]);
  });
});

describe('retention', () => {
  const NOW = new Date('2026-06-01T00:00:00Z');
  const retention = DEFAULT_CONFIG.retention;
  const old = '2025-05-01T00:00:00.000Z';
  const recent = '2025-06-10T00:00:00.000Z';
  const cases: Array<[string, Partial<KnowledgeEntry>, number, boolean]> = [
    ['a low entry, old and never applied, goes', { priority: 'low', createdAt: old }, 0, true],
    ['a low entry applied fewer times than the minimum goes', { priority: 'low', createdAt: old }, 2, true],
    ['a low entry applied the minimum number of times stays', { priority: 'low', createdAt: old }, 3, false],
    ['a low entry younger than max_age_days stays', { priority: 'low', createdAt: recent }, 0, false],
    ['a medium entry stays', { priority: 'medium', createdAt: old }, 0, false],
    ['a high entry stays', { priority: 'high', createdAt: old }, 0, false],
    ['a critical entry stays', { priority: 'critical', createdAt: old }, 0, false],
  ];
  for (const [name, fields, applied, expected] of cases) {
    it(name, () => assert.equal(isPrunable(entry({ id: 'rec-x', ...fields }), { timesApplied: applied, timesHelpful: 0 }, retention, NOW), expected));
  }

  const day = 24 * 60 * 60 * 1000;
  const ago = (days: number): string => new Date(Date.now() - days * day).toISOString();
  const entries = (): Array<KnowledgeEntry | [KnowledgeEntry, 'pending']> => [
    entry({ id: 'rec-old-low', priority: 'low', createdAt: ago(400) }),
    entry({ id: 'learn-old-low', priority: 'low', createdAt: ago(366) }),
    entry({ id: 'rec-old-used', priority: 'low', createdAt: ago(400) }),
    entry({ id: 'rec-young-low', priority: 'low', createdAt: ago(300) }),
    entry({ id: 'pro-old-critical', priority: 'critical', createdAt: ago(900) }),
    [entry({ id: 'learn-old-pending', priority: 'low', createdAt: ago(900) }), 'pending'],
  ];
  const used = Array.from({ length: 3 }, (_, i) => JSON.stringify({ id: `u${i}`, entryId: 'rec-old-used', taskId: 'T', timestamp: ago(10) })).join('\n');

  it('lists what it would remove unless --yes, then removes exactly that', async (t) => {
    const { root } = await knowledgeStore(t, entries(), { files: { '.knowledge/log/applications.ndjson': `${used}\n` } });
    const dry = await lore(['prune'], { cwd: root });
    assert.equal(dry.code, 0);
    assert.match(dry.stdout, /^would remove learn-old-low \(\.knowledge\/knowledge\/learnings\/learn-old-low\.yaml\): created \d{4}-\d\d-\d\d, applied 0 times\nwould remove rec-old-low \(\.knowledge\/knowledge\/recommendations\/rec-old-low\.yaml\): created \d{4}-\d\d-\d\d, applied 0 times\nwould remove 2 entries \(priority low, created more than 365 days ago, applied fewer than 3 times\); lore prune --yes deletes them\n$/);
    assert.equal(existsSync(join(root, '.knowledge/knowledge/recommendations/rec-old-low.yaml')), true);
    const done = await loreJson<{ dryRun: boolean; removed: Array<{ id: string }> }>(['prune', '--yes'], { cwd: root });
    assert.deepEqual([done.json.dryRun, done.json.removed.map((r) => r.id)], [false, ['learn-old-low', 'rec-old-low']]);
    const left = await loreJson<Array<{ id: string }>>(['list', 'entries'], { cwd: root });
    assert.deepEqual(left.json.map((r) => r.id).sort(), ['learn-old-pending', 'pro-old-critical', 'rec-old-used', 'rec-young-low']);
  });

  it('prunes nothing when retention.prune_low_priority is false', async (t) => {
    const { root } = await knowledgeStore(t, entries(), { config: 'retention:\n  prune_low_priority: false\n' });
    assert.deepEqual(await lore(['prune', '--yes'], { cwd: root }), { code: 0, stdout: 'retention.prune_low_priority is false in .knowledge/config.yaml: nothing is pruned\n', stderr: '' });
    assert.equal(existsSync(join(root, '.knowledge/knowledge/recommendations/rec-old-low.yaml')), true);
  });
});

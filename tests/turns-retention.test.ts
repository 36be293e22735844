import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { planRetention, pruneTurns, type FeatureTurns } from '../src/turns/retention.js';
import type { TurnState } from '../src/types.js';
import { inProcess } from './helpers/cli.js';
import { config, ndjson, seededStore, turn } from './helpers/player-coach.js';

const { lore, loreJson } = inProcess;

const LIMITS = { max_per_feature: 3, max_per_project: 5 };
const LIMIT_CONFIG = config('turns:\n  max_per_feature: 3\n  max_per_project: 5\n');

/** A feature with turns 1..count at the given minutes (default 1, 2, 3, ...). */
function feature(name: string, completed: boolean, minutes: number[]): FeatureTurns {
  return { feature: name, completed, turns: minutes.map((minute, i) => turn(name, 'T', i + 1, minute)) };
}

const completion = (name: string, minute: number): object => ({ id: `COMPLETE-${name}`, feature_id: name, completed: true, timestamp: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString() });

describe('turn retention', () => {
  const table: Array<[string, FeatureTurns[], string[], string[]]> = [
    ['keeps everything under the limits', [feature('A', true, [1, 2, 3]), feature('B', false, [4, 5])], [], []],
    ['prunes the oldest turns of a completed feature over the per-feature limit', [feature('A', true, [5, 1, 2, 4, 3])], ['A-T2', 'A-T3'], []],
    ['never prunes a feature in progress, and warns', [feature('A', false, [1, 2, 3, 4, 5])], [], [
      'feature A has 5 turns, over turns.max_per_feature (3), but it is in progress, so none were pruned',
    ]],
    ['over the project limit, prunes the oldest turns of completed features first', [feature('A', true, [1, 2, 3]), feature('B', false, [0, 4, 5])], ['A-T1'], []],
    ['chooses by age across completed features', [feature('A', true, [10, 11, 12]), feature('C', true, [1, 2, 3]), feature('B', false, [4, 5])], ['C-T1', 'C-T2', 'C-T3'], []],
    ['warns when only in-progress turns exceed the project limit', [feature('A', true, [1]), feature('B', false, [2, 3, 4]), feature('C', false, [5, 6, 7])], ['A-T1'], [
      'project demo keeps 6 turns, over turns.max_per_project (5): the turns over the limit belong to features in progress, which are never pruned',
    ]],
    ['applies both limits together', [feature('A', true, [1, 2, 3, 4, 5]), feature('B', false, [6, 7, 8])], ['A-T1', 'A-T2', 'A-T3'], []],
  ];
  for (const [name, features, removed, warnings] of table) {
    it(name, () => {
      const plan = planRetention('demo', features, LIMITS);
      assert.deepEqual([plan.removed.map((t) => `${t.feature}-T${t.turn_number}`), plan.warnings], [removed, warnings]);
    });
  }

  it('rewrites only the logs that lose turns, keeping every other line, and changes nothing on a dry run', async (t) => {
    const a = [turn('A', 'T', 1, 1), turn('A', 'T', 2, 2), turn('A', 'T', 1, 3, { progress_summary: 'updated' }), turn('A', 'T', 3, 4), turn('A', 'T', 4, 5), completion('A', 6)];
    const b = [turn('B', 'T', 1, 7)];
    const files = { '.knowledge/config.yaml': LIMIT_CONFIG, '.knowledge/turns/demo/A.ndjson': ndjson(a), '.knowledge/turns/demo/B.ndjson': ndjson(b) };
    const { root, store } = await seededStore(t, files);
    const dry = await pruneTurns({ store, project: 'demo', dryRun: true });
    assert.deepEqual([dry.removed.map((x) => x.id), dry.before, dry.after], [['TURN-A-T-T2'], 5, 4]);
    assert.equal(readFileSync(join(root, '.knowledge/turns/demo/A.ndjson'), 'utf8'), ndjson(a));
    const done = await pruneTurns({ store, project: 'demo' });
    assert.deepEqual(done.features, [{ feature: 'A', completed: true, turns: 4, removed: 1 }, { feature: 'B', completed: false, turns: 1, removed: 0 }]);
    assert.equal(readFileSync(join(root, '.knowledge/turns/demo/A.ndjson'), 'utf8'), ndjson([a[0]!, a[2]!, a[3]!, a[4]!, a[5]!]));
    assert.equal(readFileSync(join(root, '.knowledge/turns/demo/B.ndjson'), 'utf8'), ndjson(b));
    assert.deepEqual((await pruneTurns({ store, project: 'demo' })).removed, []);
  });

  it('prunes after a record or a completion exceeds a limit, and reports it', async (t) => {
    const a: TurnState[] = [turn('A', 'T', 1, 1), turn('A', 'T', 2, 2), turn('A', 'T', 3, 3)];
    const b: TurnState[] = [turn('B', 'T', 1, 4), turn('B', 'T', 2, 5)];
    const { root } = await seededStore(t, { '.knowledge/config.yaml': LIMIT_CONFIG, '.knowledge/turns/demo/A.ndjson': ndjson(a), '.knowledge/turns/demo/B.ndjson': ndjson(b) });
    const dry = await lore(['turn', 'prune', '--dry-run'], { cwd: root });
    assert.deepEqual(dry, { code: 0, stderr: '', stdout: 'nothing to prune in project demo: 5 turns in 2 features; limits: 3 per feature, 5 per project\n' });
    const recorded = await lore(['turn', 'record', '--feature', 'B', '--task', 'T', '--turn', '3', '--player-decision', 'p', '--coach-decision', 'revise', '--progress', 's'], { cwd: root });
    assert.deepEqual(recorded, { code: 0, stdout: 'recorded TURN-B-T-T3 in .knowledge/turns/demo/B.ndjson (new turn)\n', stderr: 'warning: project demo keeps 6 turns, over turns.max_per_project (5): the turns over the limit belong to features in progress, which are never pruned\n' });
    const completed = await lore(['turn', 'complete', '--feature', 'A'], { cwd: root });
    assert.deepEqual(completed, { code: 0, stderr: '', stdout: [
      'completed feature A (.knowledge/turns/demo/A.ndjson); its turns may now be pruned',
      'pruned 1 turn of project demo (6 -> 5; limits: 3 per feature, 5 per project)',
      '  A: 1 turn of 3 (completed)',
      '',
    ].join('\n') });
    const list = await loreJson<{ turns: TurnState[]; completed: boolean }>(['turn', 'list', '--feature', 'A'], { cwd: root });
    assert.deepEqual([list.json.completed, list.json.turns.map((x) => x.turn_number)], [true, [2, 3]]);
    const again = await loreJson<{ status: string; completion: { id: string } }>(['turn', 'complete', '--feature', 'A'], { cwd: root });
    assert.deepEqual([again.code, again.json.status, again.json.completion.id], [0, 'already_completed', 'COMPLETE-A']);
    const prune = await loreJson<{ before: number; after: number; removed: unknown[]; warnings: string[] }>(['turn', 'prune', '--dry-run'], { cwd: root });
    assert.deepEqual([prune.json.before, prune.json.after, prune.json.removed, prune.json.warnings], [5, 5, [], []]);
    const unknown = await lore(['turn', 'complete', '--feature', 'FEAT-X'], { cwd: root });
    assert.deepEqual(unknown, { code: 2, stdout: '', stderr: 'error: no turns recorded for feature FEAT-X in project demo, so there is nothing to complete\nhint: features with turns: A, B\n' });
  });

  it('refuses to rewrite a log with a line it cannot read, naming file and line; a record still succeeds and warns', async (t) => {
    const a = [turn('A', 'T', 1, 1), turn('A', 'T', 2, 2), turn('A', 'T', 3, 3), turn('A', 'T', 4, 4), completion('A', 5)];
    const text = ndjson(a.slice(0, 2)) + '{"id": "TURN-A-T-T9", "feature_id": "A", cut off by hand\n' + ndjson(a.slice(2));
    const { root } = await seededStore(t, { '.knowledge/config.yaml': LIMIT_CONFIG, '.knowledge/turns/demo/A.ndjson': text });
    const file = join(root, '.knowledge/turns/demo/A.ndjson');
    const refusal = 'refusing to rewrite .knowledge/turns/demo/A.ndjson: line 3 is not valid JSON, and a rewrite would lose it; none of its turns were pruned (fix or remove the line by hand: lore validate lists every such line)';
    const dry = await lore(['turn', 'prune', '--dry-run'], { cwd: root });
    assert.deepEqual(dry, { code: 1, stdout: '', stderr: `error: ${refusal}\n` });
    const prune = await lore(['turn', 'prune'], { cwd: root });
    assert.deepEqual(prune, { code: 1, stdout: '', stderr: `error: ${refusal}\n` });
    assert.equal(readFileSync(file, 'utf8'), text);
    const json = await loreJson<{ removed: unknown[]; after: number; refused: unknown[] }>(['turn', 'prune'], { cwd: root });
    assert.deepEqual([json.code, json.json.removed, json.json.after, json.json.refused], [1, [], 4, [{
      severity: 'error', file: '.knowledge/turns/demo/A.ndjson', line: 3, column: 1, message: 'refusing to rewrite .knowledge/turns/demo/A.ndjson: line 3 is not valid JSON, and a rewrite would lose it',
    }]]);
    const recorded = await lore(['turn', 'record', '--feature', 'A', '--task', 'T', '--turn', '5', '--player-decision', 'p', '--coach-decision', 'approve', '--progress', 's'], { cwd: root });
    assert.deepEqual(recorded, { code: 0, stdout: 'recorded TURN-A-T-T5 in .knowledge/turns/demo/A.ndjson (new turn)\n', stderr: `warning: ${refusal}\n` });
    const after = readFileSync(file, 'utf8');
    assert.equal(after.slice(0, text.length), text);
    assert.deepEqual(after.slice(text.length).trimEnd().split('\n').map((l) => (JSON.parse(l) as TurnState).id), ['TURN-A-T-T5']);
    // Fixed by hand, the log is pruned at the next record.
    writeFileSync(file, after.replace(/^\{"id": "TURN-A-T-T9".*\n/m, ''));
    const fixed = await loreJson<{ prune: { removed: Array<{ id: string }>; refused: unknown[] } }>(['turn', 'record', '--feature', 'B', '--task', 'T', '--turn', '1', '--player-decision', 'p', '--coach-decision', 'approve', '--progress', 's'], { cwd: root });
    assert.deepEqual([fixed.json.prune.removed.map((x) => x.id), fixed.json.prune.refused], [['TURN-A-T-T1', 'TURN-A-T-T2'], []]);
  });

  it('prunes a log holding a line over 1 MiB without losing it or the lines after it', async (t) => {
    const long = turn('A', 'T', 2, 2, { progress_summary: 'y'.repeat(2 * 1024 * 1024) });
    const a = [turn('A', 'T', 1, 1), long, turn('A', 'T', 3, 3), turn('A', 'T', 4, 4), completion('A', 5)];
    const { root, store } = await seededStore(t, { '.knowledge/config.yaml': LIMIT_CONFIG, '.knowledge/turns/demo/A.ndjson': ndjson(a) });
    const result = await pruneTurns({ store, project: 'demo' });
    assert.deepEqual([result.removed.map((x) => x.id), result.refused], [['TURN-A-T-T1'], []]);
    assert.equal(readFileSync(join(root, '.knowledge/turns/demo/A.ndjson'), 'utf8'), ndjson(a.slice(1)));
  });
});

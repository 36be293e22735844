import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { buildCoachPrompt } from '../src/prompt/coach-prompt.js';
import { inProcess } from './helpers/cli.js';
import { ACME_OVERRIDES, config, ndjson, seededStore, turn } from './helpers/player-coach.js';
import { tempStore } from './helpers/temp.js';

const { lore, loreJson } = inProcess;

const GOLDEN = new URL('./golden/coach/', import.meta.url);
const TASK = ['--feature', 'FEAT-001', '--task', 'TASK-003'];

/** Compares text with a golden file; UPDATE_GOLDEN=1 rewrites the file instead. */
function golden(name: string, text: string): void {
  const url = new URL(name, GOLDEN);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(url, text);
  assert.equal(text, readFileSync(url, 'utf8'), `tests/golden/coach/${name}`);
}

async function prompt(root: string, args: string[]): Promise<string> {
  const result = await lore(['prompt', 'coach', ...args], { cwd: root });
  assert.deepEqual([result.code, result.stderr], [0, ''], result.stderr);
  return result.stdout;
}

describe('the coach prompt', () => {
  it('has no previous-turn section on turn 1', async (t) => {
    const { root } = await seededStore(t);
    golden('turn-1.txt', await prompt(root, ['--task-type', 'feature', '--complexity', '5', ...TASK, '--turn', '1']));
  });

  it('shows the recorded turn 1 on turn 2, as "Turn 2 of 3"', async (t) => {
    const { root } = await seededStore(t);
    const recorded = await lore(['turn', 'record', ...TASK, '--turn', '1', '--player-decision', 'add auth middleware', '--coach-decision', 'revise',
      '--coach-reason', 'missing session timeout handling', '--progress', 'Player implemented authentication middleware.',
      '--ac', 'login=verified', '--ac', 'logout=pending', '--ac', 'session-timeout=pending'], { cwd: root });
    assert.equal(recorded.code, 0, recorded.stderr);
    golden('turn-2.txt', await prompt(root, ['--task-type', 'feature', '--complexity', '5', ...TASK, '--turn', '2']));
  });

  it("includes the project's role additions and gate overrides", async (t) => {
    const { root } = await seededStore(t, { '.knowledge/overrides/acme.yaml': ACME_OVERRIDES });
    golden('overrides.txt', await prompt(root, ['--task-type', 'feature', '--complexity', '5', ...TASK, '--turn', '1', '--project', 'acme']));
  });

  it('says "not required" for every gate of a task type whose gates are all off', async (t) => {
    const { root } = await seededStore(t);
    golden('gates-off.txt', await prompt(root, ['--task-type', 'documentation', '--complexity', '2', ...TASK, '--turn', '1']));
  });

  it('is the same from the built-in fallbacks in a store without seeded records', async (t) => {
    const bare = tempStore(t, { '.knowledge/config.yaml': config() });
    const { root } = await seededStore(t);
    const args = ['--task-type', 'feature', '--complexity', '8', ...TASK, '--turn', '1'];
    const text = await prompt(bare, args);
    golden('fallbacks.txt', text);
    assert.equal(await prompt(root, args), text);
  });

  it('gives the prompt and what it was built from as JSON, and notes a turn past the budget', async (t) => {
    const { root } = await seededStore(t);
    const result = await loreJson<{ turn: number; max_turns: number; previous: null; role: { origin: unknown }; gates: { profile: { id: string } }; text: string }>(
      ['prompt', 'coach', '--task-type', 'feature', '--complexity', '2', ...TASK, '--turn', '4'], { cwd: root });
    assert.deepEqual([result.code, result.json.turn, result.json.max_turns, result.json.previous, result.json.role.origin, result.json.gates.profile.id], [0, 4, 3, null, { source: 'store', file: '.knowledge/roles/coach.yaml' }, 'QG-feature-1-3']);
    assert.match(result.json.text, /^## Your Role: Coach\n/);
    assert.equal(result.stderr, 'note: turn 4 is past the turn budget of 3 (--max-turns, turns.max_turns)\n');
  });
});

describe('building the coach prompt', () => {
  it('omits the role section only when even the fallback is unavailable', async (t) => {
    const { store } = await seededStore(t, {}, false);
    const built = await buildCoachPrompt({ store, taskType: 'testing', complexity: 3, feature: 'F', task: 'T', turn: 1, fallbacks: { roles: [], gates: (await import('../src/entities/defaults.js')).DEFAULT_GATES, modes: [] } });
    assert.equal(built.role, null);
    assert.equal(built.text, '## Quality Gates for This Task\nTask type: testing | Complexity: 3\nArchitecture review: not required\nCoverage: required (threshold: 90%)\nTests: required, must pass\nDO NOT adjust these thresholds during this session.');
  });

  it('starts turn 2 fresh when no turn was recorded', async (t) => {
    const { store } = await seededStore(t);
    const built = await buildCoachPrompt({ store, taskType: 'feature', complexity: 5, feature: 'FEAT-009', task: 'TASK-1', turn: 2 });
    assert.equal(built.previous, null);
    assert.doesNotMatch(built.text, /Previous Turn/);
  });

  it('shows the latest turn before this one, not the last line, and says when escalation applies', async (t) => {
    const lines = [
      turn('F', 'T', 2, 2, { coach_reason: 'tests still fail' }),
      turn('F', 'T', 1, 1),
      turn('F', 'T', 3, 3, { coach_reason: 'same failure', blockers_found: ['flaky db', 'no fixture'], acceptance_criteria_status: { a: 'verified', b: 'rejected' } }),
      turn('F', 'T', 4, 4, { coach_decision: 'approve' }),
      turn('F', 'T', 1, 5, { progress_summary: 'progress 1, updated' }),
    ];
    const { store } = await seededStore(t, { '.knowledge/turns/demo/F.ndjson': ndjson(lines) });
    const past = await buildCoachPrompt({ store, taskType: 'feature', complexity: 5, feature: 'F', task: 'T', turn: 56, maxTurns: 3 });
    assert.equal(past.text.split('\n\n')[2]!.split('\n')[0], '## Previous Turn Context (Turn 56, past the 3 planned)');
    const built = await buildCoachPrompt({ store, taskType: 'feature', complexity: 5, feature: 'F', task: 'T', turn: 4, maxTurns: 5 });
    assert.equal(built.previous?.id, 'TURN-F-T-T3');
    assert.deepEqual(built.escalation, { task: 'T', streak: 3 });
    assert.equal(built.text.split('\n\n')[2], [
      '## Previous Turn Context (Turn 4 of 5)',
      'progress 3',
      'AC status: {a: verified, b: rejected}',
      'Blockers: flaky db | no fixture',
      'Coach decision: REVISE — same failure',
      'Escalation: T has had 3 consecutive REVISE verdicts. Your ESCALATE when rule applies: escalate instead of revising again.',
    ].join('\n'));
    const five = await buildCoachPrompt({ store, taskType: 'feature', complexity: 5, feature: 'F', task: 'T', turn: 5, maxTurns: 5 });
    assert.deepEqual([five.previous?.id, five.escalation], ['TURN-F-T-T4', null]);
    assert.match(five.text, /\nAC status: None\nBlockers: None\nCoach decision: APPROVE$/);
  });
});

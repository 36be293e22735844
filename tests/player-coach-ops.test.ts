// The player/coach operations as an agent calls them (the MCP server and the HTTP API run the same
// runOp): natural JSON in, the documented output back, bad input refused naming the field. And the
// record shapes their schemas repeat stay those of the record schemas.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LoreError } from '../src/errors.js';
import { runOp } from '../src/ops/run.js';
import { loadSchema, loadSchemaFile } from '../src/schema/schemas.js';
import { Workspace } from '../src/workspace/workspace.js';
import { seededStore } from './helpers/player-coach.js';
import { testEnv } from './helpers/temp.js';

const DEFS = loadSchemaFile('ops/_player-coach.schema.json').$defs! as Record<string, Record<string, unknown>>;

async function workspace(t: import('node:test').TestContext): Promise<{ run: (op: string, input: unknown) => Promise<unknown>; notes: string[] }> {
  const { root } = await seededStore(t);
  const ws = new Workspace({ cwd: root, env: testEnv() });
  const notes: string[] = [];
  const ctx = { ws, note: (text: string) => void notes.push(text), progress: () => undefined };
  return { run: (op, input) => runOp(op, input, ctx, { checkOutput: true }), notes };
}

async function refusal(promise: Promise<unknown>): Promise<string[]> {
  try {
    await promise;
  } catch (error) {
    return [(error as LoreError).message, ...(error as LoreError).problems.map((p) => `${p.pointer}: ${p.message}`)];
  }
  return [];
}

describe('the player/coach operations', () => {
  it('record a turn given as JSON, and read it back as the latest turn, with the gates it was checked against', async (t) => {
    const { run } = await workspace(t);
    const evaluation = await run('gates.check', { task_type: 'feature', complexity: 5, results: { arch_review_score: 70, coverage: 0.9, tests_passed: 3, tests_failed: 0 } }) as { passed: boolean };
    assert.equal(evaluation.passed, true);
    const turn = { feature_id: 'FEAT-1', task_id: 'TASK-1', turn_number: 1, player_decision: 'p', coach_decision: 'approve', progress_summary: 's', quality_gate_results: evaluation };
    const recorded = await run('turn.record', { turn, project: 'acme' }) as { status: string; file: string; turn: { id: string } };
    assert.deepEqual([recorded.status, recorded.file, recorded.turn.id], ['created', '.knowledge/turns/acme/FEAT-1.ndjson', 'TURN-FEAT-1-TASK-1-T1']);
    const latest = await run('turn.latest', { feature_id: 'FEAT-1', project: 'acme' }) as { turn: { id: string; quality_gate_results: unknown }; completed_at: null; problems: [] };
    assert.deepEqual([latest.turn.id, latest.turn.quality_gate_results, latest.completed_at, latest.problems], ['TURN-FEAT-1-TASK-1-T1', evaluation, null, []]);
    const prompt = await run('prompt.coach', { task_type: 'feature', complexity: 5, feature_id: 'FEAT-1', task_id: 'TASK-1', turn_number: 2, project: 'acme' }) as { previous: { id: string } };
    assert.equal(prompt.previous.id, 'TURN-FEAT-1-TASK-1-T1');
  });

  it('refuses input that does not match the schemas, naming each field, before anything is written', async (t) => {
    const { run } = await workspace(t);
    const turn = { feature_id: 'FEAT-1', task_id: 'TASK-1', turn_number: 0, player_decision: 'p', coach_decision: 'ok', progress_summary: 's', id: 'TURN-FEAT-1-TASK-1-T0' };
    assert.deepEqual(await refusal(run('turn.record', { turn })), [
      'the input of turn.record is invalid',
      '/turn/id: unknown field "id" in turn',
      '/turn/turn_number: turn.turn_number must be >= 1 (found 0)',
      '/turn/coach_decision: turn.coach_decision must be one of approve, revise, escalate (found "ok")',
    ]);
    assert.deepEqual((await run('turn.list', { feature_id: 'FEAT-1' }) as { turns: unknown[] }).turns, []);
    assert.deepEqual(await refusal(run('roles.show', { role: 'reviewer' })), ['the input of roles.show is invalid', '/role: role must be one of coach, player (found "reviewer")']);
    assert.deepEqual(await refusal(run('gates.check', { task_type: 'feature', complexity: 11, results: { coverage: 85 } })), [
      'the input of gates.check is invalid',
      '/complexity: complexity must be <= 10 (found 11)',
      '/results/coverage: results.coverage must be <= 1 (found 85)',
    ]);
  });

  it('notes the lines of a turn log it skipped, and returns them', async (t) => {
    const { root } = await seededStore(t, { '.knowledge/turns/demo/F.ndjson': '{"id": "cut off\n' });
    const ws = new Workspace({ cwd: root, env: testEnv() });
    const notes: string[] = [];
    const listed = await runOp('turn.list', { feature_id: 'F' }, { ws, note: (text) => void notes.push(text), progress: () => undefined }, { checkOutput: true }) as { turns: []; problems: Array<{ severity: string; line: number }> };
    assert.deepEqual([listed.turns, listed.problems.map((p) => `${p.severity} ${p.line}`)], [[], ['warning 1']]);
    assert.deepEqual(notes, ['.knowledge/turns/demo/F.ndjson:1:1: warning: line 1 is not valid JSON and was skipped']);
  });

  it('describes turns, completions and gate profiles exactly as the record schemas do', () => {
    const turnState = loadSchema('turn-state');
    const gateProfile = loadSchema('gate-profile');
    const strip = ({ description: _, ...rest }: Record<string, unknown>): Record<string, unknown> => rest;
    assert.deepEqual(strip(DEFS.turn!), strip(turnState.$defs!.turn as Record<string, unknown>));
    assert.deepEqual(strip(DEFS.completion!), strip(turnState.$defs!.completion as Record<string, unknown>));
    const { allOf, ...profile } = DEFS.gateProfile!;
    const { $schema: _s, $id: _i, $defs, title: _t, allOf: recordAllOf, ...recordProfile } = gateProfile as Record<string, unknown>;
    assert.deepEqual(strip(profile), strip(recordProfile));
    assert.deepEqual(DEFS.range, ($defs as Record<string, unknown>).range);
    // The same conditions; the copy also names the field each requires, as strict JSON Schema asks.
    assert.deepEqual((allOf as Array<{ if: unknown; then: { required: string[] } }>).map((c) => [c.if, c.then.required]), (recordAllOf as Array<{ if: unknown; then: { required: string[] } }>).map((c) => [c.if, c.then.required]));
  });
});

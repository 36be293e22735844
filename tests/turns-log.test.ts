import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { initStore } from '../src/entities/init.js';
import { projectOf } from '../src/entities/sources.js';
import { openStore } from '../src/store/open.js';
import { buildTurn, recordTurn } from '../src/turns/record.js';
import { latestTurn, revisionStreak, turnId } from '../src/turns/turn-log.js';
import type { TurnState } from '../src/types.js';
import { inProcess } from './helpers/cli.js';
import { ndjson, seededStore, turn } from './helpers/player-coach.js';
import { gitRepo, gitSync, testEnv } from './helpers/temp.js';

const { lore, loreJson } = inProcess;

const RECORD = ['turn', 'record', '--feature', 'FEAT-001', '--task', 'TASK-003', '--player-decision', 'implement', '--progress', 'work done'];
type Latest = { turn: TurnState | null; escalation: { task: string; streak: number } | null; completed: boolean; ref: string | null; file: string };
type Listed = { turns: TurnState[] };

/** A git repository with an initialised, committed store, and a way to record turns in-process. */
async function repoWithStore(t: import('node:test').TestContext): Promise<{ repo: string; record: (task: string, n: number, decision?: TurnState['coach_decision']) => Promise<unknown>; commit: (message: string) => void }> {
  const repo = gitRepo(t, { 'README.md': '# demo\n' });
  await initStore({ cwd: repo, env: testEnv() });
  const store = await openStore({ cwd: repo });
  const commit = (message: string): void => {
    gitSync(repo, ['add', '-A']);
    gitSync(repo, ['commit', '-q', '-m', message]);
  };
  commit('lore');
  const record = (task: string, n: number, decision: TurnState['coach_decision'] = 'revise'): Promise<unknown> => recordTurn({
    store, project: projectOf(store),
    turn: buildTurn({ feature_id: 'FEAT-1', task_id: task, turn_number: n, player_decision: 'p', coach_decision: decision, progress_summary: `${task} turn ${n}` }, new Date()),
  });
  return { repo, record, commit };
}

describe('turn states', () => {
  it('derives the same id for the same feature, task and turn, and sets the timestamp', () => {
    const now = new Date('2026-02-03T04:05:06.000Z');
    const input = { feature_id: 'FEAT-001', task_id: 'TASK-003', turn_number: 2, player_decision: 'p', coach_decision: 'approve' as const, progress_summary: 's' };
    assert.equal(turnId('FEAT-001', 'TASK-003', 2), 'TURN-FEAT-001-TASK-003-T2');
    assert.deepEqual(buildTurn(input, now), buildTurn({ ...input }, now));
    assert.deepEqual(buildTurn(input, now), {
      id: 'TURN-FEAT-001-TASK-003-T2', feature_id: 'FEAT-001', task_id: 'TASK-003', turn_number: 2, player_decision: 'p', coach_decision: 'approve',
      blockers_found: [], progress_summary: 's', acceptance_criteria_status: {}, mode: 'FRESH_START', quality_gate_results: null, timestamp: '2026-02-03T04:05:06.000Z',
    });
    assert.throws(() => buildTurn({ ...input, id: 'TURN-X-Y-T1' }, now), /the turn is invalid/);
  });

  it('takes the highest turn number, then the newest timestamp, as the latest turn', () => {
    const table: Array<[TurnState[], string]> = [
      [[turn('F', 'T', 2, 1), turn('F', 'T', 1, 9)], 'TURN-F-T-T2 1'],
      [[turn('F', 'T', 3, 1, { progress_summary: 'new' }), turn('F', 'T', 3, 0, { progress_summary: 'old' })], 'TURN-F-T-T3 1'],
      [[turn('F', 'A', 1, 1), turn('F', 'B', 1, 2)], 'TURN-F-B-T1 2'],
    ];
    for (const [turns, expected] of table) {
      const latest = latestTurn(turns)!;
      assert.equal(`${latest.id} ${new Date(latest.timestamp).getUTCMinutes()}`, expected);
    }
    assert.equal(latestTurn([]), undefined);
    const streak = [turn('F', 'T', 1, 1, { coach_decision: 'approve' }), turn('F', 'T', 3, 3), turn('F', 'U', 4, 4, { coach_decision: 'approve' }), turn('F', 'T', 2, 2)];
    assert.deepEqual([revisionStreak(streak, 'T'), revisionStreak(streak, 'U'), revisionStreak(streak, 'V')], [2, 0, 0]);
  });

  it('records turns, updates a turn recorded again, and lists them by turn number', async (t) => {
    const { root } = await seededStore(t);
    const first = await lore([...RECORD, '--turn', '1', '--coach-decision', 'revise'], { cwd: root });
    assert.deepEqual(first, { code: 0, stderr: '', stdout: 'recorded TURN-FEAT-001-TASK-003-T1 in .knowledge/turns/demo/FEAT-001.ndjson (new turn)\n' });
    await lore([...RECORD, '--turn', '2', '--coach-decision', 'approve'], { cwd: root });
    const again = await loreJson<{ status: string; turn: TurnState }>([...RECORD, '--turn', '1', '--coach-decision', 'revise', '--blocker', 'flaky test', '--mode', 'RECOVERING_STATE'], { cwd: root });
    assert.deepEqual([again.json.status, again.json.turn.blockers_found, again.json.turn.mode], ['updated', ['flaky test'], 'RECOVERING_STATE']);
    assert.equal(readFileSync(join(root, '.knowledge/turns/demo/FEAT-001.ndjson'), 'utf8').trimEnd().split('\n').length, 3);
    const latest = await loreJson<Latest>(['turn', 'latest', '--feature', 'FEAT-001'], { cwd: root });
    assert.deepEqual([latest.json.turn?.id, latest.json.completed, latest.json.escalation, latest.json.ref], ['TURN-FEAT-001-TASK-003-T2', false, null, null]);
    const list = await loreJson<Listed>(['turn', 'list', '--feature', 'FEAT-001'], { cwd: root });
    assert.deepEqual(list.json.turns.map((x) => `${x.id} ${x.blockers_found.join()}`), ['TURN-FEAT-001-TASK-003-T1 flaky test', 'TURN-FEAT-001-TASK-003-T2 ']);
    assert.equal((await lore(['validate'], { cwd: root })).code, 0);
    // A turn copied into another feature's log is skipped by readers, so validate reports it.
    const line = readFileSync(join(root, '.knowledge/turns/demo/FEAT-001.ndjson'), 'utf8').split('\n')[0]!;
    writeFileSync(join(root, '.knowledge/turns/demo/FEAT-002.ndjson'), `${line}\n`);
    const misplaced = await lore(['validate'], { cwd: root });
    assert.deepEqual([misplaced.code, misplaced.stdout.split('\n').filter((l) => l.includes('FEAT-002'))], [1, ['.knowledge/turns/demo/FEAT-002.ndjson:1:1: error: line 1 belongs to feature FEAT-001, not FEAT-002; skipped']]);
  });

  it('records a whole turn from JSON on stdin, with gate results from a file', async (t) => {
    const { root } = await seededStore(t);
    const input = JSON.stringify({ feature_id: 'FEAT-002', task_id: 'TASK-1', turn_number: 1, player_decision: 'p', coach_decision: 'escalate', coach_reason: 'AC cannot be met', progress_summary: 's', acceptance_criteria_status: { a: 'blocked' }, quality_gate_results: { passed: false } });
    const result = await loreJson<{ turn: TurnState; file: string }>(['turn', 'record', '--from-file', '-', '--project', 'acme'], { cwd: root, input });
    assert.deepEqual([result.code, result.json.file, result.json.turn.coach_reason, result.json.turn.quality_gate_results], [0, '.knowledge/turns/acme/FEAT-002.ndjson', 'AC cannot be met', { passed: false }]);
    writeFileSync(join(root, 'gates.json'), '{"profile": "QG-feature-4-6", "passed": true}');
    const flags = await loreJson<{ turn: TurnState }>([...RECORD, '--turn', '1', '--coach-decision', 'approve', '--gate-results', 'gates.json'], { cwd: root });
    assert.deepEqual(flags.json.turn.quality_gate_results, { profile: 'QG-feature-4-6', passed: true });
    const latest = await lore(['turn', 'latest', '--feature', 'FEAT-001'], { cwd: root });
    assert.match(latest.stdout, /^TURN-FEAT-001-TASK-003-T1 \(turn 1, task TASK-003, \d{4}-.*Z\)\n {2}player: implement\n {2}coach: approve\n {2}progress: work done\n {2}acceptance criteria: none\n {2}blockers: none\n {2}mode: FRESH_START\n {2}quality gates: passed\n$/);
  });

  it('refuses missing fields, an unknown coach decision and malformed flags with clear errors', async (t) => {
    const { root } = await seededStore(t);
    const table: Array<[string[], string | undefined, number, string]> = [
      [['turn', 'record', '--feature', 'F'], undefined, 2, 'error: lore turn record needs --task, --turn, --player-decision, --coach-decision, --progress (or --from-file FILE)\nhint: see lore turn record --help\n'],
      [[...RECORD, '--turn', '1', '--coach-decision', 'maybe'], undefined, 2, 'error: the turn is invalid: --coach-decision must be one of approve, revise, escalate (found "maybe")\nhint: see lore turn record --help\n'],
      [[...RECORD, '--turn', 'two', '--coach-decision', 'approve'], undefined, 2, 'error: --turn must be a whole number of at least 1 (found "two")\n'],
      [[...RECORD, '--turn', '1', '--coach-decision', 'approve', '--ac', 'login'], undefined, 2, 'error: --ac must be id=status (found "login")\nhint: e.g. --ac login=verified --ac logout=pending; statuses: verified, pending, rejected, blocked\n'],
      [['turn', 'record', '--from-file', '-', '--task', 'T'], '{}', 2, 'error: --from-file gives the whole turn, so --task cannot be used with it\nhint: see lore turn record --help\n'],
      [['turn', 'record', '--from-file', '-'], '{"feature_id": "F", "task_id": "T", "turn_number": 1,\n "coach_decision": "ok"}', 1, [
        'error: the turn in <stdin> is invalid',
        '<stdin>:1:1: error: player_decision is required but missing',
        '  > 1 | {"feature_id": "F", "task_id": "T", "turn_number": 1,',
        '      | ^',
        '<stdin>:1:1: error: progress_summary is required but missing',
        '  > 1 | {"feature_id": "F", "task_id": "T", "turn_number": 1,',
        '      | ^',
        '<stdin>:2:20: error: coach_decision must be one of approve, revise, escalate (found "ok")',
        '    1 | {"feature_id": "F", "task_id": "T", "turn_number": 1,',
        '  > 2 |  "coach_decision": "ok"}',
        '      |                    ^^^^',
        '',
      ].join('\n')],
      [[...RECORD.map((a) => (a === 'FEAT-001' ? '../x' : a)), '--turn', '1', '--coach-decision', 'approve'], undefined, 2, 'error: the turn is invalid: --feature must start with a letter or digit and contain only letters, digits, \'.\', \'_\' and \'-\' (at most 64 characters) (found "../x")\nhint: see lore turn record --help\n'],
    ];
    for (const [args, input, code, stderr] of table) {
      assert.deepEqual(await lore(args, { cwd: root, ...(input === undefined ? {} : { input }) }), { code, stdout: '', stderr }, args.join(' '));
    }
  });

  it("says the coach's escalate_when rule applies after three consecutive revise verdicts on a task", async (t) => {
    const turns = [turn('F', 'T', 1, 1), turn('F', 'T', 2, 2), turn('F', 'T', 3, 3, { coach_reason: 'tests still fail' })];
    const { root } = await seededStore(t, { '.knowledge/turns/demo/F.ndjson': ndjson(turns) });
    const text = await lore(['turn', 'latest', '--feature', 'F'], { cwd: root });
    assert.match(text.stdout, /\n {2}coach: revise - tests still fail\n[\s\S]*\nescalate: T has had 3 consecutive revise verdicts; the coach's escalate_when rule applies\n$/);
    writeFileSync(join(root, '.knowledge/turns/demo/F.ndjson'), ndjson([...turns.slice(1), turn('F', 'T', 1, 1, { coach_decision: 'approve' })]));
    const json = await loreJson<Latest>(['turn', 'latest', '--feature', 'F'], { cwd: root });
    assert.deepEqual(json.json.escalation, null);
  });

  it('reads the committed log with --ref, not the working tree', async (t) => {
    const { repo, record, commit } = await repoWithStore(t);
    const none = await loreJson<Latest>(['turn', 'latest', '--feature', 'FEAT-1', '--ref', 'HEAD'], { cwd: repo });
    assert.deepEqual([none.code, none.json.turn, none.json.ref], [0, null, 'HEAD']);
    await record('TASK-1', 1);
    commit('turn 1');
    await record('TASK-1', 2, 'approve');
    const committed = await loreJson<Latest>(['turn', 'latest', '--feature', 'FEAT-1', '--ref', 'HEAD'], { cwd: repo });
    const working = await loreJson<Latest>(['turn', 'latest', '--feature', 'FEAT-1'], { cwd: repo });
    assert.deepEqual([committed.json.turn?.turn_number, working.json.turn?.turn_number], [1, 2]);
    const list = await lore(['turn', 'list', '--feature', 'FEAT-1', '--ref', 'HEAD~1'], { cwd: repo });
    assert.match(list.stdout, /^no turns recorded for feature FEAT-1 of project lore-repo-.* at HEAD~1\n$/);
    const bad = await lore(['turn', 'latest', '--feature', 'FEAT-1', '--ref', 'no-such-branch'], { cwd: repo });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^error: no-such-branch is not a commit in .*\nhint: is this a git repository, and is the revision right\?\n$/);
  });

  it('survives a union merge of two branches: every turn present, the latest still correct', async (t) => {
    const { repo, record, commit } = await repoWithStore(t);
    await record('TASK-1', 1);
    commit('turn 1');
    gitSync(repo, ['checkout', '-q', '-b', 'side']);
    await record('TASK-1', 2);
    await record('TASK-1', 3);
    commit('side: turns 2 and 3');
    gitSync(repo, ['checkout', '-q', 'main']);
    await record('TASK-2', 2);
    commit('main: another task, turn 2');
    gitSync(repo, ['checkout', '-q', 'side']);
    gitSync(repo, ['merge', '-q', '--no-edit', 'main']);
    const list = await loreJson<Listed & { file: string }>(['turn', 'list', '--feature', 'FEAT-1'], { cwd: repo });
    const lines = readFileSync(join(repo, list.json.file), 'utf8').trimEnd().split('\n').map((l) => (JSON.parse(l) as TurnState).id);
    assert.deepEqual(lines, ['TURN-FEAT-1-TASK-1-T1', 'TURN-FEAT-1-TASK-1-T2', 'TURN-FEAT-1-TASK-1-T3', 'TURN-FEAT-1-TASK-2-T2']);
    assert.deepEqual(list.json.turns.map((x) => x.id), ['TURN-FEAT-1-TASK-1-T1', 'TURN-FEAT-1-TASK-1-T2', 'TURN-FEAT-1-TASK-2-T2', 'TURN-FEAT-1-TASK-1-T3']);
    const latest = await loreJson<Latest>(['turn', 'latest', '--feature', 'FEAT-1', '--ref', 'HEAD'], { cwd: repo });
    assert.deepEqual([latest.json.turn?.id, latest.json.escalation], ['TURN-FEAT-1-TASK-1-T3', { task: 'TASK-1', streak: 3 }]);
    assert.equal((await lore(['validate'], { cwd: repo })).code, 0);
  });
});

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import type { LoreError } from '../src/errors.js';
import { MAX_LINE_BYTES } from '../src/log/ndjson.js';
import { buildTurn, recordTurn } from '../src/turns/record.js';
import type { TurnState } from '../src/types.js';
import { lore, loreJson } from './helpers/cli.js';
import { config, ndjson, seededStore, turn } from './helpers/player-coach.js';
import { gitRepo, gitSync } from './helpers/temp.js';

const WORKER = fileURLToPath(new URL('./fixtures/turn-worker.mjs', import.meta.url));
const LOG = '.knowledge/turns/demo/F.ndjson';
const RECORD = ['turn', 'record', '--feature', 'F', '--task', 'T', '--player-decision', 'p', '--progress', 's', '--coach-decision', 'revise'];
type Listed = { turns: TurnState[] };
type Latest = { turn: TurnState | null };

/** Runs the turn worker; resolves with its acknowledged "id status" lines. */
function runWorker(args: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out.split('\n').filter((l) => l.startsWith('ack ')).map((l) => l.slice(4))) : reject(new Error(`worker ${args.join(' ')} exited with ${code}`))));
  });
}

describe('turn log reliability', () => {
  it('says in lore validate when a merge joined two branches that recorded one turn with different values', async (t) => {
    const repo = gitRepo(t);
    assert.equal((await lore(['init', '--no-starter'], { cwd: repo })).code, 0);
    const record = async (decision: string, progress: string): Promise<void> => {
      const result = await lore(['turn', 'record', '--feature', 'F', '--task', 'K', '--turn', '1', '--player-decision', 'p', '--coach-decision', decision, '--progress', progress], { cwd: repo });
      assert.equal(result.code, 0, result.stderr);
    };
    const commit = (message: string): void => {
      gitSync(repo, ['add', '-A']);
      gitSync(repo, ['commit', '-q', '--no-verify', '-m', message]);
    };
    await record('revise', 'base');
    commit('base');
    // Branch a revises turn 1 again; branch b, from main, approves it.
    gitSync(repo, ['checkout', '-q', '-b', 'a']);
    await record('revise', 'on a');
    commit('a');
    gitSync(repo, ['checkout', '-q', '-b', 'b', 'main']);
    await record('approve', 'on b');
    commit('b');
    gitSync(repo, ['checkout', '-q', 'a']);
    gitSync(repo, ['merge', '-q', '--no-edit', 'b']);
    const merge = gitSync(repo, ['rev-parse', 'HEAD']).trim();
    const [a, b] = ['a', 'b'].map((branch) => gitSync(repo, ['rev-parse', `${branch === 'a' ? 'HEAD^1' : 'b'}`]).trim());
    const log = (await lore(['validate'], { cwd: repo })).stdout;
    const project = readdirSync(join(repo, '.knowledge/turns'))[0]!;
    assert.equal(log, [
      `.knowledge/turns/${project}/F.ndjson: warning: turn TURN-F-K-T1 was recorded on both branches of merge ${merge.slice(0, 12)} with different values (${a!.slice(0, 12)} and ${b!.slice(0, 12)}): lore reads the version with the later timestamp, and the other branch's values are hidden; record the turn again with the values that hold`,
      'checked 11 record files and 1 log: 0 errors, 1 warning', '',
    ].join('\n'));
  });

  it('reads back a 2 MiB turn whole, and the turn recorded after it', async (t) => {
    const { root } = await seededStore(t, { '.knowledge/config.yaml': config('limits:\n  max_file_bytes: 4194304\n') });
    const summary = 'x'.repeat(2 * 1024 * 1024);
    const input = JSON.stringify({ feature_id: 'F', task_id: 'T', turn_number: 1, player_decision: 'p', coach_decision: 'revise', progress_summary: summary });
    const big = await lore(['turn', 'record', '--from-file', '-'], { cwd: root, input });
    assert.deepEqual(big, { code: 0, stderr: '', stdout: `recorded TURN-F-T-T1 in ${LOG} (new turn)\n` });
    assert.equal((await lore([...RECORD, '--turn', '2'], { cwd: root })).code, 0);
    assert.ok(readFileSync(join(root, LOG), 'utf8').split('\n')[0]!.length > 2 * 1024 * 1024);
    const list = await loreJson<Listed>(['turn', 'list', '--feature', 'F'], { cwd: root });
    assert.deepEqual([list.code, list.stderr, list.json.turns.map((x) => [x.id, x.progress_summary.length])], [0, '', [['TURN-F-T-T1', summary.length], ['TURN-F-T-T2', 1]]]);
    assert.equal(list.json.turns[0]!.progress_summary, summary);
  });

  it('reports a hand-made line over the cap with its line number, and reads the lines after it', async (t) => {
    const { root } = await seededStore(t, { [LOG]: ndjson([turn('F', 'T', 1, 1)]) });
    const long = `{"pad":"${'x'.repeat(MAX_LINE_BYTES)}"}`;
    appendFileSync(join(root, LOG), `${long}\n${ndjson([turn('F', 'T', 3, 3)])}`);
    const list = await loreJson<Listed>(['turn', 'list', '--feature', 'F'], { cwd: root });
    assert.deepEqual(list.json.turns.map((x) => x.id), ['TURN-F-T-T1', 'TURN-F-T-T3']);
    assert.equal(list.stderr, `${LOG}:2:1: warning: line 2 is ${long.length} bytes, over the limit of 67108864 bytes for one log line, and was skipped\n`);
    const validate = await lore(['validate'], { cwd: root });
    assert.deepEqual([validate.code, validate.stdout.split('\n').filter((l) => l.includes(LOG))], [1, [`${LOG}:2:1: error: line 2 is ${long.length} bytes, over the limit of 67108864 bytes for one log line, and was skipped`]]);
  });

  it('refuses to write a turn that would make a line over the cap, naming the limit, and writes nothing', async (t) => {
    const { root, store } = await seededStore(t, { [LOG]: ndjson([turn('F', 'T', 1, 1)]) });
    const huge = buildTurn({ feature_id: 'F', task_id: 'T', turn_number: 2, player_decision: 'p', coach_decision: 'revise', progress_summary: 'x'.repeat(MAX_LINE_BYTES) }, new Date('2026-02-01T00:00:00Z'));
    await assert.rejects(recordTurn({ store, project: 'demo', turn: huge }), (error: LoreError) => {
      assert.equal(error.code, 'TOO_LARGE');
      assert.equal(error.message, `record TURN-F-T-T2 would be a line of ${JSON.stringify(huge).length} bytes in ${LOG}, over the limit of 67108864 bytes (64 MiB) for one log line; nothing was written`);
      return true;
    });
    assert.equal(readFileSync(join(root, LOG), 'utf8'), ndjson([turn('F', 'T', 1, 1)]));
  });

  it('makes a turn recorded again the latest, even when its earlier version carries a future timestamp', async (t) => {
    const future = turn('F', 'T', 1, 0, { timestamp: '2099-01-01T00:00:00.000Z', progress_summary: 'from a clock that ran ahead' });
    const { root } = await seededStore(t, { [LOG]: ndjson([future]) });
    const again = await loreJson<{ status: string; turn: TurnState }>([...RECORD, '--turn', '1', '--progress', 'recorded again'], { cwd: root });
    assert.deepEqual([again.code, again.json.status, again.json.turn.timestamp], [0, 'updated', '2099-01-01T00:00:00.001Z']);
    const latest = await loreJson<Latest>(['turn', 'latest', '--feature', 'F'], { cwd: root });
    assert.deepEqual([latest.json.turn?.id, latest.json.turn?.progress_summary], ['TURN-F-T-T1', 'recorded again']);
    // Recorded once more: after the stamped version, so still the new values.
    await lore([...RECORD, '--turn', '1', '--progress', 'third'], { cwd: root });
    const third = await loreJson<Latest>(['turn', 'latest', '--feature', 'F'], { cwd: root });
    assert.deepEqual([third.json.turn?.progress_summary, third.json.turn?.timestamp], ['third', '2099-01-01T00:00:00.002Z']);
  });

  it('refuses to record a turn again when its latest version carries the last time a log can hold, instead of writing a line no reader accepts', async (t) => {
    const end = turn('F', 'T', 1, 0, { timestamp: '9999-12-31T23:59:59.999Z', progress_summary: 'valid until forever' });
    const { root } = await seededStore(t, { [LOG]: ndjson([end]) });
    const before = readFileSync(join(root, LOG), 'utf8');
    const again = await lore([...RECORD, '--turn', '1', '--progress', 'recorded again'], { cwd: root });
    assert.deepEqual(again, {
      code: 1, stdout: '',
      stderr: "error: cannot write a new version of TURN-F-T-T1: its latest version is stamped 9999-12-31T23:59:59.999Z, the last time a log line can carry, so no later version can replace it; nothing was written\nhint: correct that line's time by hand (lore validate lists the log), then write again\n",
    });
    assert.equal(readFileSync(join(root, LOG), 'utf8'), before);
  });

  it('keeps every turn recorded by 8 processes × 50 on one feature', async (t) => {
    const { root } = await seededStore(t);
    const acked = (await Promise.all(Array.from({ length: 8 }, (_, w) => runWorker([root, 'demo', 'F', String(w), '50'])))).flat();
    const expected = Array.from({ length: 8 }, (_, w) => Array.from({ length: 50 }, (_, i) => `TURN-F-TASK-W${w}-T${i + 1}`)).flat().sort();
    assert.deepEqual(acked.map((a) => a.split(' ')).filter(([, status]) => status === 'created').map(([id]) => id).sort(), expected);
    const list = await loreJson<Listed>(['turn', 'list', '--feature', 'F'], { cwd: root });
    assert.deepEqual([list.code, list.stderr, list.json.turns.map((x) => x.id).sort()], [0, '', expected]);
    assert.equal(readFileSync(join(root, LOG), 'utf8').split('\n').length, 401);
    assert.equal((await lore(['validate'], { cwd: root })).code, 0);
  });

  it('counts the turns appended by another writer since the last record, and the turns of a log rewritten by hand', async (t) => {
    const { root } = await seededStore(t, { '.knowledge/config.yaml': config('turns:\n  max_per_feature: 3\n  max_per_project: 5\n') });
    for (const n of [1, 2]) await lore([...RECORD, '--turn', String(n)], { cwd: root });
    // Appended without lore, then the whole log replaced by hand: the next record sees exactly what is there.
    appendFileSync(join(root, LOG), ndjson([turn('F', 'T', 3, 3), turn('F', 'T', 4, 4)]));
    const over = await lore([...RECORD, '--turn', '5'], { cwd: root });
    assert.equal(over.stderr, 'warning: feature F has 5 turns, over turns.max_per_feature (3), but it is in progress, so none were pruned\n');
    writeFileSync(join(root, LOG), ndjson([turn('F', 'T', 1, 1)]));
    const fresh = await loreJson<{ status: string; prune: { before: number; warnings: string[] } }>([...RECORD, '--turn', '2'], { cwd: root });
    assert.deepEqual([fresh.json.status, fresh.json.prune.before, fresh.json.prune.warnings], ['created', 2, []]);
  });
});

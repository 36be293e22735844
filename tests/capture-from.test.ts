// Capture from what happened: `lore capture --from-turn` (a player/coach turn), `lore capture
// --from-review` (review comments: GitHub's JSON or a plain list), and `lore turn record` capturing
// on its own with capture.on_turn_record. Real stores in git repositories, the real CLI.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { titleFrom } from '../src/knowledge/capture-text.js';
import { MAX_POINTS, parseReview } from '../src/knowledge/review-points.js';
import type { KnowledgeEntry, TurnState } from '../src/types.js';
import { inProcess } from './helpers/cli.js';
import { entry, entryFiles } from './helpers/knowledge.js';
import { ndjson, turn } from './helpers/player-coach.js';
import { gitRepo } from './helpers/temp.js';

const { lore, loreJson } = inProcess;

const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;
const LOG = '.knowledge/turns/shop/FEAT-001.ndjson';
const PENDING = '.knowledge/knowledge/pending';
const config = (extra = ''): string => `version: 1\nproject: shop\n${extra}`;

const REVISE = turn('FEAT-001', 'TASK-003', 1, 1, {
  player_decision: 'add auth middleware', coach_reason: 'missing session timeout handling', blockers_found: ['no session store configured'],
  progress_summary: 'Player implemented authentication middleware.', acceptance_criteria_status: { login: 'verified', logout: 'rejected', timeout: 'blocked' },
});
const APPROVE = turn('FEAT-001', 'TASK-003', 2, 2, {
  coach_decision: 'approve', player_decision: 'add session timeout', coach_reason: 'all criteria verified',
  progress_summary: 'Sessions expire after 30 idle minutes, and logout clears the session store.', acceptance_criteria_status: { login: 'verified', logout: 'verified', timeout: 'verified' },
});
const ESCALATE = turn('FEAT-001', 'TASK-004', 3, 3, { coach_decision: 'escalate', coach_reason: 'The payment sandbox rejects every test card. A person must renew the sandbox keys.' });
/** A revise that names nothing that failed: no reason, no blocker, no acceptance criterion. */
const BARE_REVISE = turn('FEAT-001', 'TASK-005', 1, 4);

/** A git repository whose store holds the turns (and any other files); config.yaml with `extra`. */
function turnStore(t: Parameters<typeof gitRepo>[0], turns: readonly TurnState[], extra = '', files: Record<string, string> = {}): string {
  return gitRepo(t, { '.knowledge/config.yaml': config(extra), [LOG]: ndjson(turns), ...files });
}

const pendingFiles = (root: string): string[] => (existsSync(join(root, PENDING)) ? readdirSync(join(root, PENDING)).sort() : []);
const pendingText = (root: string, id: string): string => readFileSync(join(root, PENDING, `${id}.yaml`), 'utf8').replace(ISO, 'T');

describe('lore capture --from-turn', () => {
  it('captures a revise turn as a pending task_failure learning: the coach\'s reason, the blockers and the acceptance criteria', async (t) => {
    const root = turnStore(t, [REVISE, APPROVE]);
    const result = await lore(['capture', '--from-turn', REVISE.id], { cwd: root });
    assert.deepEqual(result, { code: 0, stdout: 'captured learn-missing-session-timeout-handling: waiting for review (lore approve learn-missing-session-timeout-handling / lore reject learn-missing-session-timeout-handling --reason ...)\n', stderr: '' });
    assert.equal(pendingText(root, 'learn-missing-session-timeout-handling'), [
      '# yaml-language-server: $schema=../../schemas/knowledge-entry.schema.json',
      'id: learn-missing-session-timeout-handling',
      'type: learning',
      'title: Missing session timeout handling',
      'description: |-',
      '  The coach asked for a revision of TASK-003 (feature FEAT-001, turn 1): missing session timeout handling.',
      '  Blockers: no session store configured.',
      '  Acceptance criteria: login verified, logout rejected, timeout blocked.',
      'scope: global',
      'keywords: []',
      'priority: medium',
      'source: task_failure',
      'sourceRef: TURN-FEAT-001-TASK-003-T1',
      'createdAt: "T"',
      'updatedAt: "T"',
      'createdBy: Test Author <author@example.com>',
      'enabled: true',
      'capture:',
      '  taskId: TASK-003',
      '  projectId: shop',
      '  outcome: partial',
      '  description: "Turn 1 of TASK-003 (feature FEAT-001): the coach said revise. Player: add auth middleware. Progress: Player implemented authentication middleware."',
      '  whatWorked: "acceptance criteria: login verified"',
      '  whatFailed: "missing session timeout handling; blockers: no session store configured; acceptance criteria: logout rejected, timeout blocked"',
      '',
    ].join('\n'));
    assert.equal((await lore(['validate'], { cwd: root })).code, 0);
  });

  it('captures an escalate turn with outcome failure', async (t) => {
    const root = turnStore(t, [ESCALATE]);
    const { code, json } = await loreJson<{ status: string; entry: KnowledgeEntry }>(['capture', '--from-turn', ESCALATE.id], { cwd: root });
    assert.deepEqual([code, json.status, json.entry.title, json.entry.description, json.entry.source, json.entry.capture?.outcome], [
      0, 'pending', 'The payment sandbox rejects every test card',
      'The coach escalated TASK-004 (feature FEAT-001, turn 3) to a person: The payment sandbox rejects every test card. A person must renew the sandbox keys.',
      'task_failure', 'failure',
    ]);
  });

  it('captures a task\'s final approval as a task_success learning of what worked', async (t) => {
    const root = turnStore(t, [REVISE, APPROVE]);
    const { code, json } = await loreJson<{ status: string; entry: KnowledgeEntry }>(['capture', '--from-turn', APPROVE.id], { cwd: root });
    assert.equal(code, 0);
    assert.deepEqual({ ...json.entry, createdAt: 'T', updatedAt: 'T' }, {
      id: 'learn-sessions-expire-after-30-idle-minutes-and-logout-clears-the', type: 'learning',
      title: 'Sessions expire after 30 idle minutes, and logout clears the session store',
      description: 'The coach approved TASK-003 (feature FEAT-001, turn 2): all criteria verified.\nWhat worked: Sessions expire after 30 idle minutes, and logout clears the session store.\nAcceptance criteria: login verified, logout verified, timeout verified.',
      scope: 'global', keywords: [], priority: 'medium', source: 'task_success', sourceRef: APPROVE.id, createdAt: 'T', updatedAt: 'T', createdBy: 'Test Author <author@example.com>', enabled: true,
      capture: {
        taskId: 'TASK-003', projectId: 'shop', outcome: 'success', whatWorked: 'Sessions expire after 30 idle minutes, and logout clears the session store.',
        description: 'Turn 2 of TASK-003 (feature FEAT-001): the coach said approve. Player: add session timeout. Progress: Sessions expire after 30 idle minutes, and logout clears the session store.',
      },
    });
  });

  it('captures nothing from an approval that a later turn of its task follows, and says why', async (t) => {
    const root = turnStore(t, [REVISE, APPROVE, turn('FEAT-001', 'TASK-003', 3, 5, { coach_reason: 'the timeout is not configurable' })]);
    assert.deepEqual(await lore(['capture', '--from-turn', APPROVE.id], { cwd: root }), {
      code: 0, stderr: '',
      stdout: 'not captured: TURN-FEAT-001-TASK-003-T2 approved TASK-003, but turn 3 of the task (TURN-FEAT-001-TASK-003-T3) came after it: only a task\'s final approval is captured\n',
    });
    assert.deepEqual(pendingFiles(root), []);
  });

  it('captures nothing from a revise that names nothing that failed, and says why', async (t) => {
    const root = turnStore(t, [BARE_REVISE]);
    assert.deepEqual(await lore(['capture', '--from-turn', BARE_REVISE.id], { cwd: root }), {
      code: 0, stderr: '',
      stdout: 'not captured: TURN-FEAT-001-TASK-005-T1: the coach said revise but named no reason, no blocker and no rejected or blocked acceptance criterion, so nothing failed to learn from\n',
    });
    assert.deepEqual(pendingFiles(root), []);
  });

  it('refuses a turn captured before as a duplicate (exit 1), unless --allow-duplicate', async (t) => {
    const root = turnStore(t, [REVISE]);
    assert.equal((await lore(['capture', '--from-turn', REVISE.id], { cwd: root })).code, 0);
    assert.deepEqual(await lore(['capture', '--from-turn', REVISE.id], { cwd: root }), {
      code: 1, stderr: '',
      stdout: 'duplicate: not captured: it resembles learn-missing-session-timeout-handling (similarity 1)\nhint: lore show learn-missing-session-timeout-handling; --allow-duplicate captures it anyway\n',
    });
    const forced = await loreJson<{ status: string; file: string }>(['capture', '--from-turn', REVISE.id, '--allow-duplicate'], { cwd: root });
    assert.deepEqual([forced.code, forced.json.status, forced.json.file], [0, 'pending', '.knowledge/knowledge/pending/learn-missing-session-timeout-handling-2.yaml']);
  });

  it('follows the config: auto_capture_failure false captures nothing, require_approval false writes a learning', async (t) => {
    const off = turnStore(t, [REVISE], 'capture:\n  auto_capture_failure: false\n');
    assert.deepEqual(await lore(['capture', '--from-turn', REVISE.id], { cwd: off }), { code: 0, stderr: '', stdout: 'not captured: capture.auto_capture_failure is false: learnings from partially failed tasks are not captured\n' });
    assert.deepEqual(pendingFiles(off), []);
    const direct = turnStore(t, [REVISE], 'capture:\n  require_approval: false\n');
    assert.deepEqual(await lore(['capture', '--from-turn', REVISE.id], { cwd: direct }), { code: 0, stderr: '', stdout: 'captured learn-missing-session-timeout-handling as a learning (capture.require_approval is false)\n' });
    assert.equal(existsSync(join(direct, '.knowledge/knowledge/learnings/learn-missing-session-timeout-handling.yaml')), true);
  });

  it('finds a turn whose id also begins with another feature\'s name (FEAT and FEAT-001)', async (t) => {
    const other = turn('FEAT', '001-TASK-009', 1, 1, { coach_reason: 'a turn of feature FEAT' });
    const root = turnStore(t, [REVISE], '', { '.knowledge/turns/shop/FEAT.ndjson': ndjson([other]) });
    const { json } = await loreJson<{ entry: KnowledgeEntry }>(['capture', '--from-turn', REVISE.id], { cwd: root });
    assert.equal(json.entry.sourceRef, 'TURN-FEAT-001-TASK-003-T1');
    const second = await loreJson<{ entry: KnowledgeEntry }>(['capture', '--from-turn', other.id], { cwd: root });
    assert.deepEqual([other.id, second.json.entry.title], ['TURN-FEAT-001-TASK-009-T1', 'A turn of feature FEAT']);
  });

  it('refuses an unknown or malformed turn id, naming the nearest turn or the turn logs', async (t) => {
    const root = turnStore(t, [REVISE]);
    assert.deepEqual(await lore(['capture', '--from-turn', 'TURN-FEAT-001-TASK-03-T1'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: no turn TURN-FEAT-001-TASK-03-T1 is recorded in project shop\nhint: did you mean TURN-FEAT-001-TASK-003-T1?\n' });
    assert.deepEqual(await lore(['capture', '--from-turn', 'TURN-FEAT-002-TASK-003-T1'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: no turn TURN-FEAT-002-TASK-003-T1 is recorded in project shop\nhint: features with turn logs in project shop: FEAT-001\n' });
    assert.deepEqual(await lore(['capture', '--from-turn', 'FEAT-001/TASK-003'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: "FEAT-001/TASK-003" is not a turn id: a turn id is TURN-{feature}-{task}-T{n}\nhint: lore turn list --feature F lists the turns of a feature with their ids\n' });
    assert.deepEqual(await lore(['capture', '--from-turn', REVISE.id, '--title', 'Mine'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: --from-turn takes the learning from the turn, so --title cannot be used with it\nhint: it takes --project, --allow-duplicate, --threshold; see lore capture --help\n' });
    assert.deepEqual(pendingFiles(root), []);
  });
});

const RECORD = ['turn', 'record', '--feature', 'FEAT-001', '--task', 'TASK-003', '--turn', '1', '--player-decision', 'add auth middleware', '--coach-decision', 'revise', '--coach-reason', 'missing session timeout handling', '--progress', 'Player implemented authentication middleware.', '--ac', 'login=verified', '--ac', 'logout=rejected'];
const APPROVE_RECORD = ['turn', 'record', '--feature', 'FEAT-001', '--task', 'TASK-003', '--turn', '2', '--player-decision', 'add session timeout', '--coach-decision', 'approve', '--progress', 'Sessions expire after 30 idle minutes.'];
const logLines = (root: string): Array<{ id: string; timestamp: string }> => readFileSync(join(root, LOG), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: string; timestamp: string });

describe('lore turn record with capture.on_turn_record', () => {
  it('captures nothing by default: on_turn_record is false, whatever auto_capture_* say', async (t) => {
    const root = turnStore(t, []);
    assert.deepEqual(await lore(RECORD, { cwd: root }), { code: 0, stdout: 'recorded TURN-FEAT-001-TASK-003-T1 in .knowledge/turns/shop/FEAT-001.ndjson (new turn)\n', stderr: '' });
    const again = await loreJson<{ status: string; capture: unknown }>(RECORD, { cwd: root });
    assert.deepEqual([again.code, again.json.status, again.json.capture, again.stderr], [0, 'updated', null, '']);
    assert.deepEqual(pendingFiles(root), []);
  });

  it('captures a revise with the turn, saying so on stderr with the pending id', async (t) => {
    const root = turnStore(t, [], 'capture:\n  on_turn_record: true\n');
    assert.deepEqual(await lore(RECORD, { cwd: root }), {
      code: 0,
      stdout: 'recorded TURN-FEAT-001-TASK-003-T1 in .knowledge/turns/shop/FEAT-001.ndjson (new turn)\n',
      stderr: 'captured learn-missing-session-timeout-handling: waiting for review (lore approve learn-missing-session-timeout-handling / lore reject learn-missing-session-timeout-handling --reason ...)\n',
    });
    assert.deepEqual(pendingFiles(root), ['learn-missing-session-timeout-handling.yaml']);
    assert.match(pendingText(root, 'learn-missing-session-timeout-handling'), /\nsource: task_failure\nsourceRef: TURN-FEAT-001-TASK-003-T1\n/);
    assert.deepEqual(logLines(root).map((l) => l.id), ['TURN-FEAT-001-TASK-003-T1']);
    // Recorded again: the turn is updated, and the learning is recognised as captured already.
    assert.deepEqual(await lore(RECORD, { cwd: root }), {
      code: 0, stdout: 'recorded TURN-FEAT-001-TASK-003-T1 in .knowledge/turns/shop/FEAT-001.ndjson (updated)\n',
      stderr: 'not captured: it resembles learn-missing-session-timeout-handling (similarity 1)\n',
    });
    // With --json the capture is in the output (stderr stays empty); the turn is the line written, its timestamp as the log's version rule stamped it.
    const json = await loreJson<{ status: string; turn: { timestamp: string }; capture: { status: string; similarTo: { id: string } } }>(RECORD, { cwd: root });
    assert.deepEqual([json.code, json.json.status, json.json.capture.status, json.json.capture.similarTo.id, json.stderr], [0, 'updated', 'duplicate', 'learn-missing-session-timeout-handling', '']);
    assert.equal(logLines(root)[2]!.timestamp, json.json.turn.timestamp);
    assert.deepEqual(pendingFiles(root), ['learn-missing-session-timeout-handling.yaml']);
    assert.deepEqual((await loreJson<{ turns: unknown[] }>(['turn', 'list', '--feature', 'FEAT-001'], { cwd: root })).json.turns.length, 1);
  });

  it('captures a task\'s final approval with auto_capture_success, and says why not without it', async (t) => {
    const root = turnStore(t, [REVISE], 'capture:\n  on_turn_record: true\n');
    const captured = await lore(APPROVE_RECORD, { cwd: root });
    assert.deepEqual([captured.code, captured.stderr], [0, 'captured learn-sessions-expire-after-30-idle-minutes: waiting for review (lore approve learn-sessions-expire-after-30-idle-minutes / lore reject learn-sessions-expire-after-30-idle-minutes --reason ...)\n']);
    assert.match(pendingText(root, 'learn-sessions-expire-after-30-idle-minutes'), /\nsource: task_success\nsourceRef: TURN-FEAT-001-TASK-003-T2\n/);
    const off = turnStore(t, [REVISE], 'capture:\n  on_turn_record: true\n  auto_capture_success: false\n');
    assert.deepEqual(await lore(APPROVE_RECORD, { cwd: off }), {
      code: 0, stdout: 'recorded TURN-FEAT-001-TASK-003-T2 in .knowledge/turns/shop/FEAT-001.ndjson (new turn)\n',
      stderr: 'not captured: capture.auto_capture_success is false: learnings from successful tasks are not captured\n',
    });
    assert.deepEqual([pendingFiles(off), logLines(off).map((l) => l.id)], [[], ['TURN-FEAT-001-TASK-003-T1', 'TURN-FEAT-001-TASK-003-T2']]);
  });

  it('records a turn with nothing to learn from, and says so', async (t) => {
    const root = turnStore(t, [], 'capture:\n  on_turn_record: true\n');
    const result = await lore(['turn', 'record', '--feature', 'FEAT-001', '--task', 'TASK-005', '--turn', '1', '--player-decision', 'p', '--coach-decision', 'revise', '--progress', 's'], { cwd: root });
    assert.deepEqual(result, {
      code: 0, stdout: 'recorded TURN-FEAT-001-TASK-005-T1 in .knowledge/turns/shop/FEAT-001.ndjson (new turn)\n',
      stderr: 'not captured: TURN-FEAT-001-TASK-005-T1: the coach said revise but named no reason, no blocker and no rejected or blocked acceptance criterion, so nothing failed to learn from\n',
    });
    assert.deepEqual([pendingFiles(root), logLines(root).map((l) => l.id)], [[], ['TURN-FEAT-001-TASK-005-T1']]);
  });
});

/** A pull-request review comments export (gh api repos/acme/shop/pulls/7/comments), trimmed to the fields lore reads and a few it ignores. */
const comment = (id: number, fields: Record<string, unknown>): Record<string, unknown> => ({
  id, pull_request_review_id: 9000, diff_hunk: '@@ -1,3 +1,4 @@', commit_id: 'abc123', user: { login: 'grace', type: 'User' },
  html_url: `https://github.com/acme/shop/pull/7#discussion_r${id}`, pull_request_url: 'https://api.github.com/repos/acme/shop/pulls/7', ...fields,
});
const COMMENTS = JSON.stringify([
  comment(101, { path: 'src/config/load.ts', line: 14, body: 'This leaks the file handle when `parse` throws. Close it in a `finally` block.' }),
  comment(102, { path: 'src/config/load.ts', line: 14, user: { login: 'ada' }, body: 'Done, thanks!', in_reply_to_id: 101 }),
  comment(103, { path: 'src/http/client.ts', line: 40, user: { login: 'linus' }, body: 'A few things here:\n\n- Retry 429 answers with exponential backoff and jitter, not a fixed delay.\n- Log the request id with every retry so failures can be traced.' }),
  comment(104, { path: 'src/http/orders.ts', line: 22, body: 'Same here: this leaks the file handle when parse throws; close it in a finally block.' }),
  comment(105, { path: 'README.md', original_line: 3, line: null, body: 'nit' }),
], null, 2);

describe('lore capture --from-review', () => {
  it('captures each distinct point of GitHub review comments as a pending code_review learning, skipping replies, repeats and one-word comments', async (t) => {
    const root = gitRepo(t, { '.knowledge/config.yaml': config(), 'comments.json': COMMENTS });
    const result = await lore(['capture', '--from-review', 'comments.json'], { cwd: root });
    assert.deepEqual(result, {
      code: 0, stderr: '',
      stdout: [
        'captured learn-this-leaks-the-file-handle-when-parse-throws from https://github.com/acme/shop/pull/7#discussion_r101',
        'captured learn-retry-429-answers-with-exponential-backoff-and-jitter-not-a from https://github.com/acme/shop/pull/7#discussion_r103',
        'captured learn-log-the-request-id-with-every-retry-so-failures-can-be-trace from https://github.com/acme/shop/pull/7#discussion_r103',
        'duplicate: https://github.com/acme/shop/pull/7#discussion_r104: it resembles learn-this-leaks-the-file-handle-when-parse-throws (similarity 0.99)',
        'skipped https://github.com/acme/shop/pull/7#discussion_r102: a reply in a thread (its first comment is the point)',
        'skipped https://github.com/acme/shop/pull/7#discussion_r103: too short to be a point: "A few things here:"',
        'skipped https://github.com/acme/shop/pull/7#discussion_r105: too short to be a point: "nit"',
        '4 points (3 pending, 1 duplicate), 3 skipped; review them with lore pending, lore approve ID, lore reject ID --reason ...',
        '',
      ].join('\n'),
    });
    assert.equal(pendingText(root, 'learn-this-leaks-the-file-handle-when-parse-throws'), [
      '# yaml-language-server: $schema=../../schemas/knowledge-entry.schema.json',
      'id: learn-this-leaks-the-file-handle-when-parse-throws',
      'type: learning',
      'title: This leaks the file handle when `parse` throws',
      'description: This leaks the file handle when `parse` throws. Close it in a `finally` block.',
      'scope: global',
      'keywords: []',
      'priority: medium',
      'source: code_review',
      'sourceRef: https://github.com/acme/shop/pull/7#discussion_r101',
      'createdAt: "T"',
      'updatedAt: "T"',
      'createdBy: Test Author <author@example.com>',
      'enabled: true',
      'capture:',
      '  taskId: acme/shop#7',
      '  projectId: shop',
      '  outcome: failure',
      '  description: Review comment by @grace on src/config/load.ts:14 in acme/shop#7.',
      '',
    ].join('\n'));
    assert.deepEqual(pendingFiles(root).length, 3);
    // The same export again: every point is recognised as captured already.
    const again = await loreJson<{ points: Array<{ result: { status: string } }> }>(['capture', '--from-review', 'comments.json'], { cwd: root });
    assert.deepEqual([again.code, again.json.points.map((p) => p.result.status)], [0, ['duplicate', 'duplicate', 'duplicate', 'duplicate']]);
  });

  it('reads reviews (pulls/N/reviews): a list in a body is one point per item, an approving review is a success, an empty body is skipped', async (t) => {
    const reviews = [
      { id: 1, user: { login: 'linus' }, state: 'CHANGES_REQUESTED', body: 'Two problems:\n\n1. The migration drops the orders index before copying the rows.\n2. Run the migration inside one transaction so a failure rolls back.', html_url: 'https://github.com/acme/shop/pull/7#pullrequestreview-1', pull_request_url: 'https://api.github.com/repos/acme/shop/pulls/7' },
      { id: 2, user: { login: 'grace' }, state: 'COMMENTED', body: '', html_url: 'https://github.com/acme/shop/pull/7#pullrequestreview-2' },
      { id: 3, user: { login: 'ada' }, state: 'APPROVED', body: 'Reusing the retry helper for the payment client was the right call.', html_url: 'https://github.com/acme/shop/pull/7#pullrequestreview-3' },
    ];
    const root = gitRepo(t, { '.knowledge/config.yaml': config() });
    const { code, json } = await loreJson<{ format: string; points: Array<{ ref: string; title: string; result: { entry: KnowledgeEntry } }>; skipped: unknown[] }>(['capture', '--from-review', '-'], { cwd: root, input: JSON.stringify(reviews) });
    assert.equal(code, 0);
    assert.deepEqual([json.format, json.skipped], ['github', [
      { ref: 'https://github.com/acme/shop/pull/7#pullrequestreview-1', reason: 'too short to be a point: "Two problems:"' },
      { ref: 'https://github.com/acme/shop/pull/7#pullrequestreview-2', reason: 'no text' },
    ]]);
    assert.deepEqual(json.points.map((p) => [p.ref, p.title, p.result.entry.source, p.result.entry.capture?.outcome, p.result.entry.capture?.description]), [
      ['https://github.com/acme/shop/pull/7#pullrequestreview-1', 'The migration drops the orders index before copying the rows', 'code_review', 'failure', 'Review by @linus (changes requested) in acme/shop#7.'],
      ['https://github.com/acme/shop/pull/7#pullrequestreview-1', 'Run the migration inside one transaction so a failure rolls back', 'code_review', 'failure', 'Review by @linus (changes requested) in acme/shop#7.'],
      ['https://github.com/acme/shop/pull/7#pullrequestreview-3', 'Reusing the retry helper for the payment client was the right call', 'code_review', 'success', 'Review by @ada (approved) in acme/shop#7.'],
    ]);
  });

  it('reads gh pr view --json comments,reviews and pages of an export (gh api --paginate --slurp)', () => {
    const view = { comments: [{ author: { login: 'grace' }, body: 'Please document the new retry settings in the README.', url: 'https://github.com/acme/shop/pull/9#issuecomment-5' }], reviews: [{ author: { login: 'ada' }, state: 'APPROVED', body: 'Clear naming throughout the retry module.' }] };
    assert.deepEqual(parseReview(JSON.stringify(view), 'view.json'), {
      format: 'github', skipped: [],
      points: [
        { text: 'Please document the new retry settings in the README.', ref: 'https://github.com/acme/shop/pull/9#issuecomment-5', author: 'grace', pullRequest: 'acme/shop#9' },
        { text: 'Clear naming throughout the retry module.', ref: 'view.json#/reviews/0', author: 'ada', state: 'APPROVED' },
      ],
    });
    const pages = [[comment(1, { body: 'First page: validate the coupon on the server.' })], [comment(2, { body: 'Second page: time out the payment call.' })]];
    assert.deepEqual(parseReview(JSON.stringify(pages), 'pages.json').points.map((p) => p.ref), ['https://github.com/acme/shop/pull/7#discussion_r1', 'https://github.com/acme/shop/pull/7#discussion_r2']);
  });

  it('reads a plain list: each paragraph and each list item is a point at its file:line; code stays with its point; headings only separate', async (t) => {
    const notes = [
      '# Review of the checkout change',
      '',
      '- Validate the coupon code on the server, never only in the browser.',
      '- Wrap the payment call in a timeout',
      '  of ten seconds.',
      '',
      'The checkout page fetches the cart twice on load; cache the first answer',
      'and reuse it for the summary:',
      '',
      '```ts',
      'const cart = await getCart();',
      '',
      'render(cart);',
      '```',
      '',
      '* typo',
      '',
    ].join('\n');
    assert.deepEqual(parseReview(notes, 'notes.md'), {
      format: 'plain',
      points: [
        { text: 'Validate the coupon code on the server, never only in the browser.', ref: 'notes.md:3' },
        { text: 'Wrap the payment call in a timeout\n  of ten seconds.', ref: 'notes.md:4' },
        { text: 'The checkout page fetches the cart twice on load; cache the first answer\nand reuse it for the summary:', ref: 'notes.md:7' },
        { text: '```ts\nconst cart = await getCart();\n\nrender(cart);\n```', ref: 'notes.md:10' },
      ],
      skipped: [{ ref: 'notes.md:16', reason: 'too short to be a point: "typo"' }],
    });
    const root = gitRepo(t, { '.knowledge/config.yaml': config(), 'notes.md': notes });
    assert.deepEqual(await lore(['capture', '--from-review', 'notes.md'], { cwd: root }), {
      code: 2, stdout: '',
      stderr: 'error: notes.md:3 names no pull request, so the learning would have no task: give the task id\nhint: lore capture --from-review notes.md --task-id acme/shop#7 (any task or pull-request id)\n',
    });
    const { json } = await loreJson<{ points: Array<{ title: string; result: { entry: KnowledgeEntry } }> }>(['capture', '--from-review', 'notes.md', '--task-id', 'CHECKOUT-12'], { cwd: root });
    assert.deepEqual(json.points.map((p) => [p.title, p.result.entry.sourceRef, p.result.entry.capture?.taskId, p.result.entry.capture?.description]), [
      ['Validate the coupon code on the server, never only in the browser', 'notes.md:3', 'CHECKOUT-12', 'Review point from notes.md:3.'],
      ['Wrap the payment call in a timeout', 'notes.md:4', 'CHECKOUT-12', 'Review point from notes.md:4.'],
      ['The checkout page fetches the cart twice on load; cache the first answer', 'notes.md:7', 'CHECKOUT-12', 'Review point from notes.md:7.'],
      ['Suggested change', 'notes.md:10', 'CHECKOUT-12', 'Review point from notes.md:10.'],
    ]);
  });

  it('checks each point against the entries and the rejections: a point already known is not captured again', async (t) => {
    const known = entry({ id: 'learn-close-handles', title: 'Close file handles in finally', description: 'This leaks the file handle when parse throws. Close it in a finally block.' });
    const rejection = { id: 'learn-no-fixed-delay', title: 'Retry 429 answers with exponential backoff and jitter, not a fixed delay', description: 'Retry 429 answers with exponential backoff and jitter, not a fixed delay.', reason: 'covered by the HTTP client guide', rejectedBy: 'Ada <ada@example.com>', timestamp: '2026-02-01T00:00:00.000Z' };
    const comments = JSON.stringify((JSON.parse(COMMENTS) as Array<{ id: number }>).filter((c) => c.id !== 104));
    const root = gitRepo(t, { '.knowledge/config.yaml': config(), ...entryFiles([known]), '.knowledge/log/rejections.ndjson': `${JSON.stringify(rejection)}\n`, 'comments.json': comments });
    const { json } = await loreJson<{ points: Array<{ ref: string; result: { status: string; similarTo?: { id: string } } }> }>(['capture', '--from-review', 'comments.json'], { cwd: root });
    assert.deepEqual(json.points.map((p) => [p.ref.slice(-4), p.result.status, p.result.similarTo?.id]), [
      ['r101', 'duplicate', 'learn-close-handles'],
      ['r103', 'rejected-before', 'learn-no-fixed-delay'],
      ['r103', 'pending', undefined],
    ]);
    assert.deepEqual(pendingFiles(root), ['learn-log-the-request-id-with-every-retry-so-failures-can-be-trace.yaml']);
  });

  it('refuses malformed JSON and comments of another shape, naming the file, line and column, and writes nothing', async (t) => {
    const root = gitRepo(t, { '.knowledge/config.yaml': config(), 'bad.json': '[\n  {"body": "Close the handle in a finally block.",}\n]\n', 'shape.json': '[{"body": 3}, {"path": "a.ts"}, "text"]' });
    assert.deepEqual(await lore(['capture', '--from-review', 'bad.json'], { cwd: root }), {
      code: 1, stdout: '',
      stderr: 'error: bad.json is not valid JSON\nbad.json:2:51: error: JSON syntax: expected a property name in double quotes (found \'}\')\n    1 | [\n  > 2 |   {"body": "Close the handle in a finally block.",}\n      |                                                   ^\n',
    });
    assert.deepEqual(await lore(['capture', '--from-review', 'shape.json'], { cwd: root }), {
      code: 1, stdout: '',
      stderr: [
        'error: shape.json is not a GitHub review export lore reads',
        'shape.json:1:11: error: body must be text (found number)',
        '  > 1 | [{"body": 3}, {"path": "a.ts"}, "text"]',
        '      |           ^',
        'shape.json:1:15: error: a review comment must have a body',
        '  > 1 | [{"body": 3}, {"path": "a.ts"}, "text"]',
        '      |               ^^^^^^^^^^^^^^^^',
        'shape.json:1:33: error: a review comment must be an object with a body (found string)',
        '  > 1 | [{"body": 3}, {"path": "a.ts"}, "text"]',
        '      |                                 ^^^^^^',
        '',
      ].join('\n'),
    });
    assert.deepEqual(pendingFiles(root), []);
  });

  it('caps the input: more than 16 MiB, or more than 1000 points, is refused before anything is written', async (t) => {
    const root = gitRepo(t, { '.knowledge/config.yaml': config() });
    writeFileSync(join(root, 'huge.txt'), 'x'.repeat(16 * 1024 * 1024 + 1));
    assert.deepEqual(await lore(['capture', '--from-review', 'huge.txt', '--task-id', 'T-1'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: huge.txt is over the limit of 16777216 bytes\n' });
    const many = Array.from({ length: MAX_POINTS + 1 }, (_, i) => `- Point ${i} about the retry budget of client ${i}`).join('\n');
    assert.deepEqual(await lore(['capture', '--from-review', '-', '--task-id', 'T-1'], { cwd: root, input: many }), { code: 2, stdout: '', stderr: 'error: <stdin> holds 1001 review points, more than the 1000 captured at once\nhint: split the review into smaller files\n' });
    assert.deepEqual(await lore(['capture', '--from-review', '-', '--outcome', 'success'], { cwd: root, input: '- a point' }), { code: 2, stdout: '', stderr: 'error: --from-review takes the learning from the review, so --outcome cannot be used with it\nhint: it takes --task-id, --project, --allow-duplicate, --threshold; see lore capture --help\n' });
    assert.deepEqual(pendingFiles(root), []);
  });
});

describe('titles taken from captured text', () => {
  const cases: Array<[string, string, string]> = [
    ['the first sentence, capitalised, without its full stop', 'missing tests. Also the docs.', 'Missing tests'],
    ['the first line', 'Use a timeout\nof ten seconds', 'Use a timeout'],
    ['a question keeps its mark', 'why not reuse the pool? It exists.', 'Why not reuse the pool?'],
    ['a dot inside a word does not end it', 'bump node.js to 20', 'Bump node.js to 20'],
    ['a text that opens with its full stop keeps its words', '. and the cache', '. and the cache'],
    ['a long text cut at a word, with an ellipsis', `${'word '.repeat(40)}end`, `${'Word '}${'word '.repeat(22)}word…`],
  ];
  for (const [name, text, title] of cases) it(name, () => assert.equal(titleFrom(text), title));
});

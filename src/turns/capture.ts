// Learnings from player/coach turns. A revise or escalate turn says what failed (the coach's reason,
// the blockers, the acceptance criteria rejected or blocked); a task's final approval says what
// worked. Both go through the one capture pipeline (knowledge/capture.ts): its config switches,
// duplicate and rejection checks, and require_approval.
import { captureLearning, stageCaptures, type CaptureResult } from '../knowledge/capture.js';
import { asSentence, titleFrom } from '../knowledge/capture-text.js';
import type { EntryWriteOptions } from '../knowledge/manage.js';
import { displayPath } from '../store/layout.js';
import { writeStore } from '../store/transaction.js';
import type { LearningCapture, TurnState } from '../types.js';
import type { RecordTurnOptions, RecordTurnResult } from './record.js';
import { pruneTurns } from './retention.js';
import { findTurn, readTurnLog, turnLogPath } from './turn-log.js';

/** What a turn proposes: a capture, or why nothing is captured from it. */
export type TurnLearning = { capture: LearningCapture } | { reason: string };

const criteria = (status: TurnState['acceptance_criteria_status'], keep: (s: string) => boolean): string =>
  Object.entries(status).filter(([, s]) => keep(s)).map(([id, s]) => `${id} ${s}`).join(', ');

/** "TASK-003 (feature FEAT-001, turn 2)". */
const where = (turn: TurnState): string => `${turn.task_id} (feature ${turn.feature_id}, turn ${turn.turn_number})`;

/**
 * The capture a turn proposes, or why it proposes none: a revise (outcome partial) or escalate
 * (failure) that names something that failed, or an approval no later turn of its task follows
 * (success). `turns` are the turns of its feature.
 *
 * @example
 * turnLearning(turn({ coach_decision: 'revise', coach_reason: 'missing session timeout handling' }), [], 'acme');
 * // → { capture: { suggestedTitle: 'Missing session timeout handling', outcome: 'partial', sourceRef: 'TURN-...', ... } }
 */
export function turnLearning(turn: TurnState, turns: readonly TurnState[], project: string): TurnLearning {
  const reason = turn.coach_reason?.trim() ?? '';
  const acs = criteria(turn.acceptance_criteria_status, () => true);
  const happened = [`Turn ${turn.turn_number} of ${turn.task_id} (feature ${turn.feature_id}): the coach said ${turn.coach_decision}.`];
  if (turn.player_decision.trim() !== '') happened.push(`Player: ${asSentence(turn.player_decision)}`);
  if (turn.progress_summary.trim() !== '') happened.push(`Progress: ${asSentence(turn.progress_summary)}`);
  const base = { taskId: turn.task_id, projectId: project, description: happened.join(' '), sourceRef: turn.id };
  if (turn.coach_decision === 'approve') {
    const later = turns.filter((t) => t.task_id === turn.task_id && t.turn_number > turn.turn_number).sort((a, b) => b.turn_number - a.turn_number)[0];
    if (later !== undefined) return { reason: `${turn.id} approved ${turn.task_id}, but turn ${later.turn_number} of the task (${later.id}) came after it: only a task's final approval is captured` };
    const worked = turn.progress_summary.trim();
    const titled = worked || reason;
    if (titled === '') return { reason: `${turn.id} approved ${turn.task_id} but says nothing about what worked (no progress summary, no coach reason)` };
    const lines = [`The coach approved ${where(turn)}${reason === '' ? '.' : `: ${asSentence(reason)}`}`];
    if (worked !== '') lines.push(`What worked: ${asSentence(worked)}`);
    if (acs !== '') lines.push(`Acceptance criteria: ${acs}.`);
    return { capture: { ...base, outcome: 'success', ...(worked === '' ? {} : { whatWorked: worked }), suggestedTitle: titleFrom(titled), suggestedDescription: lines.join('\n') } };
  }
  const blockers = turn.blockers_found.map((b) => b.trim()).filter((b) => b !== '');
  const unmet = criteria(turn.acceptance_criteria_status, (s) => s === 'rejected' || s === 'blocked');
  if (reason === '' && blockers.length === 0 && unmet === '') {
    return { reason: `${turn.id}: the coach said ${turn.coach_decision} but named no reason, no blocker and no rejected or blocked acceptance criterion, so nothing failed to learn from` };
  }
  const verdict = turn.coach_decision === 'escalate' ? `The coach escalated ${where(turn)} to a person` : `The coach asked for a revision of ${where(turn)}`;
  const lines = [reason === '' ? `${verdict}.` : `${verdict}: ${asSentence(reason)}`];
  if (blockers.length > 0) lines.push(`Blockers: ${blockers.join('; ')}.`);
  if (acs !== '') lines.push(`Acceptance criteria: ${acs}.`);
  const failed = [reason, blockers.length === 0 ? '' : `blockers: ${blockers.join('; ')}`, unmet === '' ? '' : `acceptance criteria: ${unmet}`].filter((part) => part !== '');
  const verified = criteria(turn.acceptance_criteria_status, (s) => s === 'verified');
  return {
    capture: {
      ...base, outcome: turn.coach_decision === 'escalate' ? 'failure' : 'partial', whatFailed: failed.join('; '), ...(verified === '' ? {} : { whatWorked: `acceptance criteria: ${verified}` }),
      suggestedTitle: titleFrom(reason || blockers[0] || `Acceptance criteria not met: ${unmet}`), suggestedDescription: lines.join('\n'),
    },
  };
}

/** What a capture from a turn reports when the turn proposes nothing. */
function nothing(reason: string): CaptureResult {
  return { status: 'not-captured', message: reason, warnings: [] };
}

export interface TurnCaptureOptions extends EntryWriteOptions {
  project: string;
  allowDuplicate?: boolean | undefined;
  threshold?: number | undefined;
}

/**
 * Captures the learning of a recorded turn, found by its id (lore capture --from-turn).
 *
 * @example
 * (await captureFromTurn({ store, project: 'acme', id: 'TURN-FEAT-001-TASK-003-T1' })).status; // → 'pending'
 */
export async function captureFromTurn(options: TurnCaptureOptions & { id: string }): Promise<CaptureResult> {
  const { id, project, ...rest } = options;
  const { turn, log } = await findTurn({ store: options.store, project, id });
  const learning = turnLearning(turn, log.turns, project);
  return 'reason' in learning ? nothing(learning.reason) : captureLearning({ ...rest, capture: learning.capture });
}

/**
 * Records a turn and captures its learning in one transaction under the store's write lock: both
 * are written, or neither (lore turn record with capture.on_turn_record). A capture refused (a
 * duplicate, config, a turn with nothing to learn) leaves the turn recorded.
 *
 * @example
 * (await recordTurnCapturing({ store, project: 'acme', turn })).capture.status; // → 'pending'
 */
export async function recordTurnCapturing(options: RecordTurnOptions & Omit<TurnCaptureOptions, 'store' | 'project'>): Promise<RecordTurnResult & { capture: CaptureResult }> {
  const { store, project, allowDuplicate, threshold } = options;
  const turn = { ...options.turn };
  const path = turnLogPath(store.root, project, turn.feature_id);
  const written = await writeStore(store.root, 'lore turn record', async (tx) => {
    const log = await readTurnLog({ store, project, feature: turn.feature_id });
    const learning = turnLearning(turn, [...log.turns.filter((t) => t.id !== turn.id), turn], project);
    const capture = 'reason' in learning ? nothing(learning.reason) : (await stageCaptures(tx, { ...options, captures: [learning.capture], allowDuplicate, threshold }))[0]!;
    // Appended when the transaction commits, stamped after any earlier version of the turn (the log's version rule).
    tx.append(path, [turn]);
    return { status: log.turns.some((t) => t.id === turn.id) ? 'updated' as const : 'created' as const, capture };
  });
  return { turn, file: displayPath(store.root, path), status: written.status, prune: await pruneTurns({ store, project }), capture: written.capture };
}

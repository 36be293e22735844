// Writing turn states: a turn is validated, stamped and appended to its feature's log under the
// log's lock; recording the same id again updates it (replay keeps the newest line, and the log's
// version rule stamps the new one after the old, even when the old one's time is in the future).
// What the write needs to know of the log (does the id exist, its latest time) comes from the
// project's turn index, which reads only what was appended since the last call. After each write
// the retention limits are checked and applied; a log retention refuses to rewrite is a warning.
import { LoreError, ValidationError, type Problem } from '../errors.js';
import { withLog } from '../log/ndjson.js';
import type { VersionRule } from '../log/versions.js';
import { suggest } from '../schema/suggest.js';
import { validateAgainst, type SchemaIssue } from '../schema/validate.js';
import { displayPath } from '../store/layout.js';
import type { Store } from '../store/open.js';
import { locateIssues, parseText } from '../store/parse.js';
import type { FeatureCompletion, TurnState } from '../types.js';
import { pruneTurns, type PruneResult } from './retention.js';
import { ProjectTurns } from './turn-index.js';
import { completionId, listTurnFeatures, readTurnLog, turnId, turnLogPath } from './turn-log.js';

/** The fields of a turn in schema order; id and timestamp are set by lore. */
const TURN_FIELDS = ['id', 'feature_id', 'task_id', 'turn_number', 'player_decision', 'coach_decision', 'coach_reason', 'blockers_found', 'progress_summary', 'acceptance_criteria_status', 'mode', 'quality_gate_results', 'timestamp'] as const;

/** What a caller gives to record a turn: the TurnState fields without id and timestamp; the lists and mode may be left out. */
export type TurnInput = Omit<TurnState, 'id' | 'timestamp' | 'blockers_found' | 'acceptance_criteria_status' | 'mode' | 'quality_gate_results'>
  & Partial<Pick<TurnState, 'id' | 'blockers_found' | 'acceptance_criteria_status' | 'mode' | 'quality_gate_results'>>;

/** Builds the turn from input (defaults filled, id derived, timestamp set) and lists what is wrong with it. */
export function checkTurn(input: unknown, now: Date): { turn: TurnState; issues: SchemaIssue[] } {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { turn: input as TurnState, issues: [{ pointer: '', locatePointer: '', atKey: false, message: 'a turn must be a JSON object with feature_id, task_id, turn_number, player_decision, coach_decision and progress_summary' }] };
  }
  const given = input as Record<string, unknown>;
  const { feature_id: feature, task_id: task, turn_number: n } = given;
  const derivable = typeof feature === 'string' && typeof task === 'string' && Number.isInteger(n);
  const merged: Record<string, unknown> = { blockers_found: [], acceptance_criteria_status: {}, mode: 'FRESH_START', quality_gate_results: null, ...given, timestamp: now.toISOString() };
  if (derivable) merged.id = turnId(feature, task, n as number);
  // Schema order first, then anything unknown, so the schema names the unknown field.
  const turn = Object.fromEntries([...TURN_FIELDS.filter((k) => k in merged).map((k) => [k, merged[k]]), ...Object.entries(merged).filter(([k]) => !(TURN_FIELDS as readonly string[]).includes(k))]);
  const all = validateAgainst('turn-state', turn);
  // The id is derived: when its parts are wrong, their own messages say so.
  const partsWrong = !derivable || all.some((i) => ['/feature_id', '/task_id', '/turn_number'].includes(i.pointer));
  const issues = all.filter((i) => !partsWrong || i.pointer !== '/id');
  if (derivable && given.id !== undefined && given.id !== merged.id) {
    issues.push({ pointer: '/id', locatePointer: '/id', atKey: false, message: `id is ${JSON.stringify(given.id)}, but a turn of ${feature} ${task} turn ${n} is ${merged.id as string}; leave id out, lore derives it` });
  }
  return { turn: turn as unknown as TurnState, issues };
}

/**
 * A valid turn from input, or a ValidationError listing every problem.
 *
 * @example
 * buildTurn({ feature_id: 'FEAT-001', task_id: 'TASK-003', turn_number: 1, player_decision: 'p', coach_decision: 'revise', progress_summary: 's' }, new Date()).id;
 * // → 'TURN-FEAT-001-TASK-003-T1' (blockers_found [], acceptance_criteria_status {}, mode FRESH_START filled in)
 */
export function buildTurn(input: unknown, now: Date, source = 'the turn'): TurnState {
  const { turn, issues } = checkTurn(input, now);
  if (issues.length > 0) throw new ValidationError(`${source} is invalid`, issues.map((i): Problem => ({ severity: 'error', file: source, pointer: i.pointer, message: i.message })));
  return turn;
}

/** Parses a turn from JSON text (a --from-file), with problems located at their line in the text. */
export function parseTurn(text: string, file: string, now: Date): TurnState {
  const parsed = parseText(text, file);
  if (parsed.value === undefined) throw new ValidationError(`could not read the turn in ${file}`, parsed.problems);
  const { turn, issues } = checkTurn(parsed.value, now);
  if (issues.length > 0) throw new ValidationError(`the turn in ${file} is invalid`, locateIssues(parsed, file, issues));
  return turn;
}

export interface RecordTurnOptions {
  store: Store;
  project: string;
  turn: TurnState;
}

export interface RecordTurnResult {
  /** The turn as written: its timestamp may be later than the one given (see versions.ts). */
  turn: TurnState;
  /** The log, relative to the store root. */
  file: string;
  status: 'created' | 'updated';
  /** What retention did after the write; a log it refused to rewrite is in `prune.refused`. */
  prune: PruneResult;
}

/** A turn log's version rule: a new version of a turn is stamped after the latest one in the log. */
function turnVersions(latest: (id: string) => number | undefined): VersionRule<{ id: string; timestamp: string }> {
  return { keyOf: (t) => t.id, latest, timeOf: (t) => Date.parse(t.timestamp), stamp: (t, at) => (t.timestamp = at) };
}

/**
 * Appends a turn to its feature's log (an update when the id was recorded before), then applies
 * the retention limits.
 *
 * @example
 * const turn = buildTurn({ feature_id: 'FEAT-001', task_id: 'TASK-003', turn_number: 2, player_decision: 'add timeout', coach_decision: 'approve', progress_summary: 'done' }, new Date());
 * (await recordTurn({ store, project: 'acme', turn })).file; // → '.knowledge/turns/acme/FEAT-001.ndjson'
 */
export async function recordTurn(options: RecordTurnOptions): Promise<RecordTurnResult> {
  const { store, project } = options;
  const turn = { ...options.turn };
  const path = turnLogPath(store.root, project, turn.feature_id);
  const file = displayPath(store.root, path);
  const turns = await ProjectTurns.load(store, project);
  const status = await withLog(path, async (writer) => {
    const { index } = await turns.feature(turn.feature_id);
    const existed = index.get(turn.id)?.deleted === false;
    await writer.append([turn], turnVersions((id) => index.latest(id)));
    return existed ? 'updated' as const : 'created' as const;
  }, { displayPath: file });
  return { turn, file, status, prune: await pruneTurns({ store, project, turns }) };
}

export interface CompleteFeatureResult {
  /** The completion record, new or the one already in the log. */
  completion: FeatureCompletion;
  /** The log, relative to the store root. */
  file: string;
  status: 'completed' | 'already_completed';
  /** What retention did after the completion. */
  prune: PruneResult;
}

/**
 * Marks a feature completed, which makes its turns eligible for pruning; then applies retention.
 *
 * @example
 * (await completeFeature({ store, project: 'acme', feature: 'FEAT-001', now: new Date() })).status; // → 'completed'
 */
export async function completeFeature(options: { store: Store; project: string; feature: string; now: Date }): Promise<CompleteFeatureResult> {
  const { store, project, feature } = options;
  const path = turnLogPath(store.root, project, feature);
  const file = displayPath(store.root, path);
  // Read and appended in one locked step, so two completions cannot both write.
  const { completion, status } = await withLog(path, async (writer) => {
    const log = await readTurnLog({ store, project, feature });
    if (log.turns.length === 0) {
      const known = await listTurnFeatures(store.root, project);
      const hint = suggest(feature, known);
      throw new LoreError('NOT_FOUND', `no turns recorded for feature ${feature} in project ${project}, so there is nothing to complete`, { hint: hint === undefined ? `features with turns: ${known.join(', ') || 'none'}` : `did you mean ${hint}?` });
    }
    if (log.completion !== undefined) return { completion: log.completion, status: 'already_completed' as const };
    const record: FeatureCompletion = { id: completionId(feature), feature_id: feature, completed: true, timestamp: options.now.toISOString() };
    // Written once, so it is never a new version of an older line.
    await writer.append([record]);
    return { completion: record, status: 'completed' as const };
  }, { displayPath: file });
  return { completion, file, status, prune: await pruneTurns({ store, project }) };
}

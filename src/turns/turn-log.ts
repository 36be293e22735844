// Reading a feature's turn log (.knowledge/turns/<project>/<feature>.ndjson), from the working
// tree or, for hooks and CI, from a commit through git. The latest turn is the highest
// turn_number, then the newest timestamp, then the later line: never simply the last line.
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isErrno, LoreError, UsageError, type Problem } from '../errors.js';
import { assertRealDir } from '../fs/no-follow.js';
import { readAtRef } from '../git/objects.js';
import { replayLog, replayLogText, type ReplayOptions } from '../log/ndjson.js';
import { suggest } from '../schema/suggest.js';
import { assertValidId } from '../store/ids.js';
import { displayPath, knowledgeDir, LOGS } from '../store/layout.js';
import type { Store } from '../store/open.js';
import { turnLineProblem } from '../store/turn-line.js';
import type { FeatureCompletion, TurnState } from '../types.js';
import { compareTurns } from './order.js';

export { compareTurns, latestTurn } from './order.js';

/** Consecutive `revise` verdicts on one task after which the coach's escalate_when rule applies. */
export const ESCALATION_STREAK = 3;

export interface TurnLogOptions {
  store: Store;
  project: string;
  feature: string;
  /** Read the log as committed in this revision (`git show REV:<path>`) instead of the working tree. */
  ref?: string | undefined;
  env?: NodeJS.ProcessEnv;
}

export interface TurnLog {
  project: string;
  feature: string;
  /** The log's path relative to the store root. */
  file: string;
  ref?: string;
  /** The latest version of every turn, ordered by turn_number, then timestamp. */
  turns: TurnState[];
  /** The completion record, when the feature is completed. */
  completion?: FeatureCompletion;
  /** Lines that were skipped (torn, invalid, or of another feature). */
  problems: Problem[];
}

/**
 * The deterministic id of a turn: TURN-{feature}-{task}-T{n}.
 *
 * @example
 * turnId('FEAT-001', 'TASK-003', 2); // → 'TURN-FEAT-001-TASK-003-T2'
 */
export function turnId(feature: string, task: string, turn: number): string {
  return `TURN-${feature}-${task}-T${turn}`;
}

/** The id of a feature's completion record: COMPLETE-{feature}. */
export function completionId(feature: string): string {
  return `COMPLETE-${feature}`;
}

/** The folder of a project's turn logs (absolute); the project is checked before it becomes a path. */
export function projectTurnsDir(root: string, project: string): string {
  assertValidId(project, 'project');
  return join(knowledgeDir(root), LOGS.turnsDir, project);
}

/** The absolute path of a feature's turn log; project and feature are checked before they become paths. */
export function turnLogPath(root: string, project: string, feature: string): string {
  assertValidId(feature, 'feature');
  return join(projectTurnsDir(root, project), `${feature}.ndjson`);
}

/** The features of a project that have a turn log, sorted. */
export async function listTurnFeatures(root: string, project: string): Promise<string[]> {
  const dir = projectTurnsDir(root, project);
  assertRealDir(dir);
  try {
    return (await readdir(dir)).filter((n) => n.endsWith('.ndjson')).map((n) => n.slice(0, -'.ndjson'.length)).sort();
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return [];
    throw error;
  }
}

/** The projects that have a turn-log folder, sorted. */
export async function listTurnProjects(root: string): Promise<string[]> {
  const dir = join(knowledgeDir(root), LOGS.turnsDir);
  assertRealDir(dir);
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return [];
    throw error;
  }
}

function lineCheck(feature: string): (value: unknown) => string | undefined {
  return (value) => turnLineProblem(value, feature);
}

/**
 * Reads a feature's turns from the working tree, or from a commit when `ref` is given.
 *
 * @example
 * const log = await readTurnLog({ store, project: 'acme', feature: 'FEAT-001', ref: 'HEAD' });
 * latestTurn(log.turns)?.id; // → 'TURN-FEAT-001-TASK-003-T2'
 */
export async function readTurnLog(options: TurnLogOptions): Promise<TurnLog> {
  const { store, project, feature, ref } = options;
  const path = turnLogPath(store.root, project, feature);
  const file = displayPath(store.root, path);
  const replay: ReplayOptions<TurnState> = { displayPath: ref === undefined ? file : `${ref}:${file}`, validate: lineCheck(feature) };
  let result;
  if (ref === undefined) {
    result = await replayLog<TurnState>(path, replay);
  } else {
    const where = { cwd: store.root, ...(options.env === undefined ? {} : { env: options.env }) };
    const text = await readAtRef(where, ref, relative(store.root, path).split(sep).join('/'));
    result = replayLogText<TurnState>(text ?? '', replay);
  }
  const lines = [...result.records.values()];
  const completion = lines.find((l) => (l.value as unknown as FeatureCompletion).completed === true)?.value as unknown as FeatureCompletion | undefined;
  const turns = lines.filter((l) => (l.value as unknown as FeatureCompletion).completed !== true).sort(compareTurns).map((l) => l.value);
  return { project, feature, file, ...(ref === undefined ? {} : { ref }), turns, ...(completion === undefined ? {} : { completion }), problems: result.problems };
}

/** What a turn id must be (turn-state.schema.json), checked after its length: 5 + 64 + 1 + 64 + 2 + 10 characters at most. */
const TURN_ID = /^TURN-[A-Za-z0-9._-]+-T[0-9]+$/;
const TURN_ID_MAX = 146;

/**
 * A recorded turn by its id, with the log of its feature. The id does not say where the feature
 * ends (both may hold dashes), so each feature whose name starts it is read until one holds it.
 *
 * @example
 * (await findTurn({ store, project: 'acme', id: 'TURN-FEAT-001-TASK-003-T2' })).turn.coach_decision; // → 'approve'
 */
export async function findTurn(options: { store: Store; project: string; id: string }): Promise<{ turn: TurnState; log: TurnLog }> {
  const { store, project, id } = options;
  if (id.length > TURN_ID_MAX || !TURN_ID.test(id)) {
    throw new UsageError(`${JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}...` : id)} is not a turn id: a turn id is TURN-{feature}-{task}-T{n}`, 'lore turn list --feature F lists the turns of a feature with their ids');
  }
  const features = await listTurnFeatures(store.root, project);
  const near: string[] = [];
  for (const feature of features.filter((f) => id.startsWith(`TURN-${f}-`))) {
    const log = await readTurnLog({ store, project, feature });
    const turn = log.turns.find((t) => t.id === id);
    if (turn !== undefined) return { turn, log };
    near.push(...log.turns.map((t) => t.id));
  }
  const hint = suggest(id, near);
  const listed = features.length === 0 ? 'none' : `${features.slice(0, 10).join(', ')}${features.length > 10 ? ', ...' : ''}`;
  throw new LoreError('NOT_FOUND', `no turn ${id} is recorded in project ${project}`, { hint: hint === undefined ? `features with turn logs in project ${project}: ${listed}` : `did you mean ${hint}?` });
}

/** How many `revise` verdicts in a row a task has had, counting back from its latest turn. */
export function revisionStreak(turns: readonly TurnState[], task: string): number {
  const own = turns.filter((t) => t.task_id === task).sort((a, b) => a.turn_number - b.turn_number || Date.parse(a.timestamp) - Date.parse(b.timestamp));
  let streak = 0;
  while (streak < own.length && own[own.length - 1 - streak]!.coach_decision === 'revise') streak++;
  return streak;
}

/** A task whose coach has said `revise` ESCALATION_STREAK or more times in a row. */
export interface Escalation {
  task: string;
  streak: number;
}

/**
 * The escalation that applies to a task, or null: three or more consecutive revise verdicts.
 *
 * @example
 * escalationFor(log.turns, 'TASK-003'); // → { task: 'TASK-003', streak: 3 } after revise, revise, revise
 */
export function escalationFor(turns: readonly TurnState[], task: string): Escalation | null {
  const streak = revisionStreak(turns, task);
  return streak >= ESCALATION_STREAK ? { task, streak } : null;
}

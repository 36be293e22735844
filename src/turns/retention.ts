// Turn retention: at most turns.max_per_feature turns per feature and turns.max_per_project per
// project. Over a limit, the oldest turns of completed features go first; turns of features in
// progress are never removed (a warning says so instead). The counts come from the project's turn
// index (turn-index.ts), so checking the limits after every record does not replay the logs.
// Pruning rewrites each log atomically from what it re-reads under the log's lock, and refuses a
// log with a line it cannot read (rewriting would lose it); git history keeps what was pruned.
import { LoreError, type Problem } from '../errors.js';
import { rewriteLog, rewriteRefusal } from '../log/ndjson.js';
import type { Store } from '../store/open.js';
import { turnLineProblem } from '../store/turn-line.js';
import type { TurnState, TurnsConfig } from '../types.js';
import { countTurns, ProjectTurns, turnsOf, type RetainedTurn } from './turn-index.js';
import { byText } from '../text-order.js';

export type { RetainedTurn };

/** What retention needs of a turn. */

/** A feature's turns as retention sees them. */
export interface FeatureTurns {
  feature: string;
  completed: boolean;
  /** Its turns; only a completed feature's are needed (those are the ones that can go). */
  turns: readonly RetainedTurn[];
  /** How many turns it has, when `turns` does not list them all (default: turns.length). */
  count?: number;
}

const countOf = (f: FeatureTurns): number => f.count ?? f.turns.length;

export interface PrunedTurn {
  feature: string;
  id: string;
  turn_number: number;
  timestamp: string;
}

export interface RetentionPlan {
  removed: PrunedTurn[];
  warnings: string[];
}

export type RetentionLimits = Pick<TurnsConfig, 'max_per_feature' | 'max_per_project'>;

const oldestFirst = (a: PrunedTurn, b: PrunedTurn): number => Date.parse(a.timestamp) - Date.parse(b.timestamp) || a.turn_number - b.turn_number || byText(a.feature, b.feature);

const asPruned = (feature: string, t: RetainedTurn): PrunedTurn => ({ feature, id: t.id, turn_number: t.turn_number, timestamp: t.timestamp });

/**
 * Decides which turns go (pure: no I/O), oldest first, and warns about limits only in-progress turns exceed.
 *
 * @example
 * planRetention('acme', [{ feature: 'FEAT-1', completed: true, turns }], { max_per_feature: 50, max_per_project: 200 }).removed;
 * // → the oldest turns of FEAT-1 beyond 50
 */
export function planRetention(project: string, features: readonly FeatureTurns[], limits: RetentionLimits): RetentionPlan {
  const removed: PrunedTurn[] = [];
  const warnings: string[] = [];
  // Only completed features can lose turns, so only theirs are sorted; the others are counted.
  const keptDone: PrunedTurn[] = [];
  let kept = 0;
  for (const f of features) {
    const excess = countOf(f) - limits.max_per_feature;
    if (!f.completed) {
      if (excess > 0) warnings.push(`feature ${f.feature} has ${countOf(f)} turns, over turns.max_per_feature (${limits.max_per_feature}), but it is in progress, so none were pruned`);
      kept += countOf(f);
      continue;
    }
    const turns = f.turns.map((t) => asPruned(f.feature, t)).sort(oldestFirst);
    const cut = Math.max(0, excess);
    removed.push(...turns.slice(0, cut));
    keptDone.push(...turns.slice(cut));
    kept += turns.length - cut;
  }
  const over = kept - limits.max_per_project;
  if (over > 0) {
    const candidates = keptDone.sort(oldestFirst).slice(0, over);
    removed.push(...candidates);
    if (candidates.length < over) {
      warnings.push(`project ${project} keeps ${kept - candidates.length} turns, over turns.max_per_project (${limits.max_per_project}): the turns over the limit belong to features in progress, which are never pruned`);
    }
  }
  return { removed: removed.sort(oldestFirst), warnings };
}

export interface PruneOptions {
  store: Store;
  project: string;
  /** Report what would go, change nothing. */
  dryRun?: boolean;
  /** The project's turn index, when the caller has it loaded already (recordTurn). */
  turns?: ProjectTurns;
}

export interface PruneResult extends RetentionPlan {
  project: string;
  dryRun: boolean;
  limits: RetentionLimits;
  /** Turns in the project before and after pruning. */
  before: number;
  after: number;
  features: Array<{ feature: string; completed: boolean; turns: number; removed: number }>;
  /**
   * Logs that were due to lose turns but were not rewritten, because a line of them cannot be read
   * and rewriting would lose it: the first such line (file, line) and the refusal. Nothing of those
   * logs is in `removed`.
   */
  refused: Problem[];
}

/**
 * Applies the retention limits of config.yaml to a project's turn logs.
 *
 * @example
 * const result = await pruneTurns({ store, project: 'acme', dryRun: true });
 * result.removed.map((t) => t.id); // → the oldest turns of completed features over the limits
 */
export async function pruneTurns(options: PruneOptions): Promise<PruneResult> {
  const { store, project } = options;
  const limits: RetentionLimits = { max_per_feature: store.config.turns.max_per_feature, max_per_project: store.config.turns.max_per_project };
  const index = options.turns ?? await ProjectTurns.load(store, project);
  const logs = await index.features();
  const features: FeatureTurns[] = logs.map((log) => {
    const { completed, count } = countTurns(log);
    return { feature: log.feature, completed, count, turns: completed ? turnsOf(log) : [] };
  });
  const plan = planRetention(project, features, limits);
  const refused: Problem[] = [];
  const untouched = new Set<string>();
  for (const log of logs) {
    const ids = new Set(plan.removed.filter((t) => t.feature === log.feature).map((t) => t.id));
    if (ids.size === 0) continue;
    try {
      // A line the index skipped is refused without reading the log; rewriteLog checks again under the lock.
      if (log.index.skipped.length > 0) throw rewriteRefusal(log.file, log.index.skipped);
      if (options.dryRun) continue;
      const validate = (value: unknown): string | undefined => turnLineProblem(value, log.feature);
      await rewriteLog<TurnState>(log.path, (lines) => lines.filter((l) => !ids.has(l.value.id)).map((l) => l.value), { displayPath: log.file, validate });
      await index.feature(log.feature);
    } catch (error) {
      if (!(error instanceof LoreError) || error.code !== 'INVALID_STORE') throw error;
      refused.push({ ...error.problems[0]!, message: error.message });
      untouched.add(log.feature);
    }
  }
  await index.save();
  const removed = plan.removed.filter((t) => !untouched.has(t.feature));
  const before = features.reduce((n, f) => n + countOf(f), 0);
  return {
    project,
    dryRun: options.dryRun === true,
    limits,
    before,
    after: before - removed.length,
    features: features.map((f) => ({ feature: f.feature, completed: f.completed, turns: countOf(f), removed: removed.filter((t) => t.feature === f.feature).length })),
    removed,
    warnings: plan.warnings,
    refused,
  };
}

// Turn retention: at most turns.max_per_feature turns per feature and turns.max_per_project per
// project. Over a limit, the oldest turns of completed features go first; turns of features in
// progress are never removed (a warning says so instead). Pruning rewrites each log atomically;
// git history keeps what was pruned.
import { rewriteLog } from '../log/ndjson.js';
import type { Store } from '../store/open.js';
import type { TurnState, TurnsConfig } from '../types.js';
import { listTurnFeatures, readTurnLog, turnLogPath } from './turn-log.js';

/** A feature's turns as retention sees them. */
export interface FeatureTurns {
  feature: string;
  completed: boolean;
  turns: readonly TurnState[];
}

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

const oldestFirst = (a: PrunedTurn, b: PrunedTurn): number => Date.parse(a.timestamp) - Date.parse(b.timestamp) || a.turn_number - b.turn_number || a.feature.localeCompare(b.feature);

const asPruned = (feature: string, t: TurnState): PrunedTurn => ({ feature, id: t.id, turn_number: t.turn_number, timestamp: t.timestamp });

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
  const kept: PrunedTurn[] = [];
  for (const f of features) {
    const turns = f.turns.map((t) => asPruned(f.feature, t)).sort(oldestFirst);
    const excess = turns.length - limits.max_per_feature;
    if (excess > 0 && !f.completed) {
      warnings.push(`feature ${f.feature} has ${turns.length} turns, over turns.max_per_feature (${limits.max_per_feature}), but it is in progress, so none were pruned`);
    }
    const cut = excess > 0 && f.completed ? excess : 0;
    removed.push(...turns.slice(0, cut));
    kept.push(...turns.slice(cut));
  }
  const over = kept.length - limits.max_per_project;
  if (over > 0) {
    const done = new Set(features.filter((f) => f.completed).map((f) => f.feature));
    const candidates = kept.filter((t) => done.has(t.feature)).sort(oldestFirst).slice(0, over);
    removed.push(...candidates);
    if (candidates.length < over) {
      warnings.push(`project ${project} keeps ${kept.length - candidates.length} turns, over turns.max_per_project (${limits.max_per_project}): the turns over the limit belong to features in progress, which are never pruned`);
    }
  }
  return { removed: removed.sort(oldestFirst), warnings };
}

export interface PruneOptions {
  store: Store;
  project: string;
  /** Report what would go, change nothing. */
  dryRun?: boolean;
}

export interface PruneResult extends RetentionPlan {
  project: string;
  dryRun: boolean;
  limits: RetentionLimits;
  /** Turns in the project before and after pruning. */
  before: number;
  after: number;
  features: Array<{ feature: string; completed: boolean; turns: number; removed: number }>;
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
  const logs = await Promise.all((await listTurnFeatures(store.root, project)).map((feature) => readTurnLog({ store, project, feature })));
  const features = logs.map((log) => ({ feature: log.feature, completed: log.completion !== undefined, turns: log.turns }));
  const plan = planRetention(project, features, limits);
  if (!options.dryRun) {
    for (const log of logs) {
      const ids = new Set(plan.removed.filter((t) => t.feature === log.feature).map((t) => t.id));
      if (ids.size === 0) continue;
      await rewriteLog(turnLogPath(store.root, project, log.feature), (lines) => lines.filter((l) => !ids.has(String(l.value.id))).map((l) => l.value));
    }
  }
  const before = features.reduce((n, f) => n + f.turns.length, 0);
  return {
    project,
    dryRun: options.dryRun === true,
    limits,
    before,
    after: before - plan.removed.length,
    features: features.map((f) => ({ feature: f.feature, completed: f.completed, turns: f.turns.length, removed: plan.removed.filter((t) => t.feature === f.feature).length })),
    ...plan,
  };
}

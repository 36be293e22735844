// Retention: with retention.prune_low_priority, low-priority entries older than max_age_days
// (by createdAt) and applied fewer than min_applications_to_keep times are deleted. Medium, high
// and critical entries and pending learnings are never touched.
import type { Problem } from '../errors.js';
import type { Store } from '../store/open.js';
import { writeStore, type StoreTransaction } from '../store/transaction.js';
import { removeRecord } from '../store/write.js';
import type { KnowledgeType, RetentionConfig } from '../types.js';
import { APPLIED_KINDS, loadOwnEntries } from './entries.js';
import { loadUsageStats, NO_USAGE, type UsageStats } from './stats.js';
import { byText } from '../text-order.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface PruneCandidate {
  id: string;
  type: KnowledgeType;
  file: string;
  createdAt: string;
  timesApplied: number;
}

export interface PruneResult {
  /** false when retention.prune_low_priority is false: nothing is ever pruned. */
  enabled: boolean;
  dryRun: boolean;
  /** The entries removed (or, in a dry run, that would be). */
  removed: PruneCandidate[];
  /** The rule applied, in words. */
  rule: string;
  problems: Problem[];
}

/** Whether an entry is due for pruning under the retention settings at `now`. */
export function isPrunable(entry: { priority: string; createdAt: string }, usage: UsageStats, retention: RetentionConfig, now: Date): boolean {
  return entry.priority === 'low' && Date.parse(entry.createdAt) < now.getTime() - retention.max_age_days * DAY_MS && usage.timesApplied < retention.min_applications_to_keep;
}

/**
 * Prunes (or, with dryRun, lists) low-priority entries that are old and rarely applied.
 *
 * @example
 * const { removed } = await pruneKnowledge({ store, dryRun: true }); // what `lore prune` would remove
 */
export async function pruneKnowledge(options: { store: Store; dryRun: boolean; now?: Date | undefined; onProgress?: (done: number, total: number, what: string) => void }): Promise<PruneResult> {
  const { store, dryRun } = options;
  const retention = store.config.retention;
  const rule = `priority low, created more than ${retention.max_age_days} days ago, applied fewer than ${retention.min_applications_to_keep} times`;
  if (!retention.prune_low_priority) return { enabled: false, dryRun, removed: [], rule, problems: [] };
  const now = options.now ?? new Date();
  const prune = async (tx: StoreTransaction | undefined): Promise<PruneResult> => {
    const progress = options.onProgress;
    const [loaded, usage] = await Promise.all([loadOwnEntries(store, APPLIED_KINDS, progress === undefined ? {} : { onProgress: (done, total) => progress(done, total, 'reading entries') }), loadUsageStats(store.root)]);
    const removed: PruneCandidate[] = [];
    for (const [k, record] of loaded.records.sort((a, b) => byText(a.id, b.id)).entries()) {
      progress?.(k + 1, loaded.records.length, 'checking entries');
      const stats = usage.stats.get(record.id) ?? NO_USAGE;
      if (!isPrunable(record.value, stats, retention, now)) continue;
      if (tx !== undefined) await removeRecord(tx, record.kind, record.id);
      removed.push({ id: record.id, type: record.value.type, file: record.file, createdAt: record.value.createdAt, timesApplied: stats.timesApplied });
    }
    return { enabled: true, dryRun, removed, rule, problems: [...loaded.problems, ...usage.problems] };
  };
  // Every due entry goes, or (after a crash) none does.
  return dryRun ? prune(undefined) : writeStore(store.root, 'lore prune', prune);
}

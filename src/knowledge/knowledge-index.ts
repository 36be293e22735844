// The knowledge index: entries with their statistics, a fixed-shape record per entry and BM25
// postings. Built once per set of entries; the CLI builds one per run, a long-lived process keeps
// one in its workspace (src/ops/knowledge/_knowledge.ts).
import type { Problem } from '../errors.js';
import type { Store } from '../store/open.js';
import type { KnowledgeType, MatchingConfig, Priority } from '../types.js';
import { priorityRank } from '../priority.js';
import { applicabilityOf, appliesEverywhere, type Applicability } from './applicable.js';
import { buildBm25, type Bm25Index } from './bm25.js';
import { bm25SnapshotKey, readBm25Snapshot, writeBm25Snapshot } from './bm25-snapshot.js';
import { APPLIED_KINDS, loadEntries, sourceOf } from './entries.js';
import { buildPlanIndex, type PlanIndex } from './plan-index.js';
import { loadUsageStats, withStats, type EntryWithStats } from './stats.js';

/** Multiplier by priority. */
export const PRIORITY_WEIGHT: Readonly<Record<Priority, number>> = { low: 1, medium: 1.2, high: 1.4, critical: 1.6 };

/** What ranking reads of each entry, in one fixed shape (see Applicability for why). */
export interface EntryMeta {
  id: string;
  type: KnowledgeType;
  rank: number;
  /** Priority weight × helpfulness: the multiplier of the entry's relevance. */
  weight: number;
  applicability: Applicability;
}

/**
 * What every query reads of every entry, as typed arrays (document i at i): a query over 10,000
 * entries reads these instead of 10,000 scattered objects (the objects cost a cache miss each).
 */
export interface EntryColumns {
  /** The position of the entry's type in APPLIED_KINDS. */
  type: Uint8Array;
  rank: Uint8Array;
  /** 1 when the entry applies in every context (appliesEverywhere): no need to read its applicability. */
  everywhere: Uint8Array;
}

/** Entries with their statistics and a BM25 index over them: build once, query many times. */
export interface KnowledgeIndex {
  entries: EntryWithStats[];
  meta: EntryMeta[];
  columns: EntryColumns;
  bm25: Bm25Index;
  /** Patterns, globs and prohibitions' keywords, each once, with the entries holding them. */
  plan: PlanIndex;
  matching: MatchingConfig;
  /** The content identity of the entry files, when loaded from a store: keys the snapshots. */
  identity?: string;
  /** The built-in word-vector embedding of each entry (dims per entry), filled on first semantic query. */
  vectors?: Float32Array;
}

/**
 * Builds the index of a set of entries (applied kinds only; pending entries never rank).
 *
 * @example
 * const index = buildKnowledgeIndex(entries, store.config.matching);
 * await queryKnowledge(index, { taskDescription: 'add retries' }, { root: store.root });
 */
export function buildKnowledgeIndex(entries: readonly EntryWithStats[], matching: MatchingConfig, bm25?: Bm25Index): KnowledgeIndex {
  const meta = entries.map((entry): EntryMeta => ({
    id: entry.id,
    type: entry.type,
    rank: priorityRank(entry.priority),
    weight: PRIORITY_WEIGHT[entry.priority] * helpfulness(entry),
    applicability: applicabilityOf(entry),
  }));
  const columns: EntryColumns = { type: new Uint8Array(meta.length), rank: new Uint8Array(meta.length), everywhere: new Uint8Array(meta.length) };
  meta.forEach((m, doc) => {
    columns.type[doc] = APPLIED_KINDS.indexOf(m.type);
    columns.rank[doc] = m.rank;
    columns.everywhere[doc] = appliesEverywhere(m.applicability) ? 1 : 0;
  });
  return { entries: [...entries], meta, columns, bm25: bm25 ?? buildBm25(entries, matching.keyword_boost), plan: buildPlanIndex(entries), matching };
}

/** Helpfulness multiplier from usage: 0.75 + 0.5 × (helpful + 1) / (applied + 2); 1 when never applied. */
export function helpfulness(entry: EntryWithStats): number {
  return 0.75 + (0.5 * (entry.timesHelpful + 1)) / (entry.timesApplied + 2);
}

/** An index and the problems met loading it (invalid files and log lines are left out). */
export interface LoadedIndex {
  index: KnowledgeIndex;
  problems: Problem[];
}

/** Loads the store's applied entries with their statistics and indexes them (BM25 from its snapshot when current). */
export async function loadKnowledgeIndex(store: Store): Promise<LoadedIndex> {
  const [loaded, usage] = await Promise.all([loadEntries(store, APPLIED_KINDS), loadUsageStats(store.root)]);
  const entries = loaded.records.map((record) => {
    const entry = withStats(record.value, usage.stats);
    const from = sourceOf(record);
    return from === undefined ? entry : { ...entry, from };
  });
  const key = bm25SnapshotKey(loaded.identity, store.config.matching.keyword_boost);
  const snapshot = readBm25Snapshot(store.root, key);
  const index = buildKnowledgeIndex(entries, store.config.matching, snapshot?.size === entries.length ? snapshot : undefined);
  if (index.bm25 !== snapshot) await writeBm25Snapshot(store.root, key, index.bm25);
  index.identity = loaded.identity;
  return { index, problems: [...loaded.problems, ...usage.problems] };
}


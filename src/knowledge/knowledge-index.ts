// The knowledge index: entries with their statistics, a fixed-shape record per entry and BM25
// postings. Built once per set of entries; the CLI builds one per run, a long-lived process keeps
// one in its workspace (src/ops/knowledge/_knowledge.ts).
import type { Problem } from '../errors.js';
import type { Store } from '../store/open.js';
import type { KnowledgeEntry, KnowledgeType, MatchingConfig, Priority } from '../types.js';
import { priorityRank } from '../priority.js';
import { applicabilityOf, applies, appliesEverywhere, type Applicability, type ApplyContext } from './applicable.js';
import { buildBm25, type Bm25Index } from './bm25.js';
import { bm25SnapshotKey, DamagedPostings, healing, readBm25Snapshot, writeBm25Snapshot } from './bm25-snapshot.js';
import { APPLIED_KINDS } from '../store/layout.js';
import { readIndexSnapshot, writeIndexSnapshot, type IndexSnapshot } from './index-snapshot.js';
import { buildPlanIndex, type PlanIndex } from './plan-index.js';
import { loadUsageStats, withStats, type EntryWithStats, type UsageStats } from './stats.js';
import type { VectorRows } from './vector-scan.js';

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
  /** EntryMeta.weight. */
  weight: Float64Array;
  /** 1 when the entry applies in every context (appliesEverywhere): no need to read its applicability. */
  everywhere: Uint8Array;
}

/** The entries of an index by document: an array, or a snapshot's, each parsed when first used. */
export interface EntryList {
  readonly length: number;
  at(doc: number): EntryWithStats | undefined;
}

/** Entries with their statistics and a BM25 index over them: build once, query many times. */
export interface KnowledgeIndex {
  entries: EntryList;
  meta: EntryMeta[];
  columns: EntryColumns;
  bm25: Bm25Index;
  /** Patterns, globs and prohibitions' keywords, each once, with the entries holding them. */
  plan: PlanIndex;
  matching: MatchingConfig;
  /** The content identity of the entry files, when loaded from a store: keys the snapshots. */
  identity?: string;
  /** The built-in word-vector embedding of each entry (row i: entry i), filled on first semantic query. */
  vectors?: VectorRows;
  /** The applying masks of the contexts asked about (applyingMask), each kept while its span of times holds. */
  applying?: Map<string, ApplyingMask>;
}

/** Which entries apply (1) in a context, and the span of times over which that holds. */
interface ApplyingMask {
  /** The mask holds for every time t with from <= t < until. */
  from: number;
  until: number;
  mask: Uint8Array;
  /** applyingDocs's lists, by minimum rank and wanted types. */
  lists: Map<string, readonly number[]>;
}

/**
 * Which of the index's entries apply in a context at a time (applies), as a mask by document.
 * Only an entry's validity window makes the answer move with time, so the mask is kept with the
 * span of times around `time` in which no window opens or closes: a long-lived process asking
 * again in the same context reads the mask instead of 10,000 applicability objects. Masks are
 * kept for a few contexts at a time (a daemon serving players and coaches asks for two).
 */
export function applyingMask(index: KnowledgeIndex, context: ApplyContext, time: number): Uint8Array {
  return applying(index, context, time).mask;
}

/**
 * The documents that apply in a context at a time, of rank at least `minRank` and of the types
 * `wanted` marks (by position in APPLIED_KINDS), in order; kept with the mask they come from.
 */
export function applyingDocs(index: KnowledgeIndex, context: ApplyContext, time: number, minRank: number, wanted: readonly boolean[]): readonly number[] {
  const { mask, lists } = applying(index, context, time);
  const key = `${minRank} ${wanted.map(Number).join('')}`;
  let docs = lists.get(key);
  if (docs === undefined) {
    const { rank, type } = index.columns;
    const found: number[] = [];
    for (let doc = 0; doc < mask.length; doc++) if (mask[doc] === 1 && rank[doc]! >= minRank && wanted[type[doc]!] === true) found.push(doc);
    lists.set(key, (docs = found));
  }
  return docs;
}

/** How many contexts' masks an index keeps before it starts over. */
const KEPT_CONTEXTS = 8;

function applying(index: KnowledgeIndex, context: ApplyContext, time: number): ApplyingMask {
  const masks = (index.applying ??= new Map());
  const key = JSON.stringify([context.projectId ?? null, context.agentType ?? null]);
  const kept = masks.get(key);
  if (kept !== undefined && kept.from <= time && time < kept.until) return kept;
  const { everywhere } = index.columns;
  const mask = new Uint8Array(everywhere.length);
  let from = -Infinity;
  let until = Infinity;
  // The verdict of an entry can change only at its window's first millisecond and just after its last.
  const edge = (at: number): void => {
    if (at <= time) from = Math.max(from, at);
    else until = Math.min(until, at);
  };
  for (let doc = 0; doc < mask.length; doc++) {
    if (everywhere[doc] === 1) {
      mask[doc] = 1;
      continue;
    }
    const applicability = index.meta[doc]!.applicability;
    if (applies(applicability, context, time)) mask[doc] = 1;
    if (applicability.from !== -Infinity) edge(applicability.from);
    if (applicability.until !== Infinity) edge(applicability.until + 1);
  }
  const made = { from, until, mask, lists: new Map() };
  // An invalid date's time (NaN) is on neither side of any edge: what applies then holds at no other time.
  if (Number.isNaN(time)) return made;
  if (masks.size >= KEPT_CONTEXTS) masks.clear();
  masks.set(key, made);
  return made;
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
  return { entries: [...entries], meta, columns: columnsOf(meta), bm25: bm25 ?? buildBm25(entries, matching.keyword_boost), plan: buildPlanIndex(entries), matching };
}

/** The typed columns of the entries' metadata. */
function columnsOf(meta: readonly EntryMeta[]): EntryColumns {
  const columns: EntryColumns = { type: new Uint8Array(meta.length), rank: new Uint8Array(meta.length), weight: new Float64Array(meta.length), everywhere: new Uint8Array(meta.length) };
  meta.forEach((m, doc) => {
    columns.type[doc] = APPLIED_KINDS.indexOf(m.type);
    columns.rank[doc] = m.rank;
    columns.weight[doc] = m.weight;
    columns.everywhere[doc] = appliesEverywhere(m.applicability) ? 1 : 0;
  });
  return columns;
}

/** Helpfulness multiplier from usage: 0.75 + 0.5 × (helpful + 1) / (applied + 2); 1 when never applied. */
export function helpfulness(entry: UsageStats): number {
  return 0.75 + (0.5 * (entry.timesHelpful + 1)) / (entry.timesApplied + 2);
}

/** An index and the problems met loading it (invalid files and log lines are left out). */
export interface LoadedIndex {
  index: KnowledgeIndex;
  problems: Problem[];
}

/** The entries of a snapshot with their statistics, each parsed when first used (and kept). */
class SnapshotEntries implements EntryList {
  readonly length: number;
  private readonly parsed: Array<EntryWithStats | undefined>;

  constructor(private readonly snapshot: IndexSnapshot, private readonly stats: ReadonlyMap<string, UsageStats>) {
    this.length = snapshot.ids.length;
    this.parsed = new Array<EntryWithStats | undefined>(this.length);
  }

  at(doc: number): EntryWithStats | undefined {
    if (!Number.isInteger(doc) || doc < 0 || doc >= this.length) return undefined;
    return (this.parsed[doc] ??= withStats(this.snapshot.entry(doc), this.stats));
  }
}

/** Every entry of a list, in order (for what reads them all: building BM25 or the entry vectors). */
export function allEntries(entries: EntryList): EntryWithStats[] {
  return Array.from({ length: entries.length }, (_, doc) => entries.at(doc)!);
}

/** The index of a snapshot: its tables as they are, the weights from the usage statistics, BM25 from its own snapshot when current. */
async function indexFromSnapshot(store: Store, snapshot: IndexSnapshot, stats: ReadonlyMap<string, UsageStats>): Promise<KnowledgeIndex> {
  const none: UsageStats = { timesApplied: 0, timesHelpful: 0 };
  const meta = snapshot.ids.map((id, doc): EntryMeta => {
    const priority = snapshot.priorities[doc]!;
    return { id, type: snapshot.types[doc]!, rank: priorityRank(priority), weight: PRIORITY_WEIGHT[priority] * helpfulness(stats.get(id) ?? none), applicability: snapshot.applicability[doc]! };
  });
  const entries = new SnapshotEntries(snapshot, stats);
  const bm25 = await storeBm25(store, snapshot.identity, entries.length, () => allEntries(entries));
  return { entries, meta, columns: columnsOf(meta), bm25, plan: snapshot.plan, matching: store.config.matching, identity: snapshot.identity };
}

/**
 * The BM25 index of a store's `size` entries of `identity`: the snapshot's when it was made for
 * them; otherwise built from `entries()`, taking from the snapshot what it holds of unchanged
 * entries, and saved for the next process.
 */
async function storeBm25(store: Store, identity: string, size: number, entries: () => readonly KnowledgeEntry[]): Promise<Bm25Index> {
  const boost = store.config.matching.keyword_boost;
  const key = bm25SnapshotKey(boost);
  const saved = readBm25Snapshot(store.root, key);
  if (saved !== undefined && saved.identity === identity && saved.index.size === size) {
    // Postings are read (and checked) when a query asks for them: damaged ones are built again, and saved.
    const rebuild = (): Bm25Index['postings'] => {
      const bm25 = buildBm25(entries(), boost);
      void writeBm25Snapshot(store.root, key, identity, bm25).catch(() => undefined);
      return bm25.postings;
    };
    return { ...saved.index, postings: healing(saved.index.postings, rebuild) };
  }
  let bm25: Bm25Index;
  try {
    bm25 = buildBm25(entries(), boost, saved?.index);
  } catch (error) {
    // A snapshot for other entries whose postings are damaged: nothing of it is taken.
    if (!(error instanceof DamagedPostings)) throw error;
    bm25 = buildBm25(entries(), boost);
  }
  await writeBm25Snapshot(store.root, key, identity, bm25);
  return bm25;
}

/**
 * Loads the store's applied entries with their statistics and indexes them: from the index
 * snapshot when it is current for the entry files (see index-snapshot.ts), else from the record
 * cache (BM25 from its snapshot when current), writing the snapshots for the next process.
 */
export async function loadKnowledgeIndex(store: Store): Promise<LoadedIndex> {
  const [{ snapshot, look }, usage] = await Promise.all([readIndexSnapshot(store), loadUsageStats(store.root)]);
  if (snapshot !== undefined) return { index: await indexFromSnapshot(store, snapshot, usage.stats), problems: [...snapshot.problems, ...usage.problems] };
  // Loaded only here: reading records brings in the parser and the validator.
  const { loadEntries, sourceOf } = await import('./entries.js');
  const loaded = await loadEntries(store, APPLIED_KINDS, look === undefined ? {} : { look });
  const entries = loaded.records.map((record) => {
    const entry = withStats(record.value, usage.stats);
    const from = sourceOf(record);
    return from === undefined ? entry : { ...entry, from };
  });
  const bm25 = await storeBm25(store, loaded.identity, entries.length, () => entries);
  const index = buildKnowledgeIndex(entries, store.config.matching, bm25);
  index.identity = loaded.identity;
  if (loaded.stamp !== undefined) await writeIndexSnapshot(store, loaded.stamp, loaded.records.map((record) => record.value), index.plan, loaded.identity, loaded.problems);
  return { index, problems: [...loaded.problems, ...usage.problems] };
}

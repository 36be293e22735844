// getRelevantKnowledge: the applicable entries ranked for a task. The README's "Ranking" section
// documents the formula implemented here; keep the two in step.
import type { Problem } from '../errors.js';
import type { Store } from '../store/open.js';
import type { KnowledgeType, MatchingConfig, Priority } from '../types.js';
import { terms } from './_text.js';
import { applicabilityOf, applies, priorityRank, type Applicability } from './applicable.js';
import { buildBm25, documentsWithAll, entryTerms, scoreBm25, type Bm25Index } from './bm25.js';
import { APPLIED_KINDS, loadEntries } from './entries.js';
import { normalisePath } from '../match/glob.js';
import { pathMatches } from './plan-match.js';
import { semanticScores, type SemanticStatus } from './semantic.js';
import { loadUsageStats, withStats, type EntryWithStats } from './stats.js';
import { buildSummary, DEFAULT_BUDGET } from './summary.js';

/** Weight of "a file of the task matches the entry's patterns or globs". */
export const FILE_WEIGHT = 3;
/** Weight of each technology of the task found in the entry. */
export const TECH_WEIGHT = 1;
/** Share of the semantic score in relevance when semantic matching is used. */
export const SEMANTIC_SHARE = 0.5;
/** Multiplier by priority. */
export const PRIORITY_WEIGHT: Readonly<Record<Priority, number>> = { low: 1, medium: 1.2, high: 1.4, critical: 1.6 };
export const DEFAULT_MAX_RESULTS = 10;

export interface KnowledgeQuery {
  taskDescription: string;
  taskType?: string | undefined;
  /** Default: the store's project (config.yaml). */
  projectId?: string | undefined;
  agentType?: string | undefined;
  filePaths?: readonly string[] | undefined;
  technologies?: readonly string[] | undefined;
  types?: readonly KnowledgeType[] | undefined;
  /** At most this many entries of each type (default 10). */
  maxResults?: number | undefined;
  minPriority?: Priority | undefined;
  /** Token budget of the summary (default 800). */
  budget?: number | undefined;
}

/** An entry selected for a task, with its statistics, score and why it was selected. */
export type RankedEntry = EntryWithStats & { score: number; reasons: string[] };

export interface KnowledgeResult {
  recommendations: RankedEntry[];
  prohibitions: RankedEntry[];
  learnings: RankedEntry[];
  summary: string;
  criticalWarnings: string[];
  semantic: SemanticStatus;
  /** How many entries applied (enabled, valid, in scope, of the wanted types and priority). */
  considered: number;
}

/** What ranking reads of each entry, in one fixed shape (see Applicability for why). */
interface EntryMeta {
  id: string;
  type: KnowledgeType;
  rank: number;
  /** Priority weight × helpfulness: the multiplier of the entry's relevance. */
  weight: number;
  /** Whether the entry has patterns or globs. */
  paths: boolean;
  applicability: Applicability;
}

/** Entries with their statistics and a BM25 index over them: build once, query many times. */
export interface KnowledgeIndex {
  entries: EntryWithStats[];
  meta: EntryMeta[];
  bm25: Bm25Index;
  matching: MatchingConfig;
}

/**
 * Builds the index of a set of entries (applied kinds only; pending entries never rank).
 *
 * @example
 * const index = buildKnowledgeIndex(entries, store.config.matching);
 * await queryKnowledge(index, { taskDescription: 'add retries' }, { root: store.root });
 */
export function buildKnowledgeIndex(entries: readonly EntryWithStats[], matching: MatchingConfig): KnowledgeIndex {
  const meta = entries.map((entry): EntryMeta => ({
    id: entry.id,
    type: entry.type,
    rank: priorityRank(entry.priority),
    weight: PRIORITY_WEIGHT[entry.priority] * helpfulness(entry),
    paths: entry.patterns !== undefined || entry.globs !== undefined,
    applicability: applicabilityOf(entry),
  }));
  return { entries: [...entries], meta, bm25: buildBm25(entries, matching.keyword_boost), matching };
}

/** Helpfulness multiplier from usage: 0.75 + 0.5 × (helpful + 1) / (applied + 2); 1 when never applied. */
export function helpfulness(entry: EntryWithStats): number {
  return 0.75 + (0.5 * (entry.timesHelpful + 1)) / (entry.timesApplied + 2);
}

/** What a query found about one applicable entry, before it is ranked. */
interface Signals {
  /** Terms of the query (stemmed). */
  queryTerms: string[];
  bm25: Float64Array;
  /** For each technology, the documents holding all its words. */
  techs: Array<{ tech: string; docs: Set<number> }>;
}

function querySignals(index: KnowledgeIndex, query: KnowledgeQuery): Signals {
  const queryTerms = terms(`${query.taskDescription} ${query.taskType ?? ''}`);
  const techs = (query.technologies ?? []).map((tech) => ({ tech, words: terms(tech) })).filter((t) => t.words.length > 0);
  return { queryTerms, bm25: scoreBm25(index.bm25, queryTerms), techs: techs.map((t) => ({ tech: t.tech, docs: documentsWithAll(index.bm25, t.words) })) };
}

/** The lexical score of one entry: BM25 + FILE_WEIGHT for a file match + TECH_WEIGHT per technology. */
function lexicalScore(index: KnowledgeIndex, signals: Signals, doc: number, filePaths: readonly string[]): number {
  const file = filePaths.length > 0 && index.meta[doc]!.paths && pathMatches(index.entries[doc]!, filePaths).length > 0;
  let techs = 0;
  for (const tech of signals.techs) if (tech.docs.has(doc)) techs++;
  return signals.bm25[doc]! + (file ? FILE_WEIGHT : 0) + TECH_WEIGHT * techs;
}

/** Why an entry was selected, in words (computed for selected entries only). */
function reasonsFor(index: KnowledgeIndex, signals: Signals, doc: number, filePaths: readonly string[], similarity: number): string[] {
  const entry = index.entries[doc]!;
  const own = entryTerms(entry, 1);
  const reasons: string[] = [];
  const hits = [...new Set(signals.queryTerms.filter((t) => own.has(t)))];
  if (hits.length > 0) reasons.push(`words: ${hits.join(', ')}`);
  const file = pathMatches(entry, filePaths)[0];
  if (file !== undefined) reasons.push(`file ${file.path} matches ${file.kind} ${file.pattern}`);
  const techs = signals.techs.filter((t) => t.docs.has(doc)).map((t) => t.tech);
  if (techs.length > 0) reasons.push(`technology: ${techs.join(', ')}`);
  if (similarity > 0) reasons.push(`semantic similarity ${round(similarity)}`);
  return reasons;
}

const round = (n: number): number => Math.round(n * 1e4) / 1e4;

/**
 * The best `max` of each type, by score then id. A bounded insertion per type instead of a full
 * sort: a query over 10,000 entries wants ten of each.
 */
function topPerType(index: KnowledgeIndex, applicable: readonly number[], scored: ReadonlyArray<{ k: number; score: number }>, max: number): Record<KnowledgeType, Array<{ k: number; score: number }>> {
  const top: Record<KnowledgeType, Array<{ k: number; score: number }>> = { recommendation: [], prohibition: [], learning: [] };
  const before = (a: { k: number; score: number }, b: { k: number; score: number }): boolean => a.score > b.score || (a.score === b.score && index.meta[applicable[a.k]!]!.id < index.meta[applicable[b.k]!]!.id);
  for (const item of scored) {
    const list = top[index.meta[applicable[item.k]!]!.type];
    if (list.length >= max && !before(item, list[list.length - 1]!)) continue;
    let at = list.length;
    while (at > 0 && before(item, list[at - 1]!)) at--;
    list.splice(at, 0, item);
    if (list.length > max) list.pop();
  }
  return top;
}

/** Ranks the applicable entries of an index for a query (see the README's "Ranking"). */
export async function queryKnowledge(index: KnowledgeIndex, query: KnowledgeQuery, options: { root: string; now?: Date | undefined; projectId?: string | undefined; env?: NodeJS.ProcessEnv | undefined }): Promise<KnowledgeResult> {
  const context = { projectId: query.projectId ?? options.projectId, agentType: query.agentType, now: options.now ?? new Date() };
  const time = context.now.getTime();
  const minRank = query.minPriority === undefined ? 0 : priorityRank(query.minPriority);
  const types = query.types === undefined || query.types.length === 0 ? undefined : query.types;
  const applicable: number[] = [];
  index.meta.forEach((meta, doc) => {
    if (meta.rank >= minRank && (types === undefined || types.includes(meta.type)) && applies(meta.applicability, context, time)) applicable.push(doc);
  });
  const filePaths = (query.filePaths ?? []).map(normalisePath);
  const signals = querySignals(index, query);
  const lexical = applicable.map((doc) => lexicalScore(index, signals, doc, filePaths));
  const maxLexical = lexical.reduce((max, value) => Math.max(max, value), 0);
  const semantic = await semanticScores({ root: options.root, matching: index.matching, entries: applicable.map((i) => index.entries[i]!), query: query.taskDescription, env: options.env });
  // Scores stay plain numbers until the winners are known; only they become result objects.
  const scored: Array<{ k: number; score: number }> = [];
  applicable.forEach((doc, k) => {
    const normalised = maxLexical > 0 ? lexical[k]! / maxLexical : 0;
    const relevance = semantic.scores === undefined ? normalised : (1 - SEMANTIC_SHARE) * normalised + SEMANTIC_SHARE * semantic.scores[k]!;
    if (relevance > 0) scored.push({ k, score: relevance * index.meta[doc]!.weight });
  });
  const max = query.maxResults ?? DEFAULT_MAX_RESULTS;
  const top = topPerType(index, applicable, scored, max);
  const picked = {} as Record<KnowledgeType, RankedEntry[]>;
  for (const type of ['recommendation', 'prohibition', 'learning'] as const) {
    picked[type] = top[type].map(({ k, score }) => ({ ...index.entries[applicable[k]!]!, score: round(score), reasons: reasonsFor(index, signals, applicable[k]!, filePaths, semantic.scores?.[k] ?? 0) }));
  }
  const pick = (type: KnowledgeType): RankedEntry[] => picked[type];
  const result = { recommendations: pick('recommendation'), prohibitions: pick('prohibition'), learnings: pick('learning') };
  const selected = [...result.prohibitions, ...result.recommendations, ...result.learnings];
  return {
    ...result,
    summary: buildSummary(selected.map((entry) => ({ entry, score: entry.score })), query.budget ?? DEFAULT_BUDGET),
    criticalWarnings: result.prohibitions.filter((e) => e.priority === 'critical').map((e) => `${e.title}: ${e.description}`),
    semantic: semantic.status,
    considered: applicable.length,
  };
}

/** Loads the store's applied entries with their statistics and indexes them. */
export async function loadKnowledgeIndex(store: Store): Promise<{ index: KnowledgeIndex; problems: Problem[] }> {
  const [loaded, usage] = await Promise.all([loadEntries(store, APPLIED_KINDS), loadUsageStats(store.root)]);
  const entries = loaded.records.map((record) => withStats(record.value, usage.stats));
  return { index: buildKnowledgeIndex(entries, store.config.matching), problems: [...loaded.problems, ...usage.problems] };
}

/**
 * The knowledge relevant to a task: applicable entries ranked by BM25, file and technology
 * matches, optional semantic similarity, priority and helpfulness, with a token-budgeted summary.
 *
 * @example
 * const result = await getRelevantKnowledge({ store, query: { taskDescription: 'add retries to the API client', technologies: ['typescript'] } });
 * result.summary; // '- LEARNED [medium] Rate limiting needs exponential backoff: ...'
 */
export async function getRelevantKnowledge(options: { store: Store; query: KnowledgeQuery; now?: Date | undefined; env?: NodeJS.ProcessEnv | undefined }): Promise<KnowledgeResult & { problems: Problem[] }> {
  const { index, problems } = await loadKnowledgeIndex(options.store);
  const result = await queryKnowledge(index, options.query, { root: options.store.root, now: options.now, projectId: options.store.config.project, env: options.env });
  return { ...result, problems };
}

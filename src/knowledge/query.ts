// getRelevantKnowledge: the applicable entries ranked for a task. The README's "Ranking" section
// documents the formula implemented here; keep the two in step.
import type { Problem } from '../errors.js';
import type { Store } from '../store/open.js';
import type { KnowledgeEntry, KnowledgeType, MatchingConfig, Priority } from '../types.js';
import { terms } from './_text.js';
import { isApplicable, priorityRank } from './applicable.js';
import { buildBm25, scoreBm25, type Bm25Index } from './bm25.js';
import { APPLIED_KINDS, loadEntries } from './entries.js';
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

/** Entries with their statistics and a BM25 index over them: build once, query many times. */
export interface KnowledgeIndex {
  entries: EntryWithStats[];
  bm25: Bm25Index;
  matching: MatchingConfig;
}

/** Builds the index of a set of entries (applied kinds only; pending entries never rank). */
export function buildKnowledgeIndex(entries: readonly EntryWithStats[], matching: MatchingConfig): KnowledgeIndex {
  return { entries: [...entries], bm25: buildBm25(entries, matching.keyword_boost), matching };
}

/** Helpfulness multiplier from usage: 0.75 + 0.5 × (helpful + 1) / (applied + 2); 1 when never applied. */
export function helpfulness(entry: EntryWithStats): number {
  return 0.75 + (0.5 * (entry.timesHelpful + 1)) / (entry.timesApplied + 2);
}

interface Candidate {
  index: number;
  lexical: number;
  reasons: string[];
}

function lexicalCandidates(index: KnowledgeIndex, query: KnowledgeQuery, candidates: readonly number[]): Candidate[] {
  const queryTerms = terms(`${query.taskDescription} ${query.taskType ?? ''}`);
  const bm25 = scoreBm25(index.bm25, queryTerms);
  const techTerms = (query.technologies ?? []).map((tech) => ({ tech, terms: terms(tech) })).filter((t) => t.terms.length > 0);
  return candidates.map((i) => {
    const entry = index.entries[i]!;
    const vocabulary = index.bm25.vocabulary[i]!;
    const reasons: string[] = [];
    const hits = [...new Set(queryTerms.filter((t) => vocabulary.has(t)))];
    if (hits.length > 0) reasons.push(`words: ${hits.join(', ')}`);
    const file = pathMatches(entry, query.filePaths ?? [])[0];
    if (file !== undefined) reasons.push(`file ${file.path} matches ${file.kind} ${file.pattern}`);
    const techs = techTerms.filter((t) => t.terms.every((term) => vocabulary.has(term))).map((t) => t.tech);
    if (techs.length > 0) reasons.push(`technology: ${techs.join(', ')}`);
    return { index: i, lexical: bm25[i]! + (file === undefined ? 0 : FILE_WEIGHT) + TECH_WEIGHT * techs.length, reasons };
  });
}

const round = (n: number): number => Math.round(n * 1e4) / 1e4;

/** Ranks the applicable entries of an index for a query (see the README's "Ranking"). */
export async function queryKnowledge(index: KnowledgeIndex, query: KnowledgeQuery, options: { root: string; now?: Date | undefined; projectId?: string | undefined; env?: NodeJS.ProcessEnv | undefined }): Promise<KnowledgeResult> {
  const context = { projectId: query.projectId ?? options.projectId, agentType: query.agentType, now: options.now ?? new Date() };
  const minRank = query.minPriority === undefined ? 0 : priorityRank(query.minPriority);
  const wanted = (entry: KnowledgeEntry): boolean => (query.types === undefined || query.types.length === 0 || query.types.includes(entry.type)) && priorityRank(entry.priority) >= minRank && isApplicable(entry, context);
  const applicable = index.entries.flatMap((entry, i) => (wanted(entry) ? [i] : []));
  const candidates = lexicalCandidates(index, query, applicable);
  const maxLexical = Math.max(0, ...candidates.map((c) => c.lexical));
  const semantic = await semanticScores({ root: options.root, matching: index.matching, entries: applicable.map((i) => index.entries[i]!), query: query.taskDescription, env: options.env });
  const ranked: RankedEntry[] = [];
  candidates.forEach((candidate, k) => {
    const lexical = maxLexical > 0 ? candidate.lexical / maxLexical : 0;
    const similarity = semantic.scores?.[k] ?? 0;
    const relevance = semantic.scores === undefined ? lexical : (1 - SEMANTIC_SHARE) * lexical + SEMANTIC_SHARE * similarity;
    if (relevance <= 0) return;
    const entry = index.entries[candidate.index]!;
    const reasons = similarity > 0 ? [...candidate.reasons, `semantic similarity ${round(similarity)}`] : candidate.reasons;
    ranked.push({ ...entry, score: relevance * PRIORITY_WEIGHT[entry.priority] * helpfulness(entry), reasons });
  });
  ranked.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  const max = query.maxResults ?? DEFAULT_MAX_RESULTS;
  const pick = (type: KnowledgeType): RankedEntry[] => ranked.filter((e) => e.type === type).slice(0, max).map((e) => ({ ...e, score: round(e.score) }));
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

// getRelevantKnowledge: the applicable entries ranked for a task. docs/guides/knowledge.md's "Ranking"
// documents the formula implemented here; keep the two in step.
import type { Problem } from '../errors.js';
import { normalisePath } from '../match/glob.js';
import type { Store } from '../store/open.js';
import type { KnowledgeType, Priority } from '../types.js';
import { distinctTerms, terms } from './_text.js';
import { priorityRank } from '../priority.js';
import { APPLIED_KINDS } from '../store/layout.js';
import { documentsWithAll, hasTerm, scoreBm25 } from './bm25.js';
import { applyingDocs, loadKnowledgeIndex, type KnowledgeIndex } from './knowledge-index.js';
import { docPathMatches, pathHits, type PathHits } from './plan-index.js';
import { semanticScores, type SemanticStatus } from './semantic.js';
import type { EntryWithStats } from './stats.js';
import { buildSummary, DEFAULT_BUDGET } from './summary.js';

/** Weight of "a file of the task matches the entry's patterns or globs". */
export const FILE_WEIGHT = 3;
/** Weight of each technology of the task found in the entry. */
export const TECH_WEIGHT = 1;
/** Share of the semantic score in relevance when semantic matching is used. */
export const SEMANTIC_SHARE = 0.5;
/**
 * The least normalised semantic score that counts: an entry counts by meaning only when its
 * similarity is at least this far from the floor to the query's best match, so a loosely related
 * entry does not fill the list (word vectors rank many entries a little above their floor).
 */
export const SEMANTIC_CUT = 0.6;
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

/** What a query found about one applicable entry, before it is ranked. */
interface Signals {
  /** The distinct terms of the query (stemmed) that the index holds, in order of appearance. */
  queryTerms: string[];
  /** The BM25 score of each document (lexicalScores then adds the file and technology weights into it). */
  bm25: Float64Array;
  /** The task's files against every entry's patterns and globs. */
  files: PathHits;
  /** For each technology, the documents holding all its words. */
  techs: Array<{ tech: string; docs: Set<number> }>;
}

function querySignals(index: KnowledgeIndex, query: KnowledgeQuery, filePaths: readonly string[]): Signals {
  // Only terms the index holds can score; streaming them keeps a huge description cheap.
  const queryTerms = distinctTerms(`${query.taskDescription} ${query.taskType ?? ''}`, (term) => index.bm25.postings.has(term));
  const techs = (query.technologies ?? []).map((tech) => ({ tech, words: terms(tech) })).filter((t) => t.words.length > 0);
  return { queryTerms, bm25: scoreBm25(index.bm25, queryTerms), files: pathHits(index.plan, filePaths), techs: techs.map((t) => ({ tech: t.tech, docs: documentsWithAll(index.bm25, t.words) })) };
}

/**
 * The lexical score of each applicable entry: BM25 + FILE_WEIGHT for a file match + TECH_WEIGHT
 * per technology, by document (added into the query's own BM25 array: only the few matched
 * documents are touched), and the highest of them over the applicable entries.
 */
function lexicalScores(signals: Signals, applicable: readonly number[], size: number): { lexical: Float64Array; max: number } {
  const lexical = signals.bm25;
  for (const doc of signals.files.docs) lexical[doc] = lexical[doc]! + FILE_WEIGHT;
  if (signals.techs.some((tech) => tech.docs.size > 0)) {
    const techs = new Uint32Array(size);
    const touched: number[] = [];
    for (const tech of signals.techs) for (const doc of tech.docs) if (techs[doc]!++ === 0) touched.push(doc);
    for (const doc of touched) lexical[doc] = lexical[doc]! + TECH_WEIGHT * techs[doc]!;
  }
  let max = 0;
  for (let k = 0; k < applicable.length; k++) {
    const score = lexical[applicable[k]!]!;
    if (score > max) max = score;
  }
  return { lexical, max };
}

/**
 * The share of an entry's meaning in its relevance: how far its similarity rises above the floor
 * against the best match's, when that is at least SEMANTIC_CUT; 0 otherwise.
 */
function meaningShare(similarity: number, floor: number, maxSemantic: number): number {
  const share = similarity > 0 && maxSemantic > 0 ? (similarity - floor) / maxSemantic : 0;
  return share >= SEMANTIC_CUT ? share : 0;
}

/**
 * The relevance of each applicable entry (by position in `applicable`) × its weight: plain numbers
 * until the winners are known, when only they become result objects. A function of its own, so
 * V8 optimises the loop apart from the async query around it.
 */
function relevanceScores(applicable: readonly number[], lexical: Float64Array, maxLexical: number, semantic: { similarities: Float64Array; floor: number; maxSemantic: number } | undefined, weight: Float64Array): Float64Array {
  const scores = new Float64Array(applicable.length);
  for (let k = 0; k < applicable.length; k++) {
    const doc = applicable[k]!;
    const normalised = maxLexical > 0 ? lexical[doc]! / maxLexical : 0;
    const relevance = semantic === undefined ? normalised : (1 - SEMANTIC_SHARE) * normalised + SEMANTIC_SHARE * meaningShare(semantic.similarities[k]!, semantic.floor, semantic.maxSemantic);
    scores[k] = relevance * weight[doc]!;
  }
  return scores;
}

/** How far the highest similarity rises above the floor (0 when none does). */
function highestRise(similarities: Float64Array, floor: number): number {
  let max = 0;
  for (let k = 0; k < similarities.length; k++) {
    const rise = similarities[k]! - floor;
    if (rise > max) max = rise;
  }
  return max;
}

/** Why an entry was selected, in words (computed for selected entries only). */
function reasonsFor(index: KnowledgeIndex, signals: Signals, doc: number, similarity: number): string[] {
  const reasons: string[] = [];
  const hits = [...new Set(signals.queryTerms)].filter((term) => hasTerm(index.bm25, term, doc));
  if (hits.length > 0) reasons.push(`words: ${hits.join(', ')}`);
  const file = docPathMatches(index.plan, signals.files, doc, 1).reasons[0];
  if (file !== undefined) reasons.push(`file ${file.path} matches ${file.kind} ${file.pattern}`);
  const techs = signals.techs.filter((t) => t.docs.has(doc)).map((t) => t.tech);
  if (techs.length > 0) reasons.push(`technology: ${techs.join(', ')}`);
  if (similarity > 0) reasons.push(`semantic similarity ${round(similarity)}`);
  return reasons;
}

const round = (n: number): number => Math.round(n * 1e4) / 1e4;

/** Up to this many of each type are found by bounded insertion; more, by one sort. */
const BOUNDED_INSERTION = 64;

/**
 * The best `max` of each type (positions into `applicable`), by score then id: a bounded
 * insertion per type over a typed array instead of sorting thousands of scored objects, or one
 * sort of a type's scored positions when more than BOUNDED_INSERTION are wanted.
 */
function topPerType(index: KnowledgeIndex, applicable: readonly number[], scores: Float64Array, max: number): Record<KnowledgeType, number[]> {
  // One list per type, by the type's position in APPLIED_KINDS.
  const lists: number[][] = APPLIED_KINDS.map(() => []);
  const before = (a: number, b: number): boolean => scores[a]! > scores[b]! || (scores[a] === scores[b] && index.meta[applicable[a]!]!.id < index.meta[applicable[b]!]!.id);
  if (max > BOUNDED_INSERTION) {
    // Many wanted (a query's maxResults, a check's caps): every scored entry sorted once, not
    // inserted one by one into a list that long. A stable sort in the same order gives the same lists.
    for (let k = 0; k < scores.length; k++) if (scores[k]! > 0) lists[index.columns.type[applicable[k]!]!]!.push(k);
    const order = (a: number, b: number): number => (before(a, b) ? -1 : before(b, a) ? 1 : 0);
    return Object.fromEntries(APPLIED_KINDS.map((type, i) => [type, lists[i]!.sort(order).slice(0, max)])) as Record<KnowledgeType, number[]>;
  }
  // The score of each full list's last entry: most entries score below it and are passed over on one comparison.
  const least = new Float64Array(APPLIED_KINDS.length).fill(-Infinity);
  for (let k = 0; k < scores.length; k++) {
    const score = scores[k]!;
    if (score <= 0) continue;
    const type = index.columns.type[applicable[k]!]!;
    if (score < least[type]!) continue;
    const list = lists[type]!;
    if (list.length >= max && !before(k, list[list.length - 1]!)) continue;
    let at = list.length;
    while (at > 0 && before(k, list[at - 1]!)) at--;
    list.splice(at, 0, k);
    if (list.length > max) list.pop();
    if (list.length >= max) least[type] = scores[list[list.length - 1]!]!;
  }
  return Object.fromEntries(APPLIED_KINDS.map((type, i) => [type, lists[i]!])) as Record<KnowledgeType, number[]>;
}

/** Ranks the applicable entries of an index for a query (see docs/guides/knowledge.md, "Ranking"). */
export async function queryKnowledge(index: KnowledgeIndex, query: KnowledgeQuery, options: { root: string; now?: Date | undefined; projectId?: string | undefined; env?: NodeJS.ProcessEnv | undefined }): Promise<KnowledgeResult> {
  const context = { projectId: query.projectId ?? options.projectId, agentType: query.agentType, now: options.now ?? new Date() };
  const time = context.now.getTime();
  const minRank = query.minPriority === undefined ? 0 : priorityRank(query.minPriority);
  const types = query.types === undefined || query.types.length === 0 ? undefined : query.types;
  const wanted = APPLIED_KINDS.map((type) => types === undefined || types.includes(type));
  const { meta: metas, columns } = index;
  const applicable = applyingDocs(index, context, time, minRank, wanted);
  const filePaths = (query.filePaths ?? []).map(normalisePath);
  const signals = querySignals(index, query, filePaths);
  const { lexical, max: maxLexical } = lexicalScores(signals, applicable, metas.length);
  const semantic = await semanticScores({ root: options.root, index, docs: applicable, query: query.taskDescription, env: options.env });
  // Both halves are normalised to the query's best match: lexical by the highest lexical score,
  // semantic by how far the most similar entry rises above the floor.
  const { scores: similarities, floor } = semantic;
  const maxSemantic = similarities === undefined ? 0 : highestRise(similarities, floor);
  const meaningOf = (similarity: number): number => meaningShare(similarity, floor, maxSemantic);
  const scores = relevanceScores(applicable, lexical, maxLexical, similarities === undefined ? undefined : { similarities, floor, maxSemantic }, columns.weight);
  const top = topPerType(index, applicable, scores, query.maxResults ?? DEFAULT_MAX_RESULTS);
  const pick = (type: KnowledgeType): RankedEntry[] => top[type].map((k) => {
    // The similarity is a reason only when the entry's meaning counted.
    const similarity = similarities === undefined ? 0 : similarities[k]!;
    return {
      ...index.entries.at(applicable[k]!)!,
      score: round(scores[k]!),
      reasons: reasonsFor(index, signals, applicable[k]!, meaningOf(similarity) > 0 ? similarity : 0),
    };
  });
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

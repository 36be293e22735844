// checkBeforeTask: a plan against the knowledge base. Prohibitions that match the plan's file
// paths or approach text block (critical, when block_on_critical) or warn; recommendations and
// learnings are the most relevant ones, capped by config.
import { LoreError, type Problem } from '../errors.js';
import { KINDS, KNOWLEDGE_DIR } from '../store/layout.js';
import type { Store } from '../store/open.js';
import type { DevelopmentPlan, PreTaskCheckConfig, TaskContext } from '../types.js';
import { normalisePath } from '../match/glob.js';
import { priorityRank } from '../priority.js';
import { pathHits } from './plan-index.js';
import { keywordHits, planMatches, type MatchReason } from './plan-match.js';
import { applyingMask, loadKnowledgeIndex, type KnowledgeIndex, type LoadedIndex } from './knowledge-index.js';
import { queryKnowledge, type RankedEntry } from './query.js';
import type { SemanticStatus } from './semantic.js';
import type { EntryWithStats } from './stats.js';
import { buildSummary, type SummaryItem } from './summary.js';

/** A prohibition the plan matched, with the reasons. */
export interface ProhibitionMatch {
  knowledge: EntryWithStats;
  /** The first reason, in words ("File config/.env matches prohibited glob **\/.env"). */
  matchReason: string;
  /** Every reason: each path (at most MAX_LISTED_PATHS) and the pattern or glob it matched, each keyword. */
  matches: MatchReason[];
  /** Paths that matched beyond those listed in `matches`; present only when some are left out. */
  unlistedPaths?: number;
}

export interface ScoredKnowledge {
  knowledge: RankedEntry;
  score: number;
}

export interface KnowledgeCheckResult {
  /** false when pre_task_check.enabled is false: the check passed without looking. */
  enabled: boolean;
  canProceed: boolean;
  blockers: ProhibitionMatch[];
  warnings: ProhibitionMatch[];
  recommendations: ScoredKnowledge[];
  learnings: ScoredKnowledge[];
  summary: string;
  semantic?: SemanticStatus;
  /** What the check looked at. */
  checked: { prohibitions: number; files: number };
}

export interface CheckOptions {
  task: TaskContext;
  plan: DevelopmentPlan;
  /** Default: the store's project. */
  projectId?: string | undefined;
  now?: Date | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  budget?: number | undefined;
}

/** The result when pre_task_check.enabled is false: a pass that says so. */
function disabledResult(): KnowledgeCheckResult {
  const summary = 'The pre-task check is disabled (pre_task_check.enabled is false in .knowledge/config.yaml).';
  return { enabled: false, canProceed: true, blockers: [], warnings: [], recommendations: [], learnings: [], summary, checked: { prohibitions: 0, files: 0 } };
}

/** The check on an already built index (the daemon and benchmarks keep one). */
export async function checkPlanWithIndex(index: KnowledgeIndex, config: PreTaskCheckConfig, options: CheckOptions & { root: string }): Promise<KnowledgeCheckResult> {
  const { task, plan } = options;
  if (!config.enabled) return disabledResult();
  const context = { projectId: task.projectId ?? options.projectId, agentType: task.agentType, now: options.now ?? new Date() };
  // Every applicable prohibition is checked, not only the best ranked: a match must never be missed.
  // Only those a matched pattern, glob or keyword points to are visited, by priority then id.
  const time = context.now.getTime();
  const paths = plan.fileChanges.map((change) => normalisePath(change.path));
  const files = pathHits(index.plan, paths);
  const keywords = keywordHits(index.plan, plan.approach);
  // The documents a path or keyword points to, marked; then the prohibitions in the order listed.
  const pointed = new Uint8Array(index.entries.length);
  for (const doc of files.docs) pointed[doc] = 1;
  for (const doc of keywords.docs) pointed[doc] = 1;
  const applying = applyingMask(index, context, time);
  const blockers: ProhibitionMatch[] = [];
  const warnings: ProhibitionMatch[] = [];
  let prohibitions = 0;
  for (const doc of index.plan.prohibitions) {
    if (applying[doc] !== 1) continue;
    prohibitions++;
    if (pointed[doc] !== 1) continue;
    const entry = index.entries.at(doc)!;
    const { reasons: matches, unlistedPaths } = planMatches(index.plan, entry, doc, files, keywords);
    if (matches.length === 0) continue;
    const match: ProhibitionMatch = { knowledge: entry, matchReason: matches[0]!.reason, matches };
    if (unlistedPaths > 0) match.unlistedPaths = unlistedPaths;
    (entry.priority === 'critical' && config.block_on_critical ? blockers : warnings).push(match);
  }
  const related = await queryKnowledge(index, {
    taskDescription: `${task.description}\n${plan.approach}`,
    taskType: task.type,
    projectId: context.projectId,
    agentType: task.agentType,
    filePaths: plan.fileChanges.map((change) => change.path),
    technologies: plan.technologies,
    types: ['recommendation', 'learning'],
    // Only as many as are kept: each entry ranked becomes an object with its reasons.
    maxResults: Math.max(config.max_recommendations, config.max_learnings),
  }, { root: options.root, now: context.now, env: options.env });
  const scored = (entries: RankedEntry[], cap: number): ScoredKnowledge[] => entries.slice(0, cap).map((knowledge) => ({ knowledge, score: knowledge.score }));
  const recommendations = scored(related.recommendations, config.max_recommendations);
  const learnings = scored(related.learnings, config.max_learnings);
  // Matched prohibitions come before anything merely relevant in the summary.
  const summaryItems: SummaryItem[] = [];
  for (const list of [blockers, warnings]) for (const m of list) summaryItems.push({ entry: m.knowledge, score: 1e9 + priorityRank(m.knowledge.priority) });
  for (const list of [recommendations, learnings]) for (const s of list) summaryItems.push({ entry: s.knowledge, score: s.score });
  return {
    enabled: true,
    canProceed: blockers.length === 0,
    blockers,
    warnings,
    recommendations,
    learnings,
    summary: buildSummary(summaryItems, options.budget),
    semantic: related.semantic,
    checked: { prohibitions, files: plan.fileChanges.length },
  };
}

/**
 * The check with the index from `load`, called only when the check is enabled (a long-lived
 * process passes the index it keeps). Fails closed when a prohibition could not be read.
 */
export async function checkPlanLoaded(store: Store, load: () => Promise<LoadedIndex>, options: CheckOptions): Promise<KnowledgeCheckResult & { problems: Problem[] }> {
  if (!store.config.pre_task_check.enabled) return { ...disabledResult(), problems: [] };
  const { index, problems } = await load();
  // A prohibition that cannot be read could be the one the plan breaks: fail closed, as the commit guard does.
  const prohibitions = `${KNOWLEDGE_DIR}/${KINDS.prohibition.dir}/`;
  const unreadable = problems.filter((p) => p.severity === 'error' && p.file.replace(/\\/g, '/').startsWith(prohibitions));
  if (unreadable.length > 0) {
    throw new LoreError('INVALID_STORE', 'the plan check cannot run: a prohibition it checks against is invalid', { problems: unreadable, hint: 'fix the files (lore validate)' });
  }
  const result = await checkPlanWithIndex(index, store.config.pre_task_check, { ...options, root: store.root, projectId: options.projectId ?? store.config.project });
  return { ...result, problems };
}

/**
 * Checks a plan before a task starts: blockers (critical prohibitions matched by path or keyword,
 * when block_on_critical), warnings (other matches), capped recommendations and learnings, a
 * summary, and canProceed.
 *
 * @example
 * const result = await checkBeforeTask({ store, task: { description: 'add config' }, plan: { approach: 'write a .env file', fileChanges: [{ path: '.env' }] } });
 * result.canProceed; // false when a critical prohibition such as pro-never-commit-env-files matched
 */
export async function checkBeforeTask(options: CheckOptions & { store: Store }): Promise<KnowledgeCheckResult & { problems: Problem[] }> {
  return checkPlanLoaded(options.store, () => loadKnowledgeIndex(options.store), options);
}

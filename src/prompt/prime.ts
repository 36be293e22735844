// What an agent must know at the start of a session, within a token budget: the critical and high
// prohibitions that apply (critical ones never cut), the role's constraints, the most useful
// recommendations and learnings (first those for the paths it will work on), and how many
// learnings wait for review. Deterministic: the same store gives the same bytes, so agents may
// cache it.
import { isApplicable } from '../knowledge/applicable.js';
import { priorityRank } from '../priority.js';
import { APPLIED_KINDS, loadEntries, sourceOf } from '../knowledge/entries.js';
import { loadUsageStats, NO_USAGE, type UsageStats } from '../knowledge/stats.js';
import { compileGlob } from '../match/glob.js';
import { compileRegex } from '../match/regex.js';
import type { Store } from '../store/open.js';
import { estimateTokens } from '../tokens.js';
import type { KnowledgeEntry, PathConstraint } from '../types.js';
import { byText } from '../text-order.js';

/** The default budget of a prime, in tokens. */
export const DEFAULT_PRIME_BUDGET = 1500;

export interface PrimeOptions {
  store: Store;
  /** The agent's role (player, coach): its constraints, and entries for that agent type. */
  role?: string | undefined;
  /** The project (default: config.yaml's). */
  project?: string | undefined;
  /** Paths (or globs) the session will work on: entries whose patterns or globs match them come first. */
  paths?: readonly string[] | undefined;
  /** Tokens (default 1,500). Critical prohibitions are never cut, even past it. */
  budget?: number | undefined;
  now?: Date | undefined;
}

export interface Prime {
  /** The markdown an agent reads. */
  text: string;
  tokens: number;
  budget: number;
  project: string | null;
  role: string | null;
  /** The ids in the text, by section. */
  included: { critical: string[]; high: string[]; recommendations: string[]; learnings: string[] };
  /** How many the budget left out, by section (never a critical prohibition). */
  omitted: { high: number; recommendations: number; learnings: number };
  /** Captured learnings waiting for review. */
  pending: number;
}

/** Whether an entry's patterns or globs match one of the paths. */
function touches(entry: KnowledgeEntry, paths: readonly string[]): boolean {
  if (paths.length === 0) return false;
  const tests = [
    ...(entry.globs ?? []).map((glob) => (path: string) => compileGlob(glob).test(path)),
    ...(entry.patterns ?? []).map((pattern) => (path: string) => compileRegex(pattern).test(path)),
  ];
  return paths.some((path) => tests.some((test) => test(path)));
}

const oneLine = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
};

/** The extends source each entry came from (entries of the store itself have none). */
const SOURCES = new WeakMap<KnowledgeEntry, string>();

/** One entry as a line; `whole` keeps its description and paths uncut (critical prohibitions). */
function entryLine(entry: KnowledgeEntry, whole = false): string {
  const where = [...(entry.globs ?? []), ...(entry.patterns ?? [])];
  const shown = whole ? where : where.slice(0, 4);
  const paths = where.length === 0 ? '' : ` (paths: ${shown.join(', ')}${shown.length < where.length ? ', …' : ''})`;
  const from = SOURCES.get(entry);
  return `- **${entry.id}** ${oneLine(entry.title, whole ? Infinity : 120)}: ${oneLine(entry.description, whole ? Infinity : 240)}${paths}${from === undefined ? '' : ` (from ${from})`}`;
}

function constraintText(item: string | PathConstraint): string {
  return typeof item === 'string' ? item : `${item.text} (paths: ${item.paths.join(', ')})`;
}

/**
 * The session prime of a store.
 *
 * @example
 * const prime = await buildPrime({ store, role: 'player', paths: ['src/api/'] });
 * prime.text; // → '# lore: what to know before you act (project shop)\n\n## Never (critical prohibitions)\n- **pro-never-commit-env-files** ...'
 */
export async function buildPrime(options: PrimeOptions): Promise<Prime> {
  const { store } = options;
  const budget = options.budget ?? DEFAULT_PRIME_BUDGET;
  const project = options.project ?? store.config.project;
  const now = options.now ?? new Date();
  const paths = options.paths ?? [];
  const [loaded, pending, usage] = await Promise.all([loadEntries(store, APPLIED_KINDS), loadEntries(store, ['pending']), loadUsageStats(store.root)]);
  for (const r of loaded.records) {
    const from = sourceOf(r);
    if (from !== undefined) SOURCES.set(r.value, from);
  }
  const applicable = loaded.records.map((r) => r.value).filter((e) => isApplicable(e, { now, projectId: project, agentType: options.role }));
  const stats = (e: KnowledgeEntry): UsageStats => usage.stats.get(e.id) ?? NO_USAGE;
  // For the paths first, then riskier, then more often helpful, then by id: the same store gives the same order.
  const byRelevance = (a: KnowledgeEntry, b: KnowledgeEntry): number =>
    Number(touches(b, paths)) - Number(touches(a, paths)) || priorityRank(b.priority) - priorityRank(a.priority) ||
    stats(b).timesHelpful - stats(a).timesHelpful || byText(a.id, b.id);
  const of = (type: KnowledgeEntry['type'], filter: (e: KnowledgeEntry) => boolean = () => true): KnowledgeEntry[] => applicable.filter((e) => e.type === type && filter(e)).sort(byRelevance);
  const critical = of('prohibition', (e) => e.priority === 'critical');
  const high = of('prohibition', (e) => e.priority === 'high');
  const recommendations = of('recommendation');
  const learnings = of('learning');

  const lines = [`# lore: what to know before you act${project === undefined ? '' : ` (project ${project})`}`];
  lines.push('', '## Never (critical prohibitions: a commit that breaks one is blocked)');
  if (critical.length === 0) lines.push('- none');
  for (const entry of critical) lines.push(entryLine(entry, true));

  let role: string | null = null;
  if (options.role !== undefined) {
    const { resolveRoleConstraints } = await import('../entities/roles.js');
    const resolved = await resolveRoleConstraints({ store, role: options.role, project });
    role = resolved.role;
    const c = resolved.constraints;
    lines.push('', `## Your role: ${resolved.role}`);
    const lists: Array<[string, ReadonlyArray<string | PathConstraint>]> = [['Must do', c.must_do], ['Must not do', c.must_not_do], ['Ask before', c.ask_before], ['Escalate when', c.escalate_when]];
    for (const [label, list] of lists) if (list.length > 0) lines.push(`${label}: ${list.map(constraintText).join('; ')}.`);
  }

  // The rest fills the budget, section by section; a section cut short says how many it left out.
  const omitted = { high: 0, recommendations: 0, learnings: 0 };
  const included = { critical: critical.map((e) => e.id), high: [] as string[], recommendations: [] as string[], learnings: [] as string[] };
  const fits = (extra: readonly string[]): boolean => estimateTokens([...lines, ...extra].join('\n')) <= budget;
  const fill = (key: 'high' | 'recommendations' | 'learnings', heading: string, entries: readonly KnowledgeEntry[], more: string): void => {
    const section = ['', heading];
    let shown = 0;
    // An entry is shown when it fits with, should entries remain after it, the line that counts them.
    while (shown < entries.length) {
      const left = entries.length - shown - 1;
      if (!fits([...section, entryLine(entries[shown]!), ...(left > 0 ? [`- … ${left} more: ${more}`] : [])])) break;
      section.push(entryLine(entries[shown]!));
      shown++;
    }
    included[key] = entries.slice(0, shown).map((e) => e.id);
    omitted[key] = entries.length - shown;
    if (shown === 0) return;
    if (omitted[key] > 0) section.push(`- … ${omitted[key]} more: ${more}`);
    lines.push(...section);
  };
  fill('high', '## Avoid (high prohibitions)', high, 'lore list prohibitions --priority high');
  fill('recommendations', '## Recommended', recommendations, 'lore query "<your task>" --type recommendation');
  fill('learnings', '## Learned', learnings, 'lore query "<your task>" --type learning');
  // A section left out whole is still named, when a line about it fits.
  const unseen = (['high', 'recommendations', 'learnings'] as const).filter((key) => included[key].length === 0 && omitted[key] > 0);
  if (unseen.length > 0) {
    const words = { high: 'high prohibitions', recommendations: 'recommendations', learnings: 'learnings' };
    const line = `\nLeft out for the budget: ${unseen.map((key) => `${omitted[key]} ${words[key]}`).join(', ')} (lore query "<your task>").`;
    if (fits([line])) lines.push(line);
  }
  const waiting = pending.records.length;
  if (waiting > 0) {
    const line = `\n${waiting} captured learning${waiting === 1 ? '' : 's'} wait${waiting === 1 ? 's' : ''} for review (lore pending).`;
    if (fits([line])) lines.push(line);
  }
  const text = `${lines.join('\n')}\n`;
  return { text, tokens: estimateTokens(text), budget, project: project ?? null, role, included, omitted, pending: waiting };
}

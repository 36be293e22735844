// What an index prepares for matching plans and file paths: each distinct pattern or glob once,
// with the entries using it, and every prohibition's keywords in one scanner with the prohibitions
// holding each. A call tests each distinct rule once per path and then visits only the entries a
// matched rule or a found keyword points to, never every prohibition.
import { lazyGlobTest } from '../match/glob.js';
import { compileRegex } from '../match/regex.js';
import type { KnowledgeEntry } from '../types.js';
import { priorityRank } from '../priority.js';
import { byText } from '../text-order.js';

/** One reason an entry matched. */
export interface MatchReason {
  kind: 'pattern' | 'glob' | 'keyword';
  /** The file path that matched (pattern and glob matches). */
  path?: string;
  /** The pattern or glob that matched. */
  pattern?: string;
  keyword?: string;
  /** The reason in words, as the prompt prints it. */
  reason: string;
}

/** Tests a pattern or glob, treating one that cannot compile (an invalid file) as no match. */
export function pathTester(kind: 'pattern' | 'glob', source: string): (path: string) => boolean {
  try {
    if (kind === 'pattern') {
      const regex = compileRegex(source);
      return (path) => regex.test(path);
    }
    return lazyGlobTest(source);
  } catch {
    return () => false;
  }
}

interface PathRule {
  kind: 'pattern' | 'glob';
  source: string;
  /** Compiled on first use: a query without file paths compiles nothing. */
  test?: (path: string) => boolean;
  /** The documents using the rule, in order. */
  docs: number[];
}

/** Built once per index (buildPlanIndex); read by every query and plan check on it. */
export interface PlanIndex {
  rules: PathRule[];
  /** For each document, its rules: patterns first, then globs, in the entry's order. */
  docRules: ReadonlyArray<readonly number[]>;
  /** The documents of prohibitions by priority, highest first, then id (then document): the order a plan check lists matches in. */
  prohibitions: number[];
  /** The prohibitions holding each keyword. */
  keywordDocs: Map<string, number[]>;
  /** The keyword scanner of every prohibition (plan-match.ts keywordHits builds it on first use). */
  scan?: (text: string) => Set<string>;
  /** The position of each keyword in keywordDocs (made on first use). */
  keywordIds?: Map<string, number>;
  /** For each prohibition a plan check has read, the positions of its keywords in its order (filled as they are read). */
  docKeywords?: Array<Int32Array | undefined>;
  /** The last call's hits: a plan check tests its paths once for its prohibitions and again for the related entries. */
  last?: PathHits;
}

/** Which rules matched which of a call's paths. */
export interface PathHits {
  paths: readonly string[];
  /** For each rule, the positions of the paths it matches; absent when it matches none. */
  byRule: Map<number, Uint8Array>;
  /** The documents with at least one rule that matched a path. */
  docs: Set<number>;
}

/** Prepares the tables of a list of entries (document i is entries[i]). */
export function buildPlanIndex(entries: readonly KnowledgeEntry[]): PlanIndex {
  const rules: PathRule[] = [];
  const ruleOf = new Map<string, number>();
  const keywordDocs = new Map<string, number[]>();
  const prohibitions: number[] = [];
  const docRules = entries.map((entry, doc) => {
    if (entry.type === 'prohibition') {
      prohibitions.push(doc);
      for (const keyword of new Set(entry.keywords)) keywordDocs.get(keyword)?.push(doc) ?? keywordDocs.set(keyword, [doc]);
    }
    const own: number[] = [];
    const add = (kind: PathRule['kind'], source: string): void => {
      const key = `${kind}\0${source}`;
      let rule = ruleOf.get(key);
      if (rule === undefined) ruleOf.set(key, (rule = rules.push({ kind, source, docs: [] }) - 1));
      if (own.includes(rule)) return; // a repeated source matches first where it first appears
      own.push(rule);
      rules[rule]!.docs.push(doc);
    };
    for (const source of entry.patterns ?? []) add('pattern', source);
    for (const source of entry.globs ?? []) add('glob', source);
    return own;
  });
  // Sorted once here, so a check lists what a plan matches (a plan can match a thousand) without sorting it.
  const rank = (doc: number): number => priorityRank(entries[doc]!.priority);
  const id = (doc: number): string => entries[doc]!.id;
  prohibitions.sort((a, b) => rank(b) - rank(a) || byText(id(a), id(b)) || a - b);
  return { rules, docRules, prohibitions, keywordDocs };
}

/** Tests each distinct rule once against each path. */
export function pathHits(index: PlanIndex, paths: readonly string[]): PathHits {
  const { last } = index;
  if (last !== undefined && last.paths.length === paths.length && last.paths.every((path, i) => path === paths[i])) return last;
  return (index.last = testPaths(index, paths));
}

function testPaths(index: PlanIndex, paths: readonly string[]): PathHits {
  const byRule = new Map<number, Uint8Array>();
  const docs = new Set<number>();
  if (paths.length === 0) return { paths, byRule, docs };
  index.rules.forEach((rule, r) => {
    const test = (rule.test ??= pathTester(rule.kind, rule.source));
    let hits: Uint8Array | undefined;
    for (let i = 0; i < paths.length; i++) if (test(paths[i]!)) (hits ??= new Uint8Array(paths.length))[i] = 1;
    if (hits === undefined) return;
    byRule.set(r, hits);
    for (const doc of rule.docs) docs.add(doc);
  });
  return { paths, byRule, docs };
}

/**
 * pathMatches of one document from the call's hits: for each path, the document's first rule that
 * matches it; the first `limit` as reasons, and how many paths matched in all.
 */
export function docPathMatches(index: PlanIndex, hits: PathHits, doc: number, limit = Number.POSITIVE_INFINITY): { reasons: MatchReason[]; total: number } {
  const reasons: MatchReason[] = [];
  let total = 0;
  if (!hits.docs.has(doc)) return { reasons, total };
  // The hits of the document's rules that matched some path, in the document's order (usually one or two).
  const own: Array<{ rule: PathRule; hits: Uint8Array }> = [];
  for (const r of index.docRules[doc]!) {
    const ruleHits = hits.byRule.get(r);
    if (ruleHits !== undefined) own.push({ rule: index.rules[r]!, hits: ruleHits });
  }
  for (let i = 0; i < hits.paths.length; i++) {
    let first: PathRule | undefined;
    for (let o = 0; o < own.length && first === undefined; o++) if (own[o]!.hits[i] === 1) first = own[o]!.rule;
    if (first === undefined) continue;
    if (++total > limit) continue;
    const { kind, source } = first;
    const path = hits.paths[i]!;
    reasons.push({ kind, path, pattern: source, reason: `File ${path} matches prohibited ${kind} ${source}` });
  }
  return { reasons, total };
}

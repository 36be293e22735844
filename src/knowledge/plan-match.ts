// Why a prohibition matches a plan: a file-change path matched by one of its patterns (RE2,
// linear time) or globs, or one of its keywords in the approach text as whole words.
import { compileGlob, normalisePath } from '../match/glob.js';
import { compileRegex } from '../match/regex.js';
import type { DevelopmentPlan, KnowledgeEntry } from '../types.js';
import { containsKeyword, words } from './_text.js';

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
function tester(kind: 'pattern' | 'glob', source: string): (path: string) => boolean {
  try {
    if (kind === 'pattern') {
      const regex = compileRegex(source);
      return (path) => regex.test(path);
    }
    return compileGlob(source).test;
  } catch {
    return () => false;
  }
}

/** For each path (normalised: forward slashes, no leading ./), the first of the entry's patterns, then globs, that matches it. */
export function pathMatches(entry: KnowledgeEntry, paths: readonly string[]): MatchReason[] {
  if (entry.patterns === undefined && entry.globs === undefined) return [];
  const rules = [
    ...(entry.patterns ?? []).map((source) => ({ kind: 'pattern' as const, source, test: tester('pattern', source) })),
    ...(entry.globs ?? []).map((source) => ({ kind: 'glob' as const, source, test: tester('glob', source) })),
  ];
  const reasons: MatchReason[] = [];
  for (const path of paths) {
    const rule = rules.find((r) => r.test(path));
    if (rule !== undefined) reasons.push({ kind: rule.kind, path, pattern: rule.source, reason: `File ${path} matches prohibited ${rule.kind} ${rule.source}` });
  }
  return reasons;
}

/** A text's words, as a list (for phrases) and a set (for single words): built once per plan. */
export interface TextWords {
  list: readonly string[];
  set: ReadonlySet<string>;
}

/** The words of a text for keyword matching. */
export function textWords(text: string): TextWords {
  const list = words(text);
  return { list, set: new Set(list) };
}

/** The entry's keywords that occur in the text as whole words (case-insensitive). */
export function keywordMatches(entry: KnowledgeEntry, text: TextWords): MatchReason[] {
  const reasons: MatchReason[] = [];
  for (const keyword of entry.keywords) {
    // One plain word is a set lookup; phrases and prefixes need the word sequence.
    const single = /^[\p{L}\p{N}]+$/u.test(keyword) ? keyword.toLowerCase() : undefined;
    if (single !== undefined ? text.set.has(single) : containsKeyword(text.list, keyword)) {
      reasons.push({ kind: 'keyword', keyword, reason: `Plan mentions prohibited keyword: ${keyword}` });
    }
  }
  return reasons;
}

/**
 * Every reason a prohibition matches a plan: paths first, then keywords in the approach. Callers
 * checking many entries against one plan pass the approach's words, computed once.
 *
 * @example
 * matchPlan(prohibition, { approach: 'commit the .env file', fileChanges: [{ path: '.env' }] });
 * // → [{ kind: 'glob', path: '.env', pattern: '**\/.env', reason: 'File .env matches prohibited glob **\/.env' }, { kind: 'keyword', ... }]
 */
export function matchPlan(entry: KnowledgeEntry, plan: DevelopmentPlan, approach: TextWords = textWords(plan.approach), paths: readonly string[] = plan.fileChanges.map((change) => normalisePath(change.path))): MatchReason[] {
  return [...pathMatches(entry, paths), ...keywordMatches(entry, approach)];
}

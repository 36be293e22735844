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

/** For each path, the first of the entry's patterns, then globs, that matches it. */
export function pathMatches(entry: KnowledgeEntry, paths: readonly string[]): MatchReason[] {
  const rules = [
    ...(entry.patterns ?? []).map((source) => ({ kind: 'pattern' as const, source, test: tester('pattern', source) })),
    ...(entry.globs ?? []).map((source) => ({ kind: 'glob' as const, source, test: tester('glob', source) })),
  ];
  if (rules.length === 0) return [];
  const reasons: MatchReason[] = [];
  for (const raw of paths) {
    const path = normalisePath(raw);
    const rule = rules.find((r) => r.test(path));
    if (rule !== undefined) reasons.push({ kind: rule.kind, path, pattern: rule.source, reason: `File ${path} matches prohibited ${rule.kind} ${rule.source}` });
  }
  return reasons;
}

/** The entry's keywords that occur in the text as whole words (case-insensitive). */
export function keywordMatches(entry: KnowledgeEntry, textWords: readonly string[]): MatchReason[] {
  return entry.keywords
    .filter((keyword) => containsKeyword(textWords, keyword))
    .map((keyword) => ({ kind: 'keyword' as const, keyword, reason: `Plan mentions prohibited keyword: ${keyword}` }));
}

/**
 * Every reason a prohibition matches a plan: paths first, then keywords in the approach.
 *
 * @example
 * matchPlan(prohibition, { approach: 'commit the .env file', fileChanges: [{ path: '.env' }] });
 * // → [{ kind: 'glob', path: '.env', pattern: '**\/.env', reason: 'File .env matches prohibited glob **\/.env' }, { kind: 'keyword', ... }]
 */
export function matchPlan(entry: KnowledgeEntry, plan: DevelopmentPlan, approachWords: readonly string[] = words(plan.approach)): MatchReason[] {
  return [...pathMatches(entry, plan.fileChanges.map((change) => change.path)), ...keywordMatches(entry, approachWords)];
}

// Why a prohibition matches a plan: a file-change path matched by one of its patterns (RE2,
// linear time) or globs, or one of its keywords in the approach text as whole words.
import { compileGlob, normalisePath } from '../match/glob.js';
import { compileRegex } from '../match/regex.js';
import type { DevelopmentPlan, KnowledgeEntry } from '../types.js';
import { forEachWord, words } from './_text.js';

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

/** At most this many matched paths are listed per prohibition; the rest are counted (a plan can name 100,000 files). */
export const MAX_LISTED_PATHS = 100;

/**
 * For each path (normalised: forward slashes, no leading ./), the first of the entry's patterns,
 * then globs, that matches it: the first `limit` as reasons, and how many paths matched in all.
 */
export function pathMatches(entry: KnowledgeEntry, paths: readonly string[], limit = Number.POSITIVE_INFINITY): { reasons: MatchReason[]; total: number } {
  const reasons: MatchReason[] = [];
  let total = 0;
  const matchOf = pathMatcher(entry);
  if (matchOf !== undefined) {
    for (const path of paths) {
      const reason = matchOf(path);
      if (reason !== undefined && ++total <= limit) reasons.push(reason);
    }
  }
  return { reasons, total };
}

/** The first path that matches the entry's patterns or globs, looking no further. */
export function firstPathMatch(entry: KnowledgeEntry, paths: readonly string[]): MatchReason | undefined {
  const matchOf = pathMatcher(entry);
  if (matchOf !== undefined) {
    for (const path of paths) {
      const reason = matchOf(path);
      if (reason !== undefined) return reason;
    }
  }
  return undefined;
}

/** The reason a path matches the entry's first matching pattern, then glob; undefined for an entry without any. */
function pathMatcher(entry: KnowledgeEntry): ((path: string) => MatchReason | undefined) | undefined {
  if (entry.patterns === undefined && entry.globs === undefined) return undefined;
  const rules = [
    ...(entry.patterns ?? []).map((source) => ({ kind: 'pattern' as const, source, test: tester('pattern', source) })),
    ...(entry.globs ?? []).map((source) => ({ kind: 'glob' as const, source, test: tester('glob', source) })),
  ];
  return (path) => {
    const rule = rules.find((r) => r.test(path));
    return rule === undefined ? undefined : { kind: rule.kind, path, pattern: rule.source, reason: `File ${path} matches prohibited ${rule.kind} ${rule.source}` };
  };
}

interface Phrase {
  keyword: string;
  /** The keyword's words; the last one is a prefix when the keyword ends in `*`. */
  words: string[];
  prefix: boolean;
}

function phraseOf(keyword: string): Phrase | undefined {
  const prefix = keyword.trimEnd().endsWith('*');
  const wanted = words(prefix ? keyword.trimEnd().slice(0, -1) : keyword);
  return wanted.length === 0 ? undefined : { keyword, words: wanted, prefix };
}

const wordMatches = (phrase: Phrase, j: number, word: string): boolean => (j === phrase.words.length - 1 && phrase.prefix ? word.startsWith(phrase.words[j]!) : word === phrase.words[j]);

/**
 * The keywords that occur in a text as whole words, case-insensitively: "env" matches ".env file"
 * but not "environment"; a keyword ending in `*` matches as a prefix ("env*" matches
 * "environment"); a keyword of several words matches them in sequence ("rate limit"). One pass
 * over the text's words, holding only the keywords and the phrases under way: memory is bounded
 * by the keywords, never by the text. Check many entries against one plan by passing all their
 * keywords at once.
 */
export function keywordsIn(text: string, keywords: Iterable<string>): Set<string> {
  const found = new Set<string>();
  const byFirst = new Map<string, Phrase[]>();
  // One-word prefixes ("env*"): looked up by the word's first n characters, for each length n in use.
  const byPrefix = new Map<number, Map<string, Phrase[]>>();
  let wanted = 0;
  for (const keyword of new Set(keywords)) {
    const phrase = phraseOf(keyword);
    if (phrase === undefined) continue;
    wanted++;
    const first = phrase.words[0]!;
    const table = phrase.words.length === 1 && phrase.prefix ? byPrefix.get(first.length) ?? byPrefix.set(first.length, new Map()).get(first.length)! : byFirst;
    table.set(first, [...(table.get(first) ?? []), phrase]);
  }
  if (wanted === 0) return found;
  let pending: Array<{ phrase: Phrase; next: number }> = [];
  const complete = (phrase: Phrase): void => void found.add(phrase.keyword);
  forEachWord(text, (word) => {
    const still: typeof pending = [];
    for (const p of pending) {
      if (found.has(p.phrase.keyword) || !wordMatches(p.phrase, p.next, word)) continue;
      if (p.next + 1 === p.phrase.words.length) complete(p.phrase);
      else still.push({ phrase: p.phrase, next: p.next + 1 });
    }
    pending = still;
    for (const phrase of byFirst.get(word) ?? []) {
      if (found.has(phrase.keyword)) continue;
      if (phrase.words.length === 1) complete(phrase);
      else pending.push({ phrase, next: 1 });
    }
    for (const [length, table] of byPrefix) {
      if (word.length >= length) for (const phrase of table.get(word.slice(0, length)) ?? []) complete(phrase);
    }
    return found.size < wanted;
  });
  return found;
}

/** The entry's keywords found in the text, given the keywords found there (keywordsIn). */
export function keywordMatches(entry: KnowledgeEntry, found: ReadonlySet<string>): MatchReason[] {
  return entry.keywords.filter((keyword) => found.has(keyword)).map((keyword) => ({ kind: 'keyword' as const, keyword, reason: `Plan mentions prohibited keyword: ${keyword}` }));
}

/**
 * Every reason a prohibition matches a plan: paths first (at most MAX_LISTED_PATHS of them), then
 * keywords in the approach.
 *
 * @example
 * matchPlan(prohibition, { approach: 'commit the .env file', fileChanges: [{ path: '.env' }] });
 * // → [{ kind: 'glob', path: '.env', pattern: '**\/.env', reason: 'File .env matches prohibited glob **\/.env' }, { kind: 'keyword', ... }]
 */
export function matchPlan(entry: KnowledgeEntry, plan: DevelopmentPlan): MatchReason[] {
  return planMatches(entry, keywordsIn(plan.approach, entry.keywords), plan.fileChanges.map((change) => normalisePath(change.path))).reasons;
}

/**
 * matchPlan for callers checking many entries against one plan: they pass the keywords found in
 * the approach (keywordsIn with every entry's keywords, computed once) and the normalised paths,
 * and learn how many matched paths were left unlisted.
 */
export function planMatches(entry: KnowledgeEntry, found: ReadonlySet<string>, paths: readonly string[]): { reasons: MatchReason[]; unlistedPaths: number } {
  const byPath = pathMatches(entry, paths, MAX_LISTED_PATHS);
  return { reasons: [...byPath.reasons, ...keywordMatches(entry, found)], unlistedPaths: byPath.total - byPath.reasons.length };
}

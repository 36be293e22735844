// Why a prohibition matches a plan: a file-change path matched by one of its patterns (RE2,
// linear time) or globs, or one of its keywords in the approach text as whole words.
import { normalisePath } from '../match/glob.js';
import type { DevelopmentPlan, KnowledgeEntry } from '../types.js';
import { forEachWord, words } from './_text.js';
import { buildPlanIndex, docPathMatches, pathHits, type MatchReason, type PathHits, type PlanIndex } from './plan-index.js';

export type { MatchReason } from './plan-index.js';

/** At most this many matched paths are listed per prohibition; the rest are counted (a plan can name 100,000 files). */
export const MAX_LISTED_PATHS = 100;

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
  return keywordScanner(keywords)(text);
}

/** keywordsIn with the keywords' tables built once: the scanner is called per text (an index keeps one). */
export function keywordScanner(keywords: Iterable<string>): (text: string) => Set<string> {
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
  return (text) => {
    const found = new Set<string>();
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
  };
}

const keywordReason = (keyword: string): MatchReason => ({ kind: 'keyword', keyword, reason: `Plan mentions prohibited keyword: ${keyword}` });

/** The entry's keywords found in the text, given the keywords found there (keywordsIn). */
export function keywordMatches(entry: KnowledgeEntry, found: ReadonlySet<string>): MatchReason[] {
  return entry.keywords.filter((keyword) => found.has(keyword)).map(keywordReason);
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
  const index = buildPlanIndex([entry]);
  const hits = pathHits(index, plan.fileChanges.map((change) => normalisePath(change.path)));
  return [...docPathMatches(index, hits, 0, MAX_LISTED_PATHS).reasons, ...keywordMatches(entry, keywordsIn(plan.approach, entry.keywords))];
}

/** The keywords of the index's prohibitions found in a text and the prohibitions (documents) holding one (keywordHits). */
export interface KeywordHits {
  /** The reason of each keyword found: made once, though a thousand prohibitions may list it. */
  reasons: MatchReason[];
  /** For each keyword of the index (by its position in keywordDocs), 1 + the position of its reason, or 0 when not found. */
  found: Int32Array;
  docs: Set<number>;
}

/**
 * matchPlan for callers checking many prohibitions against one plan: they pass the prohibition's
 * document in a plan index, the paths' hits (pathHits) and the keywords' (keywordHits), each
 * computed once per plan, and learn how many matched paths were left unlisted.
 */
export function planMatches(index: PlanIndex, entry: KnowledgeEntry, doc: number, hits: PathHits, keywords: KeywordHits): { reasons: MatchReason[]; unlistedPaths: number } {
  const { reasons, total } = docPathMatches(index, hits, doc, MAX_LISTED_PATHS);
  const unlistedPaths = total - reasons.length;
  if (keywords.reasons.length > 0) {
    const { found } = keywords;
    const ids = docKeywordIds(index, entry, doc);
    for (let i = 0; i < ids.length; i++) {
      const at = found[ids[i]!]!;
      if (at > 0) reasons.push(keywords.reasons[at - 1]!);
    }
  }
  return { reasons, unlistedPaths };
}

function keywordIdsOf(index: PlanIndex): Map<string, number> {
  return (index.keywordIds ??= new Map(Array.from(index.keywordDocs.keys(), (keyword, id) => [keyword, id])));
}

/** The positions of a prohibition's keywords in keywordDocs, in its order: numbers compared per plan, not strings. */
function docKeywordIds(index: PlanIndex, entry: KnowledgeEntry, doc: number): Int32Array {
  const kept = (index.docKeywords ??= new Array<Int32Array | undefined>(index.docRules.length));
  let ids = kept[doc];
  if (ids === undefined) {
    const all = keywordIdsOf(index);
    kept[doc] = ids = Int32Array.from(entry.keywords, (keyword) => all.get(keyword) ?? -1);
  }
  return ids;
}

/** The keywords of the index's prohibitions found in the text, with their reasons, and the prohibitions holding one. */
export function keywordHits(index: PlanIndex, text: string): KeywordHits {
  index.scan ??= keywordScanner(index.keywordDocs.keys());
  const ids = keywordIdsOf(index);
  const found = new Int32Array(ids.size);
  const reasons: MatchReason[] = [];
  const docs = new Set<number>();
  for (const keyword of index.scan(text)) {
    found[ids.get(keyword)!] = reasons.push(keywordReason(keyword));
    for (const doc of index.keywordDocs.get(keyword) ?? []) docs.add(doc);
  }
  return { reasons, found, docs };
}

// Text helpers shared by ranking, plan matching and duplicate detection: words (listed, or
// streamed for large texts) and a light English stemmer. No regular expressions built from file content.

const WORD = /[\p{L}\p{N}]+/gu;

/** Words too common to say anything about relevance or similarity, including the verbs most task descriptions open with. */
const STOP_WORDS = new Set(
  [
    'a an the and or but of to in on at by for from with as is are be been was were it its this that these those into than then so if',
    'do does can could should would will may must we you i our your they them their there here what which who how when also',
    'add adds added use uses used make makes new get set',
  ].join(' ').split(' '),
);

/** Whether a lower-case word is a stop word. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** The lower-case words of a text, in order: letters and digits, everything else separates. */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/**
 * Calls `visit` with each lower-case word of a text in order, as words() would list them, without
 * building the list: memory stays flat however long the text (a plan's approach can be megabytes).
 * Stops early when `visit` returns false.
 */
export function forEachWord(text: string, visit: (word: string) => boolean | void): void {
  const lower = text.toLowerCase();
  const word = new RegExp(WORD.source, WORD.flags);
  for (let match = word.exec(lower); match !== null; match = word.exec(lower)) {
    if (visit(match[0]) === false) return;
  }
}

const VOWEL = /[aeiouy]/;
const stems = new Map<string, string>();

function stemUncached(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  for (const suffix of ['ing', 'ed']) {
    const base = w.slice(0, -suffix.length);
    if (w.endsWith(suffix) && base.length >= 3 && VOWEL.test(base)) {
      // committed → committ → commit; but "fall" and "pass" keep their double letter.
      w = /([^aeiouylsz])\1$/.test(base) ? base.slice(0, -1) : base;
      break;
    }
  }
  // cache / caching → cach: a trailing e is dropped so both forms meet.
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** A light English stemmer: plurals, -ing, -ed and a final -e ("commits", "committed" → "commit"). */
export function stem(word: string): string {
  let out = stems.get(word);
  if (out === undefined) {
    out = stemUncached(word);
    if (stems.size < 200_000) stems.set(word, out);
  }
  return out;
}

/** The stemmed words of a text without stop words: the terms ranking and similarity work on. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) if (!STOP_WORDS.has(word)) out.push(stem(word));
  return out;
}

/**
 * The distinct terms of a text that `keep` accepts, in order of first appearance, streamed: a
 * query scored against an index needs only the terms the index holds, so memory is bounded by
 * the index, not by the text.
 */
export function distinctTerms(text: string, keep: (term: string) => boolean = () => true): string[] {
  const seen = new Set<string>();
  forEachWord(text, (word) => {
    if (STOP_WORDS.has(word)) return;
    const term = stem(word);
    if (!seen.has(term) && keep(term)) seen.add(term);
  });
  return [...seen];
}

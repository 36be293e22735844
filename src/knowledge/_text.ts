// Text helpers shared by ranking, plan matching and duplicate detection: words, a light English
// stemmer and whole-word phrase matching. No regular expressions built from file content.

const WORD = /[\p{L}\p{N}]+/gu;

/** Words too common to say anything about relevance or similarity, including the verbs most task descriptions open with. */
const STOP_WORDS = new Set(
  [
    'a an the and or but of to in on at by for from with as is are be been was were it its this that these those into than then so if',
    'do does can could should would will may must we you i our your they them their there here what which who how when also',
    'add adds added use uses used make makes new get set',
  ].join(' ').split(' '),
);

/** The lower-case words of a text, in order: letters and digits, everything else separates. */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
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
 * Whether a keyword occurs in a text as whole words, case-insensitively: "env" matches ".env file"
 * but not "environment". A keyword ending in `*` matches as a prefix ("env*" matches
 * "environment"). A keyword of several words matches them in sequence ("rate limit").
 */
export function containsKeyword(textWords: readonly string[], keyword: string): boolean {
  const prefix = keyword.trimEnd().endsWith('*');
  const wanted = words(prefix ? keyword.trimEnd().slice(0, -1) : keyword);
  if (wanted.length === 0) return false;
  const last = wanted.length - 1;
  for (let i = 0; i + last < textWords.length; i++) {
    let all = true;
    for (let j = 0; j <= last && all; j++) {
      const word = textWords[i + j]!;
      all = j === last && prefix ? word.startsWith(wanted[j]!) : word === wanted[j];
    }
    if (all) return true;
  }
  return false;
}

// The longest literal text a regular expression cannot match without, used as a prefilter: a
// line that lacks it cannot match, so the regex is not run on it. A wrong literal hides matches,
// so this follows RE2's own parser (Go's regexp/syntax, which re2js ports) token by token, and is
// conservative wherever it is unsure: a token it does not understand ends the current run of
// literal characters, and groups, classes and anything optional contribute none.

export interface RequiredLiteral {
  text: string;
  /** The pattern is case-insensitive there: compare lower-cased. Such literals are ASCII only. */
  ignoreCase: boolean;
}

const MIN_LENGTH = 3;
/** Repetitions as RE2 reads them: `{n}`, `{n,}`, `{n,m}`, numbers without leading zeros; anything else is literal text. */
const REPEAT = /\{(0|[1-9][0-9]*)(,(0|[1-9][0-9]*)?)?\}/y;
const CONTROL: Record<string, string> = { a: '\x07', f: '\f', t: '\t', n: '\n', r: '\r', v: '\v' };

/**
 * One token of a pattern: a literal character (one code point), something else that consumes
 * text or asserts (a class, `.`, `\d`, `^`), a group's start or end, `|`, flags set part-way,
 * or a repetition with its minimum count.
 */
type Token =
  | { kind: 'char'; text: string }
  | { kind: 'other' | 'open' | 'close' | 'alt' }
  | { kind: 'flags'; ignoreCase?: boolean }
  | { kind: 'repeat'; min: number; max: number };

/**
 * Index just past the character class that starts at `start`, read as RE2 reads one: `]` first is
 * literal; `[:name:]` and the class escapes (`\d`, `\pN`, `\p{Greek}`) are items of their own where
 * an item starts, and no range starts at one; the upper end of a range is one character or
 * escape (`[!-[:]` is `!` to `[`, then `:`).
 */
function classEnd(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === '^') i++;
  for (let first = true; i < source.length; first = false) {
    const c = source[i];
    if (c === ']' && !first) return i + 1;
    if (c === '[' && source[i + 1] === ':') {
      const close = source.indexOf(':]', i + 2);
      if (close !== -1) {
        i = close + 2;
        continue;
      }
    }
    const e = c === '\\' ? source[i + 1] : undefined;
    if (e === 'p' || e === 'P') {
      i = source[i + 2] === '{' ? source.indexOf('}', i + 2) + 1 || source.length : i + 2 + (source.codePointAt(i + 2)! > 0xffff ? 2 : 1);
      continue;
    }
    if (e !== undefined && 'dDsSwW'.includes(e)) {
      i += 2;
      continue;
    }
    i = classCharEnd(source, i);
    if (source[i] === '-' && i + 1 < source.length && source[i + 1] !== ']') i = classCharEnd(source, i + 1);
  }
  return source.length;
}

/** Index just past the one character (a code point) or escape (`\x41`, `\101`, `\x{1F600}`) of a class at `i`. */
function classCharEnd(source: string, i: number): number {
  return source[i] === '\\' ? escape(source, i).end : i + (source.codePointAt(i)! > 0xffff ? 2 : 1);
}

/** A code point as a literal character, or undefined when it cannot be one (a lone surrogate, out of range). */
function codePoint(code: number): string | undefined {
  return Number.isInteger(code) && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : undefined;
}

/** The tokens of an RE2 pattern, in order; `\Q...\E` yields its characters one by one, as RE2 does. */
function* tokens(source: string): Generator<Token> {
  let i = 0;
  const char = (text: string | undefined, end: number): Token => {
    i = end;
    return text === undefined ? { kind: 'other' } : { kind: 'char', text };
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\' && source[i + 1] === 'Q') {
      // Quoted text is literal up to the first \E (or the end); a repetition after it binds to its last character.
      const close = source.indexOf('\\E', i + 2);
      const quoted = source.slice(i + 2, close === -1 ? source.length : close);
      for (const q of quoted) yield codePoint(q.codePointAt(0)!) === undefined ? { kind: 'other' } : { kind: 'char', text: q };
      i = close === -1 ? source.length : close + 2;
      continue;
    }
    if (c === '\\') {
      const { text, end } = escape(source, i);
      yield char(text, end);
    } else if (c === '[') {
      i = classEnd(source, i);
      yield { kind: 'other' };
    } else if (c === '(') {
      const flags = /\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?\)/y;
      flags.lastIndex = i;
      const set = flags.exec(source);
      if (set !== null) {
        i += set[0].length;
        const on = set[1]!.includes('i');
        const off = (set[2] ?? '').includes('i');
        yield on || off ? { kind: 'flags', ignoreCase: on && !off } : { kind: 'flags' };
      } else {
        i++;
        yield { kind: 'open' };
      }
    } else if (c === ')') {
      i++;
      yield { kind: 'close' };
    } else if (c === '|') {
      i++;
      yield { kind: 'alt' };
    } else if (c === '*' || c === '+' || c === '?' || c === '{') {
      let min = c === '+' ? 1 : 0;
      let max = c === '?' ? 1 : Infinity;
      let end = i + 1;
      if (c === '{') {
        REPEAT.lastIndex = i;
        const repeat = REPEAT.exec(source);
        if (repeat === null) {
          // Not a repetition: RE2 reads the brace as itself.
          yield char('{', i + 1);
          continue;
        }
        min = Number(repeat[1]);
        max = repeat[2] === undefined ? min : repeat[3] === undefined ? Infinity : Number(repeat[3]);
        end = i + repeat[0].length;
      }
      // A '?' after a repetition makes it lazy; it is not another repetition.
      i = source[end] === '?' ? end + 1 : end;
      yield { kind: 'repeat', min, max };
    } else if (c === '.' || c === '^' || c === '$') {
      i++;
      yield { kind: 'other' };
    } else {
      const point = source.codePointAt(i)!;
      yield char(codePoint(point), i + (point > 0xffff ? 2 : 1));
    }
  }
}

/** The escape at `at` (outside a class) and where it ends: with its character when it stands for one. */
function escape(source: string, at: number): { text: string | undefined; end: number } {
  const token = (text: string | undefined, end: number): { text: string | undefined; end: number } => ({ text, end });
  const e = source[at + 1] ?? '';
  if (e === 'x') {
    if (source[at + 2] === '{') {
      const end = source.indexOf('}', at) + 1 || source.length;
      const hex = source.slice(at + 3, end - 1);
      return token(/^[0-9A-Fa-f]{1,8}$/.test(hex) ? codePoint(parseInt(hex, 16)) : undefined, end);
    }
    const hex = source.slice(at + 2, at + 4);
    return /^[0-9A-Fa-f]{2}$/.test(hex) ? token(codePoint(parseInt(hex, 16)), at + 4) : token(undefined, at + 2);
  }
  if (/[0-7]/.test(e)) {
    // \0 takes up to two more octal digits; \1-\7 must be followed by one (else RE2 refuses a back-reference).
    const octal = /\\(0[0-7]{0,2}|[1-7][0-7]{1,2})/y;
    octal.lastIndex = at;
    const m = octal.exec(source);
    return m === null ? token(undefined, at + 2) : token(codePoint(parseInt(m[1]!, 8)), at + m[0].length);
  }
  if (e === 'p' || e === 'P') {
    // \pL, \p{Greek}: a class.
    if (source[at + 2] === '{') return token(undefined, source.indexOf('}', at) + 1 || source.length);
    return token(undefined, at + 2 + (source.codePointAt(at + 2)! > 0xffff ? 2 : 1));
  }
  if (CONTROL[e] !== undefined) return token(CONTROL[e], at + 2);
  // Punctuation escapes itself (\. \\ \-); letters are classes (\d \w), assertions (\b \A) or errors.
  return token(e !== '' && e.charCodeAt(0) < 0x80 && !/[A-Za-z0-9]/.test(e) ? e : undefined, at + 2);
}

/** The required literal of an RE2 pattern, or undefined when there is none of useful length. */
export function requiredLiteral(source: string): RequiredLiteral | undefined {
  // The top level of the pattern as items: a literal character with the case mode it is matched
  // in, or undefined for anything else (a group as a whole is one such item).
  const items: Array<{ text: string; ignoreCase: boolean } | undefined> = [];
  // The item a repetition binds to: flags in between change nothing (in RE2, `a(?i)*` is `a*`).
  let last = -1;
  let ignoreCase = false;
  let depth = 0;
  for (const token of tokens(source)) {
    if (token.kind === 'open') {
      if (depth++ === 0) last = items.push(undefined) - 1;
    } else if (token.kind === 'close') {
      if (--depth < 0) return undefined;
    } else if (depth > 0) {
      // Inside a group: nothing is required from there (and its flags end with it).
    } else if (token.kind === 'alt') {
      return undefined; // a top-level alternation: no single literal is required
    } else if (token.kind === 'flags') {
      if (token.ignoreCase !== undefined) ignoreCase = token.ignoreCase;
      items.push(undefined);
    } else if (token.kind === 'repeat') {
      // Optional: the item may be absent. Repeated: what follows may follow a repeat of it.
      if (token.min === 0 && last !== -1) items[last] = undefined;
      items.push(undefined);
    } else if (token.kind === 'char') {
      // Case folding beyond ASCII is RE2's (ς, σ and Σ are one letter): only ASCII is compared case-insensitively.
      last = items.push(ignoreCase && token.text.charCodeAt(0) >= 0x80 ? undefined : { text: token.text, ignoreCase }) - 1;
    } else {
      last = items.push(undefined) - 1;
    }
  }
  if (depth !== 0) return undefined;
  let best: RequiredLiteral = { text: '', ignoreCase: false };
  let run: RequiredLiteral = { text: '', ignoreCase: false };
  for (const item of [...items, undefined]) {
    if (item !== undefined && (run.text === '' || item.ignoreCase === run.ignoreCase)) {
      run = { text: run.text + item.text, ignoreCase: item.ignoreCase };
      continue;
    }
    if (run.text.length > best.text.length) best = run;
    run = item === undefined ? { text: '', ignoreCase: false } : { ...item };
  }
  if (best.text.length < MIN_LENGTH) return undefined;
  return { text: best.ignoreCase ? best.text.toLowerCase() : best.text, ignoreCase: best.ignoreCase };
}

/**
 * An upper bound of the length, in UTF-16 code units, of any text the RE2 pattern matches, or
 * undefined when there is none (`*`, `+`, `{n,}`) or the pattern does not read as one. Every
 * character, class, escape and assertion counts as a code point of two units, and what the
 * tokens above misread as text (`(?:`, a group's name) counts too: the bound is never too small,
 * which is all a scan of a long line around the required literal needs (rules.ts).
 */
export function maxWidth(source: string): number | undefined {
  // One frame per open group: the widest finished alternative, the current one, and its last item.
  const frames = [{ widest: 0, current: 0, last: 0 }];
  for (const token of tokens(source)) {
    const frame = frames[frames.length - 1]!;
    if (token.kind === 'open') {
      frames.push({ widest: 0, current: 0, last: 0 });
    } else if (token.kind === 'close') {
      if (frames.length === 1) return undefined;
      frames.pop();
      const width = Math.max(frame.widest, frame.current);
      const parent = frames[frames.length - 1]!;
      parent.current += width;
      parent.last = width;
    } else if (token.kind === 'alt') {
      frame.widest = Math.max(frame.widest, frame.current);
      frame.current = 0;
      frame.last = 0;
    } else if (token.kind === 'repeat') {
      // A repetition of nothing (the `?` of `(?:`) adds nothing.
      if (frame.last === 0) continue;
      if (token.max === Infinity) return undefined;
      frame.current += frame.last * (token.max - 1);
      frame.last *= token.max;
    } else if (token.kind === 'flags') {
      // Flags are no item: a repetition after them repeats the item before them.
    } else {
      frame.current += 2;
      frame.last = 2;
    }
  }
  if (frames.length !== 1) return undefined;
  return Math.max(frames[0]!.widest, frames[0]!.current);
}

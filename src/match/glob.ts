// Globs from knowledge files mean exactly what micromatch means with { dot: true } (the
// differential test in tests/match.test.ts holds lore to that), but are compiled to RE2 and run in
// linear time: micromatch's own backtracking regexes can take exponential time on a hostile glob.
// What micromatch reads differently from how it looks is refused (see _glob-parse.ts). One
// deliberate difference: `*`, `?`, `**` and classes match a newline like any other character,
// where micromatch's `.` stops at one.
import type { GlobClass } from './_glob-class.js';
import { parseGlob, type GlobToken } from './_glob-parse.js';
import { compileRegex, type SafeRegex } from './regex.js';

// micromatch matches UTF-16 code units (`?` matches half of 😀, `??` all of it) and RE2 matches
// code points. So each surrogate is matched as a code point of its own, in plane 16: paths and
// globs are rewritten the same way, and no other astral character is left to be confused with one.
const HAS_SURROGATE = /[\uD800-\uDFFF]/;
const SURROGATES = /[\uD800-\uDFFF]/g;
const UNIT_BASE = 0x100000 - 0xd800;

function unitsAsCodePoints(text: string): string {
  return HAS_SURROGATE.test(text) ? text.replace(SURROGATES, (unit) => String.fromCodePoint(UNIT_BASE + unit.charCodeAt(0))) : text;
}

/** The reverse of unitsAsCodePoints: text of the regex's alphabet back as the path's UTF-16 text. */
export function codePointsAsUnits(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out += code >= UNIT_BASE + 0xd800 && code <= UNIT_BASE + 0xdfff ? String.fromCharCode(code - UNIT_BASE) : char;
  }
  return out;
}

const hex = (code: number): string => `\\x{${code.toString(16)}}`;

function literal(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const code = char.charCodeAt(0);
    if (code >= 0xd800 && code <= 0xdfff) out += hex(UNIT_BASE + code);
    else if (/[\\^$.|?*+()[\]{}]/.test(char)) out += `\\${char}`;
    else if (code < 0x20 || code === 0x7f) out += hex(code);
    else out += char;
  }
  return out;
}

function classSource(cls: GlobClass): string {
  let items = '';
  for (const [low, high] of cls.ranges) {
    items += low === high ? hex(low) : `${hex(low)}-${hex(high)}`;
    // A range over surrogates covers the surrogates' stand-ins too.
    const from = Math.max(low, 0xd800);
    const to = Math.min(high, 0xdfff);
    if (from <= to) items += `${hex(UNIT_BASE + from)}-${hex(UNIT_BASE + to)}`;
  }
  const set = cls.negated ? `[^${items}/]` : `[${items}]`;
  return cls.literal === undefined ? set : `(?:${literal(cls.literal)}|${set})`;
}

// `**` as micromatch compiles it with each neighbour; (?s) lets it match newlines too.
const GLOBSTAR = {
  all: '(?s:.*)',
  lead: '(?s:(?:.*/)?)',
  tail: '(?s:(?:/.*)?)',
  'tail-after-star': '(?s:/.*)',
  middle: '(?s:/.*/|/|$)',
} as const;

function tokenSource(token: GlobToken, next: GlobToken | undefined): string {
  switch (token.type) {
    case 'text': return literal(token.char);
    case 'star': return token.nonEmpty === true ? '[^/]+' : '[^/]*';
    case 'qmark': return '[^/]';
    case 'class': return classSource(token.class);
    case 'slash': return '/';
    // micromatch asserts a character before a * that starts a segment, so a/**/* cannot end at a.
    case 'globstar': return token.form === 'middle' && next?.type === 'star' ? '(?s:/.*/|/)' : GLOBSTAR[token.form];
    case 'open': return '(?:';
    case 'comma': return '|';
    case 'close': return ')';
  }
}

/** The RE2 source (anchored) of a glob's positive part, and whether a leading `!` negates it. */
export function globToRegex(glob: string): { source: string; negated: boolean } {
  const { negated, tokens } = parseGlob(glob);
  return { source: regexSource(tokens), negated };
}

function regexSource(tokens: readonly GlobToken[]): string {
  return `^${tokens.map((token, i) => tokenSource(token, tokens[i + 1])).join('')}$`;
}

/** The RE2 source (anchored) of a glob's positive part; see globToRegex for negation. */
export function globToRegexSource(glob: string): string {
  return globToRegex(glob).source;
}

const NEEDS_NORMALISING = /\\|^\.\/|\/$/;

/** Paths are matched with forward slashes, without a leading ./ or a trailing /. */
export function normalisePath(path: string): string {
  // Most paths are already normal: one test instead of three replacements, since a plan check
  // tests every path against thousands of globs.
  if (!NEEDS_NORMALISING.test(path)) return path;
  return path.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
}

/**
 * A path with a backslash as git records it (a backslash is a file name's character on Linux),
 * beside its normal form (where a backslash reads as a separator, as in a Windows path); undefined
 * without one. Globs read such a path both ways (see compileGlob).
 */
function recordedForm(path: string): string | undefined {
  return path.includes('\\') ? path.replace(/^\.\//, '').replace(/\/+$/, '') : undefined;
}

/** A compiled glob; a leading `!` negates it. */
export interface SafeGlob {
  readonly glob: string;
  readonly negated: boolean;
  test(path: string): boolean;
}

const cache = new Map<string, SafeGlob>();

/**
 * The text every path a glob's positive part matches starts and ends with: its leading and
 * trailing literal characters and slashes (the regex is anchored at both ends). A path without
 * them is refused by two string comparisons, without running the regex.
 */
function fixedEnds(tokens: readonly GlobToken[]): { start: string; end: string } {
  const fixed = (token: GlobToken): string | undefined => (token.type === 'text' ? token.char : token.type === 'slash' ? '/' : undefined);
  let start = '';
  for (const token of tokens) {
    const text = fixed(token);
    if (text === undefined) break;
    start += text;
  }
  let end = '';
  for (let i = tokens.length - 1; i >= 0; i--) {
    const text = fixed(tokens[i]!);
    if (text === undefined) break;
    end = text + end;
  }
  return { start, end };
}

/** Compiles a glob (cached); throws an Error saying why it cannot be used. */
export function compileGlob(glob: string): SafeGlob {
  let compiled = cache.get(glob);
  if (compiled === undefined) {
    const { negated, tokens } = parseGlob(glob);
    const regex: SafeRegex = compileRegex(regexSource(tokens));
    const { start, end } = fixedEnds(tokens);
    // micromatch also matches a path that is the glob's own text (`[ab]` matches "[ab]").
    const matches = (subject: string): boolean => subject.startsWith(start) && subject.endsWith(end) && regex.test(unitsAsCodePoints(subject));
    compiled = {
      glob, negated,
      test: (path) => {
        const normal = normalisePath(path);
        const recorded = recordedForm(path);
        if (normal === glob || recorded === glob) return true;
        // A path with a backslash is read both ways, to the guard's side: a glob matches when either
        // reading does (micromatch's, the recorded one, included), a negated glob excludes only when both do.
        const hit = recorded === undefined ? matches(normal) : negated ? matches(normal) && matches(recorded) : matches(normal) || matches(recorded);
        return hit !== negated;
      },
    };
    cache.set(glob, compiled);
  }
  return compiled;
}

/**
 * A glob's test for many globs against few paths (a plan check): a refused glob throws as in
 * compileGlob, but a glob's regex is compiled only once a path has its fixed start and end, so
 * most globs never compile one. A regex that then cannot compile matches nothing. A negated glob
 * compiles at once: it matches the paths its positive part refuses.
 */
export function lazyGlobTest(glob: string): (path: string) => boolean {
  const compiled = cache.get(glob);
  if (compiled !== undefined) return compiled.test;
  const { negated, tokens } = parseGlob(glob);
  if (negated) return compileGlob(glob).test;
  const { start, end } = fixedEnds(tokens);
  let test: ((path: string) => boolean) | undefined;
  const mayMatch = (subject: string): boolean => subject === glob || (subject.startsWith(start) && subject.endsWith(end));
  return (path) => {
    const recorded = recordedForm(path);
    if (!mayMatch(normalisePath(path)) && (recorded === undefined || !mayMatch(recorded))) return false;
    if (test === undefined) {
      try {
        test = compileGlob(glob).test;
      } catch {
        test = () => false;
      }
    }
    return test(path);
  };
}

/** Why a glob cannot be used, or undefined when it compiles. */
export function globProblem(glob: string): string | undefined {
  try {
    compileGlob(glob);
    return undefined;
  } catch (error) {
    return `is not a usable glob: ${(error as Error).message}`;
  }
}

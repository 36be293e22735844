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
  return { source: `^${tokens.map((token, i) => tokenSource(token, tokens[i + 1])).join('')}$`, negated };
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

/** A compiled glob; a leading `!` negates it. */
export interface SafeGlob {
  readonly glob: string;
  readonly negated: boolean;
  test(path: string): boolean;
}

const cache = new Map<string, SafeGlob>();

/** Compiles a glob (cached); throws an Error saying why it cannot be used. */
export function compileGlob(glob: string): SafeGlob {
  let compiled = cache.get(glob);
  if (compiled === undefined) {
    const { source, negated } = globToRegex(glob);
    const regex: SafeRegex = compileRegex(source);
    // micromatch also matches a path that is the glob's own text (`[ab]` matches "[ab]").
    compiled = {
      glob, negated,
      test: (path) => {
        const normal = normalisePath(path);
        return normal === glob || regex.test(unitsAsCodePoints(normal)) !== negated;
      },
    };
    cache.set(glob, compiled);
  }
  return compiled;
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

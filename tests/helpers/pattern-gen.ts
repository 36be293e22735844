// Seeded generators for the prefilter's differential tests: RE2 patterns and globs built from the
// syntax that makes required literals hard (flags, classes, escapes, quantifiers, case folding),
// each with a sampler, so the lines and paths made from them match often instead of rarely.

/** A deterministic generator of numbers in [0, 1): glob-fuzz.ts's prng (mulberry32). */
export type Rng = () => number;

const pick = <T>(r: Rng, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
const between = (r: Rng, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const chance = (r: Rng, p: number): boolean => r() < p;

/** A piece of a pattern (or glob) and a way to produce text it matches. */
interface Node {
  src: string;
  sample(r: Rng): string;
}

// Case variants as RE2 folds them (k and s reach beyond ASCII; ß, σ reach other letters), plus
// the Turkish i's, which fold to nothing else and must not be treated as if they did.
const ORBITS: string[][] = [['s', 'S', 'ſ'], ['k', 'K', '\u212A'], ['σ', 'ς', 'Σ'], ['ß', 'ẞ'], ['é', 'É'], ['ä', 'Ä'], ['i', 'I']];
const ORBIT_OF = new Map<string, string[]>();
for (const orbit of ORBITS) for (const c of orbit) ORBIT_OF.set(c, orbit);
for (let c = 0x61; c <= 0x7a; c++) {
  const lower = String.fromCharCode(c);
  if (!ORBIT_OF.has(lower)) ORBIT_OF.set(lower, [lower, lower.toUpperCase()]).set(lower.toUpperCase(), [lower, lower.toUpperCase()]);
}

/** Another spelling of `c` that a case-insensitive match accepts (sometimes `c` itself). */
function caseVariant(r: Rng, c: string): string {
  const orbit = ORBIT_OF.get(c);
  return orbit === undefined ? c : pick(r, orbit);
}

/** Changes the case of some characters: RE2's folds, plain upper/lower case, or a Turkish i. */
export function recase(r: Rng, text: string): string {
  const mode = between(r, 0, 3);
  if (mode === 0) return text.toUpperCase();
  if (mode === 1) return text.toLowerCase();
  const chars = [...text];
  if (mode === 2) return chars.map((c) => (chance(r, 0.5) ? caseVariant(r, c) : c)).join('');
  return chars.map((c) => (/[iI]/.test(c) && chance(r, 0.7) ? pick(r, ['İ', 'ı']) : c)).join('');
}

const REGEX_META = new Set([...'\\.^$|?*+()[]{}']);
const WORDS = [
  'token', 'secret', 'api_key', 'AKIA', 'passwd', 'key', 'sk', 'ss', 'ab', 'a', 'x', 'Kelvin', 'Straße', 'ſecret', 'σοφία',
  'ΣΟΦΟΣ', 'İzmir', 'ıi', '😀', 'id😀', 'Ärger', '\u212Aey', 'a.b', 'x+y', 'f(x)', '$HOME', 'a|b', '[x]', '{y}', 'c:\\d', 'mask',
  'ab-cd', 'a b', 'ПАРОЛЬ', 'ключ', '𝒜bc',
];
const NOISE = [...' .-_=:/\\\n\t😀ßſ\u212AΣςİıaAsSkK0{}[]()|*+?$^#x'];

/** A single character of the pattern's own text, escaped as RE2 needs, or spelt as an escape. */
function charNode(r: Rng, c: string, ci: boolean): Node {
  const code = c.codePointAt(0)!;
  const sample = (rr: Rng): string => (ci ? caseVariant(rr, c) : c);
  let src = REGEX_META.has(c) ? `\\${c}` : c;
  const roll = r();
  if (roll < 0.04 && code < 0x100) src = `\\x${code.toString(16).padStart(2, '0')}`;
  else if (roll < 0.07) src = `\\x{${code.toString(16).toUpperCase()}}`;
  else if (roll < 0.1 && code < 0o400) src = `\\${code.toString(8).padStart(pick(r, [1, 2, 3]), '0')}`;
  else if (roll < 0.13 && /[^A-Za-z0-9]/.test(c) && code < 0x80) src = `\\${c}`;
  return { src, sample };
}

/** Character classes with characters they match; the odd ones test where a class ends. */
const CLASSES: Array<[string, string[]]> = [
  ['[abc]', ['a', 'b', 'c']], ['[^abc]', ['x', 'Σ', '1', '😀']], ['[a-z]', ['q', 's', 'k']], ['[A-Z0-9_]', ['Q', '7', '_']],
  ['[\\]\\-]', [']', '-']], ['[[:alpha:]]', ['q', 'Z']], ['[[:digit:]abc]', ['1', 'a', 'c']], ['[^]abc]', ['x', '-', 'Σ']],
  ['[]abc]', [']', 'a']], ['[\\d.]', ['5', '.']], ['[σ]', ['σ']], ['[😀x]', ['😀', 'x']], ['[\\x41-\\x43]', ['A', 'B', 'C']],
  ['[)(|]', [')', '(', '|']], ['[[:alpha:])]', ['a', ')']], ['[[:alpha:]|]xyz', ['axyz', '|xyz']], ['[^[:space:]]', ['a', '!']],
  ['[\\pL\\d]', ['é', '4']], ['[.*+?]', ['.', '*', '+', '?']], ['[k]', ['k']], ['[ſ]', ['ſ']], ['[\\\\]', ['\\']],
  ['[^\\n]', ['a', ' ']], ['[[:^alpha:]tok]', ['1', 't', 'k']], ['[a-c[:digit:]]', ['b', '9']], ['[-a]', ['-', 'a']],
  ['[ab-]', ['b', '-']], ['[^-]', ['a']], ['[[]', ['[']], ['[[a]', ['[', 'a']], ['[\\[\\]]', ['[', ']']], ['[\\Q]\\E]', [']']],
  // A range's upper end is one character, even a [ before a colon: not a [:name:] class.
  ['[!-[]', ['!', '[', 'A']], ['[!-[:]', ['!', ':', '5']], ['[A-[:]]', ['A]', ':]', 'Q]']],
  // No range starts at a class escape: the - is a character, and [:alpha:] a class.
  ['[\\d-[:alpha:]]', ['1', '-', 'a']], ['[\\pN-x]', ['1', '-', 'x']], ['[\\p{Greek}-[:digit:]]', ['σ', '-', '7']], ['[a-😀]', ['b', '😀']],
  // A range ending in a hex or octal escape, then - and a class.
  ['[\\x41-\\x5A-[:^alpha:]]', ['Q', '-', '1']], ['[\\101-\\132-[:^alpha:]]', ['Q', '-', '1']],
];
const ESCAPES: Array<[string, string[]]> = [
  ['\\d', ['0', '7']], ['\\D', ['x', '-']], ['\\w', ['a', 'Z', '_', '5']], ['\\W', ['-', ' ', 'é']], ['\\s', [' ', '\t']],
  ['\\S', ['q', '😀']], ['\\pL', ['a', 'Σ', 'ß', 'é', '\u212A']], ['\\p{Greek}', ['σ', 'Ω']], ['\\PL', ['1', '-']],
  ['\\p{Lu}', ['A', 'Σ']], ['\\pN', ['7']], ['\\P{Greek}', ['a']], ['\\n', ['\n']], ['\\t', ['\t']], ['\\f', ['\f']],
  ['\\x{1F600}', ['😀']], ['\\x{df}', ['ß']], ['\\x41', ['A']], ['\\101', ['A']], ['\\0', ['\0']], ['.', ['a', '.', 'ß', '😀']],
];
const ANCHORS = ['^', '$', '\\b', '\\B', '\\A', '\\z'];
const QUANTIFIERS: Array<[string, number, number]> = [
  ['?', 0, 1], ['*', 0, 3], ['+', 1, 3], ['{0,2}', 0, 2], ['{2}', 2, 2], ['{1,3}', 1, 3], ['{0}', 0, 0], ['{2,}', 2, 4],
  ['{0,}', 0, 2], ['{1}', 1, 1], ['{1,}', 1, 2],
];
// Not repetitions in RE2: literal text.
const FAKE_QUANTIFIERS = ['{,3}', '{x}', '{00}', '{'];
const FLAGS = ['(?i)', '(?-i)', '(?s)', '(?m)', '(?U)', '(?i-s)', '(?im)'];

/** Repeats a node as the quantifier says (only a \Q...\E node's last character repeats). */
function quantify(r: Rng, node: Node, lastOnly?: { prefix: Node; last: Node }): Node {
  if (chance(r, 0.1)) {
    const fake = pick(r, FAKE_QUANTIFIERS);
    return { src: node.src + fake, sample: (rr) => node.sample(rr) + fake };
  }
  const [q, min, max] = pick(r, QUANTIFIERS);
  const lazy = chance(r, 0.25) ? '?' : '';
  // Flags between an item and its repetition are no item: RE2 repeats the item before them.
  const flags = chance(r, 0.08) ? pick(r, ['(?s)', '(?m)', '(?-s)', '(?U)']) : '';
  const unit = lastOnly?.last ?? node;
  return {
    src: node.src + flags + q + lazy,
    sample: (rr) => {
      let out = lastOnly?.prefix.sample(rr) ?? '';
      for (let n = between(rr, min, max); n > 0; n--) out += unit.sample(rr);
      return out;
    },
  };
}

function sequence(r: Rng, depth: number, ci: boolean, top: boolean): Node {
  const nodes: Node[] = [];
  let caseless = ci;
  if (top && chance(r, 0.1)) nodes.push({ src: pick(r, ['^', '\\A', '\\b']), sample: () => '' });
  for (let items = between(r, 1, 5); items > 0; items--) {
    const roll = r();
    const ciNow = caseless; // samplers run later: they must see the flag as it is here
    if (roll < 0.4) {
      // A word, character by character, so a quantifier binds to its last character only.
      for (const c of pick(r, WORDS)) {
        const node = charNode(r, c, caseless);
        nodes.push(chance(r, 0.08) ? quantify(r, node) : node);
      }
    } else if (roll < 0.52) {
      const [src, members] = pick(r, CLASSES);
      const node = { src, sample: (rr: Rng) => (ciNow ? caseVariant(rr, pick(rr, members)) : pick(rr, members)) };
      nodes.push(chance(r, 0.3) ? quantify(r, node) : node);
    } else if (roll < 0.66) {
      const [src, members] = pick(r, ESCAPES);
      const node = { src, sample: (rr: Rng) => pick(rr, members) };
      nodes.push(chance(r, 0.3) ? quantify(r, node) : node);
    } else if (roll < 0.72) {
      const text = pick(r, WORDS) + pick(r, ['', '.*', '+?', '(x)', '|', '[a]']);
      const quoted = (chars: string[]): Node['sample'] => (rr) => chars.map((c) => (ciNow ? caseVariant(rr, c) : c)).join('');
      const chars = [...text];
      const node = { src: `\\Q${text}\\E`, sample: quoted(chars) };
      const lastOnly = { prefix: { src: '', sample: quoted(chars.slice(0, -1)) }, last: { src: '', sample: quoted(chars.slice(-1)) } };
      nodes.push(chance(r, 0.4) ? quantify(r, node, lastOnly) : node);
    } else if (roll < 0.84 && depth < 2) {
      nodes.push(group(r, depth + 1, caseless));
    } else if (roll < 0.92) {
      const flag = pick(r, FLAGS);
      if (flag.includes('-i')) caseless = false;
      else if (flag.includes('i')) caseless = true;
      nodes.push({ src: flag, sample: () => '' });
    } else {
      nodes.push({ src: pick(r, ANCHORS), sample: () => '' });
    }
  }
  if (top && chance(r, 0.1)) nodes.push({ src: pick(r, ['$', '\\z', '\\b']), sample: () => '' });
  return { src: nodes.map((n) => n.src).join(''), sample: (rr) => nodes.map((n) => n.sample(rr)).join('') };
}

function alternation(r: Rng, depth: number, ci: boolean, top: boolean): Node {
  const branches = Array.from({ length: chance(r, top ? 0.2 : 0.4) ? between(r, 2, 3) : 1 }, () => sequence(r, depth, ci, top));
  if (!top && chance(r, 0.1)) branches.push({ src: '', sample: () => '' });
  return { src: branches.map((b) => b.src).join('|'), sample: (rr) => pick(rr, branches).sample(rr) };
}

let groupNames = 0;

function group(r: Rng, depth: number, ci: boolean): Node {
  const opener = pick(r, ['(', '(?:', '(?P<n>', '(?<n>', '(?i:', '(?-i:', '(?s:', '(?U:', '(?i)']).replace('<n>', `<g${groupNames++}>`);
  const inner = alternation(r, depth, opener === '(?i:' || opener === '(?i)' || (ci && opener !== '(?-i:'), false);
  // '(?i)' here stands for "(" followed by a flag that holds to the group's end.
  const src = opener === '(?i)' ? `((?i)${inner.src})` : `${opener}${inner.src})`;
  const node = { src, sample: inner.sample };
  return chance(r, 0.3) ? quantify(r, node) : node;
}

/** A random RE2 pattern (some RE2 refuses) and a sampler of text that it usually matches. */
export function randomPattern(r: Rng): Node {
  const lead = pick(r, ['', '', '', '', '(?i)', '(?i)', '(?s)', '(?m)', '(?U)', '(?is)', '(?-i)', '(?i)(?s)', '(?m)(?i)']);
  const body = alternation(r, 0, lead.includes('(?i') || lead === '(?is)', true);
  return { src: lead + body.src, sample: body.sample };
}

/** Text made from a pattern's sample: as is, recased, with characters inserted or deleted, framed. */
export function linesFor(r: Rng, node: Node, count: number): string[] {
  const lines: string[] = [];
  for (let k = 0; k < count; k++) {
    let line = node.sample(r);
    const mutations = k === 0 ? 0 : between(r, 0, 2);
    for (let m = 0; m < mutations; m++) {
      const at = between(r, 0, line.length);
      const kind = between(r, 0, 5);
      if (kind === 0) line = recase(r, line);
      else if (kind === 1) line = line.slice(0, at) + pick(r, NOISE) + line.slice(at);
      else if (kind === 2) line = line.slice(0, at) + line.slice(at + 1);
      else if (kind === 3) line = `${pick(r, ['', 'const x = ', '# ', '😀'])}${line}${pick(r, ['', ';', ' // y', 'ſ'])}`;
      else if (kind === 4) line += node.sample(r);
      else line = [...line].reverse().join('');
    }
    lines.push(line);
  }
  return lines;
}

// Globs: micromatch syntax, compiled by lore to RE2.
const GLOB_WORDS = ['src', 'secrets', '.env', 'config', 'id_rsa', 'a.b', 'x+y', 'f(x)', '$HOME', 'a|b', 'ab^c', 'Ärger', 'ſ', 'K', '😀', 'ß', 'key', 'ab', 'q'];
const GLOB_CLASSES: Array<[string, string[]]> = [
  ['[abc]', ['a', 'c']], ['[!abc]', ['x', 'Σ']], ['[^abc]', ['x']], ['[a-z]', ['q']], ['[]a]', [']', 'a']], ['[!]]', ['x']],
  ['[[:alpha:]]', ['z']], ['[.]', ['.']], ['[\\]]', [']']], ['[😀]', ['😀']], ['[a-c][x]', ['bx']],
];

function globSegment(r: Rng): Node {
  const nodes: Node[] = [];
  for (let items = between(r, 1, 4); items > 0; items--) {
    const roll = r();
    if (roll < 0.45) {
      const word = pick(r, GLOB_WORDS);
      nodes.push({ src: word.replace(/[*?[\]{}\\!]/g, (c) => (chance(r, 0.5) ? `\\${c}` : c)), sample: () => word });
    } else if (roll < 0.6) nodes.push({ src: '*', sample: (rr) => pick(rr, ['', 'x', 'ab.c', 'ſ😀']) });
    else if (roll < 0.7) nodes.push({ src: '?', sample: (rr) => pick(rr, ['a', '.', 'Σ']) });
    else if (roll < 0.82) {
      const [src, members] = pick(r, GLOB_CLASSES);
      nodes.push({ src, sample: (rr) => pick(rr, members) });
    } else if (roll < 0.94) {
      // Now and then a brace range, which lore refuses.
      const alternatives = Array.from({ length: between(r, 1, 3) }, () => pick(r, [...GLOB_WORDS, '', 'a/b', '*.ts', '1..3']));
      // One alternative is literal text in braces; two or more are a choice.
      const sample = alternatives.length === 1 ? `{${alternatives[0]}}` : undefined;
      nodes.push({ src: `{${alternatives.join(',')}}`, sample: (rr) => sample ?? pick(rr, alternatives).replace('*', 'x') });
    } else nodes.push({ src: pick(r, ['\\*', '\\?', '\\[']), sample: () => '' });
  }
  return { src: nodes.map((n) => n.src).join(''), sample: (rr) => nodes.map((n) => n.sample(rr)).join('') };
}

/** A random glob (some of which lore refuses) and a sampler of paths that it usually matches. */
export function randomGlob(r: Rng): Node {
  const segments: Node[] = [];
  for (let n = between(r, 1, 4); n > 0; n--) {
    segments.push(chance(r, 0.15) ? { src: '**', sample: (rr) => pick(rr, ['', 'a', 'a/b', 'x/.y']) } : globSegment(r));
  }
  const lead = pick(r, ['', '', '', './', '!']);
  return {
    src: lead + segments.map((s) => s.src).join('/'),
    sample: (rr) => segments.map((s) => s.sample(rr)).filter((s) => s !== '').join('/'),
  };
}

/** Paths made from a glob's sample: as is, recased, with backslashes, ./ or a trailing /, edited. */
export function pathsFor(r: Rng, node: Node, count: number): string[] {
  const paths: string[] = [];
  for (let k = 0; k < count; k++) {
    let path = node.sample(r);
    const mutations = k === 0 ? 0 : between(r, 0, 2);
    for (let m = 0; m < mutations; m++) {
      const at = between(r, 0, path.length);
      const kind = between(r, 0, 5);
      if (kind === 0) path = recase(r, path);
      else if (kind === 1) path = path.replaceAll('/', '\\');
      else if (kind === 2) path = pick(r, ['./', 'a/', '']) + path + pick(r, ['/', '', '//']);
      else if (kind === 3) path = path.slice(0, at) + pick(r, [...'/\\.aS😀']) + path.slice(at);
      else if (kind === 4) path = path.slice(0, at) + path.slice(at + 1);
      else path = `${node.sample(r)}/${path}`;
    }
    paths.push(path);
  }
  return paths;
}

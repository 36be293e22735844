// Generated globs and paths for the differential test against micromatch: a seeded PRNG, so a
// failure reproduces from its seed. Globs draw on every construct micromatch knows (the refused
// ones included, to prove they are refused); paths are paths as git stores them: no empty, `.` or
// `..` segment, no leading or trailing `/`, and no backslash (lore reads `\` in a path as `/`).

/** mulberry32: a small, fast, seeded PRNG returning numbers in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
/** One of the items, by weight; an item may be a function, called only when chosen. */
const weighted = <T>(random: Random, items: ReadonlyArray<readonly [number, T | (() => T)]>): T => {
  let r = random() * items.reduce((sum, [w]) => sum + w, 0);
  let chosen = items[items.length - 1]![1];
  for (const [w, item] of items) {
    if ((r -= w) < 0) {
      chosen = item;
      break;
    }
  }
  return typeof chosen === 'function' ? (chosen as () => T)() : chosen;
};

/** Characters of names: dots, spaces, unicode inside and outside the BMP, a newline, glob syntax. */
export const NAME_CHARS = ['a', 'b', 'c', 'a', 'b', '.', '.', '-', '_', ' ', 'é', 'ü', '😀', '\n', '1', '!', '+', '@', '$', '^', '~', ',', '#', '*', '?', '[', ']', '{', '}', '(', ')', '|', '"', "'"];
const PLAIN = ['a', 'b', 'c', '.', '-', '_', ' ', 'é', 'ü', '😀', '\n', '1', '$', '^', '~', '#', "'"];
const ESCAPABLE = ['*', '?', '[', ']', '{', '}', ',', '.', '!', '+', '@', '(', ')', '|', '"', ' ', 'é', '😀', '-', ';', '\n', '$', '^'];
const CLASS_CHARS = ['a', 'b', 'c', 'é', 'ü', '.', '-', ' ', '\n', '!', '^', ']', '*', '?', '{', ',', '😀', '/', '[', ':'];
const RANGES = ['a-c', 'b-b', 'a-z', 'é-ü', '0-9', ' -.', 'A-Z', '\\!-\\.', 'é-\uffff', '--.', 'c-a', '!-~'];

function classText(random: Random): string {
  const lead = weighted(random, [[12, ''], [6, '^'], [0.7, '!'], [1, ']'], [1, '^]'], [1, '\\!']]);
  let body = '';
  const n = 1 + Math.floor(random() * 3);
  for (let i = 0; i < n; i++) {
    body += weighted(random, [
      [8, pick(random, CLASS_CHARS.slice(0, 8))], [3, pick(random, RANGES.slice(0, 8))], [0.5, pick(random, RANGES)], [2, pick(random, CLASS_CHARS.slice(0, 15))], [0.5, pick(random, CLASS_CHARS)],
      [1, `\\${pick(random, ['-', ']', '^', '!', '.', '/', 'é', ';', 'd', '\\'])}`], [0.2, '[:alpha:]'], [0.1, '[:digit:]'], [0.1, '[:nope:]'],
    ]);
  }
  const close = weighted(random, [[20, ']'], [1, ''], [1, '-]']]);
  return `[${lead}${body}${close}`;
}

function segmentText(random: Random, depth: number): string {
  let out = '';
  const n = 1 + Math.floor(random() * 4);
  for (let i = 0; i < n; i++) {
    let piece = weighted(random, [
      [14, () => pick(random, PLAIN)],
      [6, '*'],
      [4, '?'],
      [4, () => classText(random)],
      [depth < 2 ? 4 : 0, () => braceText(random, depth + 1)],
      [3, () => `\\${pick(random, ESCAPABLE)}`],
      [1, () => pick(random, ['!', '+', '@', ',', '}', ']', '{', '[', '$$', '^^', '++', '..', '--', '$\\$'])],
      [0.5, () => `${pick(random, ['@', '+', '?', '*', '!'])}(${pick(random, ['a', 'a|b', '*.md', ''])})`],
      [0.3, () => pick(random, ['(', ')', '|', '"', '**', '***', '\\', '\\d', '\\\\', '\\/'])],
    ]);
    // Two * pieces in a row make a ** inside a segment, which is refused: mostly avoid it.
    if (piece.startsWith('*') && out.endsWith('*') && random() < 0.9) piece = 'a';
    out += piece;
  }
  return out;
}

function braceText(random: Random, depth: number): string {
  const n = weighted(random, [[1, 1], [5, 2], [3, 3]]);
  const alternatives: string[] = [];
  for (let i = 0; i < n; i++) {
    alternatives.push(weighted(random, [
      [6, () => segmentText(random, depth)],
      [2, ''],
      [2, () => `${segmentText(random, depth)}/${segmentText(random, depth)}`],
      [1, () => `${segmentText(random, depth)}/**/${segmentText(random, depth)}`],
      [0.3, () => `**/${segmentText(random, depth)}`],
      [0.2, () => `${pick(random, ['a', '1'])}..${pick(random, ['c', '3'])}`],
    ]));
  }
  return `{${alternatives.join(',')}}`;
}

// Globs people write, and those micromatch compiles by shortcuts of its own.
const CLASSICS = ['*', '**', '*.*', '**/*.*', './*.*', './**/*.*', '!*.*', '*/*', '**/*', '.*', '**/.*', '*.md', '**/*.md', '*/**/*', 'a/**/*', 'a/**', '*/**', 'a*/**', '**/.env', 'src/**/*.{js,ts}', '{a,b}/**/{,x}', 'a/**/{,b}', '*.*.md', '.*.md', '[ab]', '[ab]*',
  '{a.*,b}', '{.*,x}/y', '[ab]+', '{a,b}+', 'a]+', '[é-\uffff]', '[é-\uffff][é-\uffff]', 'x[^a][^b]', '??', 'a[^b]c', '$$', 'a++'];

// Short strings of glob syntax, put together at random: corners no grammar above thinks of.
const SYNTAX = ['*', '*', '?', '[', ']', '{', '}', ',', '.', '/', '!', '\\', '^', '$', '+', '-', 'a', 'a', 'b', '@', ' ', 'é', '😀', '\n', '#', ':', ';', '~'];

/** A glob: segments joined by `/`, with `**` segments, braces, a leading `!` or `./` at times. */
export function generateGlob(random: Random): string {
  if (random() < 0.08) return pick(random, CLASSICS);
  if (random() < 0.25) return Array.from({ length: 1 + Math.floor(random() * 8) }, () => pick(random, SYNTAX)).join('');
  const segments: string[] = [];
  const n = 1 + Math.floor(random() * 3);
  for (let i = 0; i < n; i++) segments.push(weighted(random, [[8, () => segmentText(random, 0)], [3, '**'], [0.3, pick(random, ['', '.', '..', '**', '***'])]]));
  const prefix = weighted(random, [[20, ''], [3, '!'], [2, './'], [0.3, '!!'], [0.3, './!'], [0.3, '!./'], [0.3, '/']]);
  return prefix + segments.join('/') + (random() < 0.02 ? '/' : '');
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A path as git stores it (or undefined): valid text, non-empty segments other than `.` and `..`, no backslash. */
function gitPath(text: string): string | undefined {
  if (text === '' || text.includes('\\') || LONE_SURROGATE.test(text)) return undefined;
  return text.split('/').every((s) => s !== '' && s !== '.' && s !== '..') ? text : undefined;
}

function randomName(random: Random, min = 1): string {
  let out = '';
  const n = min + Math.floor(random() * 4);
  for (let i = 0; i < n; i++) out += pick(random, NAME_CHARS);
  return out;
}

/** A path the glob is likely to match: its syntax filled in at random (roughly: micromatch decides). */
function instantiate(random: Random, glob: string): string {
  let out = '';
  let i = glob.startsWith('!') ? 1 : 0;
  while (i < glob.length) {
    const c = glob[i]!;
    if (glob.startsWith('**', i)) {
      const n = Math.floor(random() * 3);
      out += Array.from({ length: n }, () => randomName(random)).join('/');
      i += 2;
      if (n === 0 && glob[i] === '/') i++;
      // No segments for a/**/x can also mean no slash: micromatch matches a/**/{,x} against a.
      if (n === 0 && out.endsWith('/') && random() < 0.5) out = out.slice(0, -1);
    } else if (c === '*') {
      out += randomName(random, 0);
      i++;
    } else if (c === '?') {
      out += random() < 0.05 ? '/' : pick(random, NAME_CHARS);
      i++;
    } else if (c === '[' && random() < 0.15) {
      // The class's own text: micromatch matches some classes literally.
      const end = glob.indexOf(']', i + 2);
      out += end === -1 ? '[' : glob.slice(i, end + 1).replace(/\\(.)/g, '$1');
      i = end === -1 ? i + 1 : end + 1;
    } else if (c === '[' && random() < 0.2) {
      out += pick(random, [...NAME_CHARS, '/']);
      i = glob.indexOf(']', i + 2) === -1 ? i + 1 : glob.indexOf(']', i + 2) + 1;
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      const body = end === -1 ? '[' : glob.slice(i + 1, end).replace(/^[!^]/, '');
      out += end === -1 ? '[' : (pick(random, [...body.replace(/[-\\]/g, '')]) ?? 'a');
      i = end === -1 ? i + 1 : end + 1;
    } else if (c === '{' || c === ',') {
      // Take the first or the next alternative: skip to a comma or the closing brace at this depth.
      if (random() < 0.5) {
        let depth = 0;
        let j = i + 1;
        for (; j < glob.length; j++) {
          if (glob[j] === '{') depth++;
          else if (glob[j] === '}' && depth-- === 0) break;
          else if (glob[j] === ',' && depth === 0 && random() < 0.5) break;
        }
        i = j + (glob[j] === '}' ? 1 : 0);
        if (glob[j] === ',') i = j;
        if (c === ',' || glob[j] === '}') continue;
      }
      i++;
    } else if (c === '}') {
      i++;
    } else if (c === '\\') {
      out += glob[i + 1] ?? '';
      i += 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Paths for a glob: instantiations of it, some mutated, and unrelated random paths. */
export function generatePaths(random: Random, glob: string, count: number): string[] {
  const paths: string[] = [];
  for (let attempt = 0; paths.length < count && attempt < count * 10; attempt++) {
    let text: string;
    const mode = random();
    if (mode < 0.55) text = instantiate(random, glob);
    else if (mode < 0.75) {
      // One character more or less (whole characters: 😀 is never split into halves).
      const chars = Array.from(instantiate(random, glob));
      const at = Math.floor(random() * (chars.length + 1));
      if (random() < 0.5) chars.splice(at, 0, pick(random, [...NAME_CHARS, '/']));
      else chars.splice(at, 1);
      text = chars.join('');
    } else if (mode < 0.8) text = glob;
    else text = Array.from({ length: 1 + Math.floor(random() * 3) }, () => randomName(random)).join('/');
    const path = gitPath(text);
    if (path !== undefined) paths.push(path);
  }
  return paths;
}

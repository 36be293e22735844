// Globs from knowledge files follow micromatch's syntax (with dot files matched), but are
// compiled to RE2 and run in linear time: micromatch's own backtracking regexes can take
// exponential time on a hostile glob. One deliberate difference: `[!a]` negates, as in POSIX
// shells, where micromatch reads it as the set of '!' and 'a'.
import { compileRegex, type SafeRegex } from './regex.js';

const MAX_GLOB_LENGTH = 1000;

function escapeLiteral(char: string): string {
  return /[\\^$.|?*+()[\]{}]/.test(char) ? `\\${char}` : char;
}

/** Translates one path segment's glob syntax (no `/` inside) into RE2 syntax. */
function segmentToRegex(segment: string): string {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i]!;
    if (char === '\\' && i + 1 < segment.length) {
      out += escapeLiteral(segment[++i]!);
    } else if (char === '*') {
      while (segment[i + 1] === '*') i++;
      out += '[^/]*';
    } else if (char === '?') {
      out += '[^/]';
    } else if (char === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end === -1) {
        out += '\\[';
        continue;
      }
      let body = segment.slice(i + 1, end);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      out += `[${negated ? '^/' : ''}${body.replace(/\\(?!.)/g, '\\\\').replace(/\[/g, '\\[')}]`;
      i = end;
    } else {
      out += escapeLiteral(char);
    }
  }
  return out;
}

const MAX_ALTERNATIVES = 256;

/** Expands `{a,b}` alternatives (nested, and spanning `/`): src/{a,b/{c,d}} → src/a, src/b/c, src/b/d. */
export function expandBraces(glob: string): string[] {
  let depth = 0;
  let open = -1;
  const commas: number[] = [];
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (char === '\\') {
      i++;
    } else if (char === '{') {
      if (depth++ === 0) open = i;
    } else if (char === ',' && depth === 1) {
      commas.push(i);
    } else if (char === '}' && depth > 0 && --depth === 0) {
      if (commas.length === 0) {
        open = -1; // {a} without a comma is literal text, as in micromatch
        continue;
      }
      const cuts = [open, ...commas, i];
      const prefix = glob.slice(0, open);
      const suffix = glob.slice(i + 1);
      const out: string[] = [];
      for (let k = 0; k + 1 < cuts.length; k++) {
        out.push(...expandBraces(prefix + glob.slice(cuts[k]! + 1, cuts[k + 1]) + suffix));
        if (out.length > MAX_ALTERNATIVES) throw new Error(`braces expand to more than ${MAX_ALTERNATIVES} alternatives`);
      }
      return out;
    }
  }
  if (depth !== 0) throw new Error(`unbalanced braces in glob ${JSON.stringify(glob)}`);
  return [glob];
}

/** The RE2 source (unanchored) of one brace-free glob. */
function braceFreeToRegex(glob: string): string {
  const segments = glob.replace(/^\.\//, '').split('/');
  let out = '';
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === '**') {
      // `**` as a whole segment matches any number of segments, including none.
      if (segments.length === 1) out += '.*';
      else if (i === segments.length - 1) out += '(?:/.*)?';
      else out += i === 0 ? '(?:.*/)?' : '/(?:.*/)?';
      continue;
    }
    if (i > 0 && segments[i - 1] !== '**') out += '/';
    out += segmentToRegex(segment);
  }
  return out;
}

/** The RE2 source, anchored at both ends, that matches the same paths as the glob. */
export function globToRegexSource(glob: string): string {
  if (glob.length > MAX_GLOB_LENGTH) throw new Error(`glob is longer than ${MAX_GLOB_LENGTH} characters`);
  if (/\{[^{}]*\.\.[^{}]*\}/.test(glob)) throw new Error('brace ranges like {1..5} are not supported; list the alternatives: {1,2,3,4,5}');
  const alternatives = expandBraces(glob).map(braceFreeToRegex);
  return alternatives.length === 1 ? `^${alternatives[0]}$` : `^(?:${alternatives.join('|')})$`;
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
  test(path: string): boolean;
}

const cache = new Map<string, SafeGlob>();

/** Compiles a glob (cached); throws an Error saying why it cannot be used. */
export function compileGlob(glob: string): SafeGlob {
  let compiled = cache.get(glob);
  if (compiled === undefined) {
    const negated = glob.startsWith('!');
    const regex: SafeRegex = compileRegex(globToRegexSource(negated ? glob.slice(1) : glob));
    compiled = { glob, test: (path) => regex.test(normalisePath(path)) !== negated };
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

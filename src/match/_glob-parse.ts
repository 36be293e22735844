// Reads a glob into tokens the way micromatch (picomatch) reads it with { dot: true }, and refuses
// every construct micromatch would read differently from how it looks, or that lore cannot match
// exactly in linear time: extglobs, POSIX classes, `[!...]`, `**` inside a segment, brace ranges,
// bare ( ) | and quotes. A refused glob throws an Error whose message says what to write instead.
import { parseClass, type GlobClass } from './_glob-class.js';

/** How a `**` segment joins its neighbours (micromatch compiles each differently). */
export type GlobstarForm = 'all' | 'lead' | 'tail' | 'tail-after-star' | 'middle';

export type GlobToken =
  | { type: 'text'; char: string } // one character: a surrogate pair for one outside the BMP
  | { type: 'star'; nonEmpty?: true }
  | { type: 'qmark' }
  | { type: 'class'; class: GlobClass }
  | { type: 'slash' }
  | { type: 'globstar'; form: GlobstarForm }
  | { type: 'open' }
  | { type: 'comma' }
  | { type: 'close' };

export interface ParsedGlob {
  negated: boolean;
  tokens: GlobToken[];
}

export const MAX_GLOB_LENGTH = 1000;

// The kind of the previous token, as micromatch's rules for the next one look at it.
type Prev = 'bos' | 'slash' | 'text' | 'dot' | 'star' | 'qmark' | 'bracket' | 'brace' | 'comma' | 'globstar';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const HIGH_SURROGATE = /[\uD800-\uDBFF]/;
const BACKSLASH = 'a glob cannot match a backslash (lore reads \\ in paths as /)';
const WHOLE_SEGMENT = '** must be a whole path segment (**/x, a/**/b, x/**), not next to other characters or to { , }: write * to match within a segment';

function extglob(glob: string, at: number): never {
  const char = glob[at]!;
  let depth = 0;
  let end = at + 1;
  for (; end < glob.length; end++) {
    if (glob[end] === '(') depth++;
    else if (glob[end] === ')' && --depth === 0) break;
  }
  const body = glob.slice(at + 2, end);
  const text = `${char}(${body}${end < glob.length ? ')' : ''}`;
  // @(a|b) and ?(a|b) have exact brace forms when their alternatives are plain text.
  const plain = end < glob.length && /^[^()[\]{},\\*?!+@"]*$/.test(body);
  if (plain && char === '@') throw new Error(`extglob ${text} is not supported: write {${body.replace(/\|/g, ',')}} instead`);
  if (plain && char === '?') throw new Error(`extglob ${text} is not supported: write {,${body.replace(/\|/g, ',')}} instead`);
  if (char === '!') throw new Error(`extglob ${text} is not supported: a leading ! negates a whole glob (!**/*.md); write that, or list what to match`);
  throw new Error(`extglob ${text} is not supported: write {a,b} for one of several alternatives, * or ** to repeat, or \\( for a literal (`);
}

/** Leading `./` (any number) and one `!`, as micromatch strips and reads them. */
function prefixes(glob: string): { negated: boolean; rest: string } {
  let rest = glob.startsWith('./') ? glob.slice(2) : glob;
  let negated = false;
  if (rest[0] === '!' && rest[1] !== '(') {
    if (rest[1] === '!') throw new Error('it is negated more than once: write a single leading ! (or none)');
    negated = true;
    rest = rest.slice(1);
  }
  while (rest.startsWith('./')) rest = rest.slice(2);
  if (rest === '') throw new Error(negated ? 'it negates nothing: write the glob after the !' : 'it is empty');
  return { negated, rest };
}

/** One pass over a glob (after its prefixes): `i` is the next character of `s`. */
class Reader {
  readonly tokens: GlobToken[] = [];
  private readonly braces: Array<{ at: number; comma: boolean }> = [];
  private prev: Prev = 'bos';
  // The segment so far while it is plain text: a `.` or `..` segment never matches a path.
  private segment: string | undefined = '';
  i = 0;

  constructor(private readonly glob: string, private readonly s: string) {}

  read(): GlobToken[] {
    while (this.i < this.s.length) this.step();
    if (this.braces.length > 0) throw new Error('a { is not closed: write \\{ for a literal {');
    this.endSegment();
    return this.tokens;
  }

  private push(token: GlobToken, kind: Prev): void {
    this.tokens.push(token);
    this.prev = kind;
    this.segment = token.type === 'text' && this.segment !== undefined ? this.segment + token.char : undefined;
  }

  private endSegment(): void {
    if (this.segment === '.' || this.segment === '..') throw new Error(`it has a ${this.segment} segment, and no path git stores has one`);
    this.segment = '';
  }

  private step(): void {
    const { s, i } = this;
    const char = s[i]!;
    const next = s[i + 1];
    this.i++;
    switch (char) {
      case '\\': return this.escape(next);
      case '*': return this.stars();
      case '[': return this.bracket();
      case '{':
        this.braces.push({ at: this.tokens.length, comma: false });
        return this.push({ type: 'open' }, 'brace');
      case ',': return this.comma();
      case '}': return this.closeBrace();
      case '/': return this.slash(next);
      case '.': return this.dot(next);
      case '?':
        if (next === '(') extglob(s, i);
        return this.push({ type: 'qmark' }, 'qmark');
      case '(':
      case ')':
      case '|':
        throw new Error(`${char} is special in micromatch (it becomes regex syntax): write \\${char} for a literal ${char}`);
      case '"':
        throw new Error('" quotes text in micromatch: write \\" for a literal "');
      case '+':
        if (next === '(') extglob(s, i);
        // After ] or { } micromatch leaves + as a regex quantifier.
        if (this.prev === 'bracket' || this.prev === 'brace') throw new Error('+ right after [ ] { or } repeats in micromatch: write \\+ for a literal +');
        return this.run(char);
      case '$':
      case '^':
        return this.run(char);
      case '@':
      case '!':
        if (next === '(') extglob(s, i);
        return this.push({ type: 'text', char }, 'text');
      default: {
        const text = HIGH_SURROGATE.test(char) ? s.slice(i, i + 2) : char;
        this.i = i + text.length;
        return this.push({ type: 'text', char: text }, 'text');
      }
    }
  }

  /** `$`, `^` or `+` as text: micromatch escapes only the first of a run, so `$$` becomes the regex `\$$`. */
  private run(char: string): void {
    if (this.s[this.i - 2] === char) throw new Error(`${char}${char} is read as regex syntax by micromatch: write ${char}\\${char}`);
    this.push({ type: 'text', char }, 'text');
  }

  private escape(next: string | undefined): void {
    if (next === undefined) throw new Error(`it ends with a lone \\: ${BACKSLASH}`);
    if (next === '\\') throw new Error(BACKSLASH);
    if (next === '/') throw new Error('\\/ escapes a path separator: write /');
    if (/[A-Za-z0-9]/.test(next)) throw new Error(`\\${next} has no glob meaning (micromatch reads it as a regex escape): write ${next}`);
    const text = HIGH_SURROGATE.test(next) ? this.s.slice(this.i, this.i + 2) : next;
    this.i += text.length;
    // micromatch drops the backslash of \. and reads the dot as it reads any other.
    if (next === '.') this.dot(this.s[this.i]);
    else this.push({ type: 'text', char: text }, 'text');
  }

  private dot(after: string | undefined): void {
    if (this.braces.length > 0) {
      // Inside braces micromatch reads `..` as a range and gives `.*` a rule of its own.
      if (this.prev === 'dot') throw new Error('.. inside braces is a range in micromatch ({1..5}), which lore does not support: list the alternatives, as in {1,2,3,4,5}');
      if (after === '*') throw new Error('.* inside braces does not match names ending in . in micromatch: put .* outside the braces, or write two globs');
    }
    this.push({ type: 'text', char: '.' }, this.braces.length > 0 || this.prev === 'bos' || this.prev === 'slash' ? 'dot' : 'text');
  }

  private bracket(): void {
    const at = this.i - 1;
    // micromatch reads [ as a class only when a ] follows somewhere.
    if (!this.s.includes(']', this.i)) return this.push({ type: 'text', char: '[' }, 'bracket');
    const parsed = parseClass(this.s, at);
    this.i = parsed.end;
    this.push({ type: 'class', class: parsed }, 'bracket');
  }

  private comma(): void {
    const group = this.braces[this.braces.length - 1];
    if (group === undefined) return this.push({ type: 'text', char: ',' }, 'comma');
    group.comma = true;
    this.push({ type: 'comma' }, 'comma');
  }

  private closeBrace(): void {
    const group = this.braces.pop();
    if (group === undefined) return this.push({ type: 'text', char: '}' }, 'text');
    // micromatch rebuilds braces without a comma as literal text, and loses part of the text between.
    if (!group.comma) throw new Error('{...} without a comma is literal text in micromatch, which does not always keep the text inside: write \\{ and \\} for literal braces, or list alternatives with commas');
    this.push({ type: 'close' }, 'brace');
  }

  private slash(next: string | undefined): void {
    const { glob, s } = this;
    if (this.i === 1) throw new Error(`it starts with /, but paths are relative to the repository root: write ${glob.slice(0, glob.length - s.length)}${s.slice(1)}`);
    if (next === '/') throw new Error('it has an empty segment (//): write /');
    if (next === undefined) throw new Error(`it ends with /, and no path does: write ${glob}** to match everything under it`);
    this.endSegment();
    this.push({ type: 'slash' }, 'slash');
    this.segment = '';
  }

  private stars(): void {
    const { s } = this;
    const start = this.i - 1;
    let end = this.i;
    while (s[end] === '*') end++;
    if (s[end] === '(') extglob(s, end - 1);
    if (end - start === 1) return this.push({ type: 'star' }, 'star');
    if (end - start > 2) throw new Error('*** is read as * by micromatch: write * (within a segment) or ** (any number of segments)');
    if (!(this.prev === 'bos' || this.prev === 'slash') || !(s[end] === undefined || s[end] === '/')) throw new Error(WHOLE_SEGMENT);
    // micromatch reads a/**/**/b as a/**/b.
    while (s.startsWith('/**', end) && (s[end + 3] === undefined || s[end + 3] === '/')) end += 3;
    this.i = end;
    let form: GlobstarForm;
    if (this.prev === 'bos') {
      form = s[end] === undefined ? 'all' : 'lead';
    } else {
      // The slash before is part of the globstar's form.
      if (this.tokens.pop()?.type !== 'slash') throw new Error(WHOLE_SEGMENT);
      form = s[end] !== undefined ? 'middle' : this.tokens[this.tokens.length - 1]?.type === 'star' ? 'tail-after-star' : 'tail';
    }
    this.push({ type: 'globstar', form }, 'globstar');
    this.segment = '';
    if (s[end] !== '/') return;
    // The slash after is part of the form too.
    this.i++;
    this.prev = 'slash';
    if (s[this.i] === '/') throw new Error('it has an empty segment (//): write /');
    if (s[this.i] === undefined) throw new Error(`it ends with /, and no path does: write ${this.glob.slice(0, -1)} instead`);
  }
}

/** Parses a glob; throws an Error saying why it is refused and what to write instead. */
export function parseGlob(glob: string): ParsedGlob {
  if (glob.length > MAX_GLOB_LENGTH) throw new Error(`it is longer than ${MAX_GLOB_LENGTH} characters`);
  if (glob.includes('\0')) throw new Error('it contains a NUL character');
  if (LONE_SURROGATE.test(glob)) throw new Error('it contains a lone surrogate (not valid text)');
  const { negated, rest } = prefixes(glob);
  const tokens = new Reader(glob, rest).read();
  // micromatch compiles these two globs by a shortcut of its own, where the last * is not empty.
  if ((glob[0] === '.' || glob[0] === '*') && (rest === '*.*' || rest === '**/*.*') && (glob.startsWith('./') ? glob.slice(2) : glob) === rest) {
    tokens[tokens.length - 1] = { type: 'star', nonEmpty: true };
  }
  return { negated, tokens };
}

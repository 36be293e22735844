// The narrow YAML that lore writes (canonical.ts, config-template.ts), read line by line without
// the YAML parser: mappings nested two spaces a level, of scalars, of lists (`- ` two spaces in) of
// scalars or of mappings, of one-line lists of integers, one scalar per line, or text of several
// lines in a literal block (`|-` or `|`), with comment lines at the column of a mapping's keys.
// yaml's parser takes about 0.2 ms for a record, most of a cold `lore validate` of 10,000 records,
// and loading it 30 ms of a command's start; these lines take a few microseconds. Only forms that
// read the same as yaml reads them (YAML 1.2, core schema) are taken; for any other line (other
// indentation, folded blocks, a block with an indentation or keep indicator or a line of blanks,
// comments elsewhere, CRLF, tabs, non-ASCII plain text, repeated keys...) readPlainYaml gives
// undefined and the parser reads the whole text. tests/plain-yaml.test.ts holds every form, and
// random texts, against yaml's reading.

/** A plain (unquoted) scalar as yaml's visit meets it: keys and values in document order. */
export interface PlainScalar {
  source: string;
  value: unknown;
  /** 1-based, in the text given. */
  line: number;
  column: number;
}

export interface PlainYaml {
  value: Record<string, unknown>;
  /** The plain scalars, for the YAML 1.1 warnings (parse.ts). */
  plain: PlainScalar[];
  /** How deep collections nest: 1 for scalars only, 2 with lists or mappings in the top one, and so on. */
  depth: number;
}

/** A key line: `key: value` or `key:` over a nested list or mapping. yaml refuses implicit keys past 1024 characters. */
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_]{0,127}):(?: (.+))?$/;
const COMMENT_LINE = /^#[\x20-\x7e]*$/;
/** Numbers written as they are read: no sign but minus, no leading zero, no exponent, within double precision. */
const INT = /^-?(?:0|[1-9][0-9]{0,14})$/;
const FLOAT = /^-?(?:0|[1-9][0-9]{0,14})\.[0-9]{1,15}$/;
/** A one-line flow list of integers, as canonical.ts writes number tuples: `[4, 6]`. */
const INT_LIST = /^\[-?(?:0|[1-9][0-9]{0,14})(?:, -?(?:0|[1-9][0-9]{0,14}))*\]$/;
/**
 * Plain text: printable ASCII (`: `, ` #` and the ends are checked apart) starting with a letter, `_`,
 * one of `\ ( / $ ^`, a dot then a letter, `/`, `_` or `-` (a file name; `.inf` and `.nan` are taken
 * apart), or `-` then a letter or `-` (`-----BEGIN`): never an indicator, nor a number's start.
 */
const PLAIN_TEXT = /^(?:[A-Za-z_\\(/$^]|\.[A-Za-z_/-]|-[A-Za-z-])[\x20-\x7e]*$/;
/** The core schema's words for infinity and not-a-number. */
const DOT_WORDS = new Set(['.inf', '.Inf', '.INF', '.nan', '.NaN', '.NAN']);
/** A double-quoted scalar whose escapes mean the same in JSON: JSON.parse reads it. */
const QUOTED = /^"(?:[^"\\\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]|[\ud800-\udbff][\udc00-\udfff]|\\["\\/bfnrt])*"$/;
/** A single-quoted scalar (yaml writes one for text holding `"`): `''` stands for `'`, nothing else is escaped. */
const SINGLE_QUOTED = /^'(?:[^'\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]|[\ud800-\udbff][\udc00-\udfff]|'')*'$/;
/** A line of a literal block past its indentation: printable text as in QUOTED, tabs allowed, not starting with a space or tab. */
const BLOCK_LINE = /^(?:[^\x00-\x20\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]|[\ud800-\udbff][\udc00-\udfff])(?:[^\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]|[\ud800-\udbff][\udc00-\udfff])*$/;
/** The same, where it may start with spaces or a tab (after the block's first line, which sets the indentation). */
const BLOCK_TEXT = /^(?:[^\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]|[\ud800-\udbff][\udc00-\udfff])*$/;
/** A line of spaces and tabs only: inside a block, yaml reads it by rules this reader leaves to it. */
const BLANK = /^[ \t]+$/;

/** The core schema's words for null and the booleans. */
const WORDS = new Map<string, unknown>([
  ['null', null], ['Null', null], ['NULL', null],
  ['true', true], ['True', true], ['TRUE', true],
  ['false', false], ['False', false], ['FALSE', false],
]);

/** Marks a scalar this reader does not take. */
const OTHER = Symbol('other');

/** The value of scalar text `source` at (line, column); plain ones are noted in `plain`. */
function scalar(source: string, line: number, column: number, plain: PlainScalar[]): unknown {
  if (source.startsWith('"')) return QUOTED.test(source) ? (JSON.parse(source) as string) : OTHER;
  if (source.startsWith("'")) return SINGLE_QUOTED.test(source) ? source.slice(1, -1).replaceAll("''", "'") : OTHER;
  let value: unknown;
  if (WORDS.has(source)) value = WORDS.get(source);
  else if (INT.test(source) || FLOAT.test(source)) value = Number(source);
  else if (PLAIN_TEXT.test(source) && !DOT_WORDS.has(source) && !source.includes(': ') && !source.includes(' #') && !source.endsWith(':') && !source.endsWith(' ')) value = source;
  else return OTHER;
  plain.push({ source, value, line, column });
  return value;
}

/** Whether `key` may be added to `map`: a repeated key is the parser's error, a word key is not a string, __proto__ is an own key to yaml. */
function newKey(map: Record<string, unknown>, key: string): boolean {
  return !Object.hasOwn(map, key) && !WORDS.has(key) && key !== '__proto__';
}

/** The number of spaces a line starts with. */
function indentOf(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 0x20) n++;
  return n;
}

/** Whether `line`, indented `indent`, is a comment of printable ASCII at `column`. */
function isComment(line: string, column: number, indent: number): boolean {
  return indent === column && line.charCodeAt(column) === 0x23 && COMMENT_LINE.test(line.slice(column));
}

/** The record in `text` when all of it is in the narrow form above; undefined sends it to the parser. */
export function readPlainYaml(text: string): PlainYaml | undefined {
  return new LineReader(text).record();
}

/** The deepest nesting read here (records nest 4 deep): a deeper text goes to the parser, which reports nesting past the limit. */
const MAX_LEVEL = 64;

/** Marks the end of a mapping or list: the next line is indented less, or there is none. */
const END = Symbol('end');

/** Reads the lines of one text in order: `at` is the line being read (0-based). */
class LineReader {
  private readonly lines: string[];
  private at = 0;
  private readonly plain: PlainScalar[] = [];
  private depth = 1;

  constructor(private readonly text: string) {
    this.lines = text.split('\n');
    if (this.lines[this.lines.length - 1] === '') this.lines.pop();
  }

  /** The whole text as a mapping of keys, or undefined. */
  record(): PlainYaml | undefined {
    const { lines } = this;
    while (this.at < lines.length && COMMENT_LINE.test(lines[this.at]!)) this.at++;
    if (this.at === lines.length) return undefined; // no content: the parser says the file is empty
    const value = this.mapping(0, 1);
    if (value === OTHER) return undefined;
    return { value, plain: this.plain, depth: this.depth };
  }

  /**
   * The `key: value` lines of a mapping whose keys stand at `column` (0-based), the first on the
   * current line (after `- ` in a list item), at nesting `level`; the reader moves to its last line.
   */
  private mapping(column: number, level: number): Record<string, unknown> | typeof OTHER {
    if (level > MAX_LEVEL) return OTHER;
    this.depth = Math.max(this.depth, level);
    const map: Record<string, unknown> = {};
    for (;;) {
      const match = KEY_LINE.exec(this.lines[this.at]!.slice(column));
      if (match === null) return OTHER;
      const key = match[1]!;
      if (!newKey(map, key)) return OTHER;
      this.plain.push({ source: key, value: key, line: this.at + 1, column: column + 1 });
      const value = this.value(match[2], column, key.length, level);
      if (value === OTHER) return OTHER;
      map[key] = value;
      const next = this.nextKey(column);
      if (next === END) return map;
      if (next === OTHER) return OTHER;
      this.at = next;
    }
  }

  /** The line of the mapping's next key at `column`, past comment lines at that column; END when the next line is indented less or there is none. */
  private nextKey(column: number): number | typeof END | typeof OTHER {
    const { lines } = this;
    let j = this.at + 1;
    for (; j < lines.length; j++) {
      const indent = indentOf(lines[j]!);
      if (indent < column) break;
      if (!isComment(lines[j]!, column, indent)) return indent === column ? j : OTHER;
    }
    this.at = j - 1; // past its comments
    return END;
  }

  /** The value after `key:` (`rest` after its `: `) of a key at `column`: a scalar, a literal block, numbers, or a nested list or mapping. */
  private value(rest: string | undefined, column: number, keyLength: number, level: number): unknown {
    if (rest === undefined) return this.nested(column + 2, level + 1);
    if (rest === '[]' || INT_LIST.test(rest)) return this.numbers(rest, column + keyLength + 4, level + 1);
    if (rest.startsWith('|')) return this.block(rest, column + 2);
    return scalar(rest, this.at + 1, column + keyLength + 3, this.plain);
  }

  /** What follows a `key:` line, two columns in: `- ` items, or keys (after comment lines at their column). */
  private nested(column: number, level: number): unknown {
    const { lines } = this;
    const next = lines[this.at + 1];
    if (next === undefined) return OTHER; // `key:` alone is null
    if (next.startsWith(`${' '.repeat(column)}- `)) return this.list(column, level);
    let j = this.at + 1;
    while (j < lines.length && isComment(lines[j]!, column, indentOf(lines[j]!))) j++;
    if (j === lines.length || indentOf(lines[j]!) !== column) return OTHER;
    this.at = j;
    return this.mapping(column, level);
  }

  /** The `- ` items at `column` from the next line on: scalars or mappings. */
  private list(column: number, level: number): unknown[] | typeof OTHER {
    const { lines } = this;
    const prefix = `${' '.repeat(column)}- `;
    const items: unknown[] = [];
    if (level > MAX_LEVEL) return OTHER;
    this.depth = Math.max(this.depth, level);
    while (this.at + 1 < lines.length && lines[this.at + 1]!.startsWith(prefix)) {
      this.at++;
      const itemText = lines[this.at]!.slice(prefix.length);
      const pair = KEY_LINE.exec(itemText);
      const item = pair !== null ? this.mapping(prefix.length, level + 1) : scalar(itemText, this.at + 1, prefix.length + 1, this.plain);
      if (item === OTHER) return OTHER;
      items.push(item);
    }
    return items;
  }

  /** A one-line flow list of integers (`[4, 6]`, `[]`) starting at `column`. */
  private numbers(source: string, column: number, level: number): number[] {
    const numbers: number[] = [];
    for (const part of source === '[]' ? [] : source.slice(1, -1).split(', ')) {
      numbers.push(Number(part));
      this.plain.push({ source: part, value: Number(part), line: this.at + 1, column });
      column += part.length + 2;
    }
    this.depth = Math.max(this.depth, level);
    return numbers;
  }

  /**
   * The text of a literal block (`|-`: no final line break, or `|`: one) whose lines follow the
   * current one, each indented `indent` spaces, the first with no more; the reader moves to its last
   * line (trailing empty lines included). OTHER for any other block or header.
   */
  private block(header: string, indent: number): string | typeof OTHER {
    if (header !== '|-' && header !== '|') return OTHER;
    const { lines } = this;
    const margin = ' '.repeat(indent);
    const content: string[] = [];
    let last = -1; // the last line with text
    let j = this.at + 1;
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      if (line === '') {
        content.push('');
        continue;
      }
      if (BLANK.test(line)) return OTHER;
      if (!line.startsWith(margin)) break;
      const rest = line.slice(indent);
      if (!(last === -1 ? BLOCK_LINE : BLOCK_TEXT).test(rest)) return OTHER;
      content.push(rest);
      last = content.length - 1;
    }
    if (last === -1) return OTHER;
    // `|` keeps the last line's break; where the text ends without one, readers differ (yaml 2.9 adds one).
    if (header === '|' && j === lines.length && !this.text.endsWith('\n')) return OTHER;
    this.at = j - 1;
    const body = content.slice(0, last + 1).join('\n');
    return header === '|' ? `${body}\n` : body;
  }
}

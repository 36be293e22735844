// The narrow YAML that lore writes (canonical.ts), read line by line without the YAML parser: a
// mapping of scalars, of lists of scalars and of lists of flat mappings (an entry's examples), one
// scalar per line, or text of several lines in a literal block (`|-` or `|`). yaml's parser takes
// about 0.2 ms for a record, most of a cold `lore validate` of 10,000 records; these lines take a
// few microseconds. Only forms that read the same as yaml reads them (YAML 1.2, core schema) are
// taken; for any other line (deeper nesting, folded blocks, a block with an indentation or keep
// indicator or a line of blanks, comments after the first key, CRLF, tabs, non-ASCII plain text,
// repeated keys...) readPlainYaml gives undefined and the parser reads the whole text.
// tests/plain-yaml.test.ts holds every form, and random texts, against yaml's reading.

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
  /** How deep collections nest: 1 for scalars only, 2 with lists, 3 with mappings in lists. */
  depth: number;
}

/** A key line: `key: value` or `key:` over list items. yaml refuses implicit keys past 1024 characters. */
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_]{0,127}):(?: (.+))?$/;
const ITEM = '  - ';
/** The indent of a list item's further `key: value` lines. */
const ITEM_MAP = '    ';
const COMMENT_LINE = /^#[\x20-\x7e]*$/;
/** Numbers written as they are read: no sign but minus, no leading zero, no exponent, within double precision. */
const INT = /^-?(?:0|[1-9][0-9]{0,14})$/;
const FLOAT = /^-?(?:0|[1-9][0-9]{0,14})\.[0-9]{1,15}$/;
/** A one-line flow list of integers, as canonical.ts writes number tuples: `[4, 6]`. */
const INT_LIST = /^\[-?(?:0|[1-9][0-9]{0,14})(?:, -?(?:0|[1-9][0-9]{0,14}))*\]$/;
/** Plain text: a letter or `_` first, then printable ASCII (`: `, ` #` and the ends are checked apart). */
const PLAIN_TEXT = /^[A-Za-z_][\x20-\x7e]*$/;
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
  else if (PLAIN_TEXT.test(source) && !source.includes(': ') && !source.includes(' #') && !source.endsWith(':') && !source.endsWith(' ')) value = source;
  else return OTHER;
  plain.push({ source, value, line, column });
  return value;
}

/** Whether `key` may be added to `map`: a repeated key is the parser's error, a word key is not a string, __proto__ is an own key to yaml. */
function newKey(map: Record<string, unknown>, key: string): boolean {
  return !Object.hasOwn(map, key) && !WORDS.has(key) && key !== '__proto__';
}

/** The record in `text` when all of it is in the narrow form above; undefined sends it to the parser. */
export function readPlainYaml(text: string): PlainYaml | undefined {
  return new LineReader(text).record();
}

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
    const value: Record<string, unknown> = {};
    for (; this.at < lines.length; this.at++) {
      const match = KEY_LINE.exec(lines[this.at]!);
      if (match === null) return undefined;
      const key = match[1]!;
      if (!newKey(value, key)) return undefined;
      this.plain.push({ source: key, value: key, line: this.at + 1, column: 1 });
      const rest = match[2];
      const item = rest === undefined ? this.list() : rest === '[]' || INT_LIST.test(rest) ? this.numbers(rest, key.length + 4) : this.scalarOrBlock(rest, key.length + 3, 2);
      if (item === OTHER) return undefined;
      value[key] = item;
    }
    return { value, plain: this.plain, depth: this.depth };
  }

  /** The value after `key: ` at `column` (1-based): a scalar, or a literal block indented `indent`. */
  private scalarOrBlock(source: string, column: number, indent: number): unknown {
    return source.startsWith('|') ? this.block(source, indent) : scalar(source, this.at + 1, column, this.plain);
  }

  /** The `  - ` items after a `key:` line: scalars or flat mappings. */
  private list(): unknown[] | typeof OTHER {
    const { lines } = this;
    const items: unknown[] = [];
    while (this.at + 1 < lines.length && lines[this.at + 1]!.startsWith(ITEM)) {
      this.at++;
      const itemText = lines[this.at]!.slice(ITEM.length);
      const pair = KEY_LINE.exec(itemText);
      // `  - key: value` starts a mapping; `key:` alone would nest deeper (and is refused as a scalar).
      const isMap = pair !== null && pair[2] !== undefined;
      const item = isMap ? this.itemMap(pair) : scalar(itemText, this.at + 1, ITEM.length + 1, this.plain);
      if (item === OTHER) return OTHER;
      if (isMap) this.depth = 3;
      items.push(item);
    }
    if (items.length === 0) return OTHER; // `key:` alone is null, or something nested follows
    this.depth = Math.max(this.depth, 2);
    return items;
  }

  /** A one-line flow list of integers (`[4, 6]`, `[]`) starting at `column`. */
  private numbers(source: string, column: number): number[] {
    const numbers: number[] = [];
    for (const part of source === '[]' ? [] : source.slice(1, -1).split(', ')) {
      numbers.push(Number(part));
      this.plain.push({ source: part, value: Number(part), line: this.at + 1, column });
      column += part.length + 2;
    }
    this.depth = Math.max(this.depth, 2);
    return numbers;
  }

  /** The `key: scalar` lines of a list item from the current line on (the first after `  - `), as a mapping. */
  private itemMap(first: RegExpExecArray): Record<string, unknown> | typeof OTHER {
    const { lines } = this;
    const map: Record<string, unknown> = {};
    for (let match = first; ; this.at++) {
      const key = match[1]!;
      if (!newKey(map, key)) return OTHER;
      this.plain.push({ source: key, value: key, line: this.at + 1, column: ITEM.length + 1 });
      const item = this.scalarOrBlock(match[2]!, ITEM.length + key.length + 3, ITEM_MAP.length + 2);
      if (item === OTHER) return OTHER;
      map[key] = item;
      if (this.at + 1 === lines.length || !lines[this.at + 1]!.startsWith(ITEM_MAP)) return map;
      const next = KEY_LINE.exec(lines[this.at + 1]!.slice(ITEM_MAP.length));
      if (next === null || next[2] === undefined) return OTHER;
      match = next;
    }
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

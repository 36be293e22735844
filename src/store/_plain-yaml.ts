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
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let i = 0;
  while (i < lines.length && COMMENT_LINE.test(lines[i]!)) i++;
  if (i === lines.length) return undefined; // no content: the parser says the file is empty
  const value: Record<string, unknown> = {};
  const plain: PlainScalar[] = [];
  let depth = 1;
  /**
   * The text of a literal block (`|-`: no final line break, or `|`: one) whose lines follow line i,
   * each indented `indent` spaces past its key's indentation, the first with no more; i moves to
   * its last line (trailing empty lines included). OTHER for any other block or header.
   */
  const block = (header: string, indent: number): string | typeof OTHER => {
    if (header !== '|-' && header !== '|') return OTHER;
    const margin = ' '.repeat(indent);
    const content: string[] = [];
    let last = -1; // the last line with text
    let j = i + 1;
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
    if (header === '|' && j === lines.length && !text.endsWith('\n')) return OTHER;
    i = j - 1;
    const body = content.slice(0, last + 1).join('\n');
    return header === '|' ? `${body}\n` : body;
  };
  /** The `key: scalar` lines of a list item from line i on (the first after `  - `), as a mapping. */
  const itemMap = (first: RegExpExecArray): Record<string, unknown> | undefined => {
    const map: Record<string, unknown> = {};
    for (let match = first; ; i++) {
      const key = match[1]!;
      if (!newKey(map, key)) return undefined;
      plain.push({ source: key, value: key, line: i + 1, column: ITEM.length + 1 });
      const item = match[2]!.startsWith('|') ? block(match[2]!, ITEM_MAP.length + 2) : scalar(match[2]!, i + 1, ITEM.length + key.length + 3, plain);
      if (item === OTHER) return undefined;
      map[key] = item;
      if (i + 1 === lines.length || !lines[i + 1]!.startsWith(ITEM_MAP)) return map;
      const next = KEY_LINE.exec(lines[i + 1]!.slice(ITEM_MAP.length));
      if (next === null || next[2] === undefined) return undefined;
      match = next;
    }
  };
  for (; i < lines.length; i++) {
    const match = KEY_LINE.exec(lines[i]!);
    if (match === null) return undefined;
    const key = match[1]!;
    if (!newKey(value, key)) return undefined;
    plain.push({ source: key, value: key, line: i + 1, column: 1 });
    const rest = match[2];
    if (rest === undefined) {
      const items: unknown[] = [];
      while (i + 1 < lines.length && lines[i + 1]!.startsWith(ITEM)) {
        i++;
        const itemText = lines[i]!.slice(ITEM.length);
        const pair = KEY_LINE.exec(itemText);
        // `  - key: value` starts a mapping; `key:` alone would nest deeper (and is refused as a scalar).
        const isMap = pair !== null && pair[2] !== undefined;
        const item = isMap ? itemMap(pair) : scalar(itemText, i + 1, ITEM.length + 1, plain);
        if (item === OTHER || item === undefined) return undefined;
        if (isMap) depth = 3;
        items.push(item);
      }
      if (items.length === 0) return undefined; // `key:` alone is null, or something nested follows
      value[key] = items;
      depth = Math.max(depth, 2);
    } else if (rest === '[]' || INT_LIST.test(rest)) {
      const numbers: number[] = [];
      let column = key.length + 4; // past `key: [`
      for (const part of rest === '[]' ? [] : rest.slice(1, -1).split(', ')) {
        numbers.push(Number(part));
        plain.push({ source: part, value: Number(part), line: i + 1, column });
        column += part.length + 2;
      }
      value[key] = numbers;
      depth = Math.max(depth, 2);
    } else {
      const item = rest.startsWith('|') ? block(rest, 2) : scalar(rest, i + 1, key.length + 3, plain);
      if (item === OTHER) return undefined;
      value[key] = item;
    }
  }
  return { value, plain, depth };
}

// YAML 1.1 readers (PyYAML, SnakeYAML, Ruby's Psych, go-yaml v2) read some plain scalars as other
// types than YAML 1.2 does, which lore reads: `2027-06-30` is a date to them, `yes`/`no`/`on`/`off`
// booleans, `0755` an octal number. lore writes such strings quoted (canonical.ts) and warns about
// unquoted ones it reads (parse.ts), so scripts in other languages read .knowledge/ as lore does.
import { yaml } from './_yaml.js';
import { isDeepStrictEqual } from 'node:util';

/**
 * Text a YAML 1.1 reader surely reads as a string: it starts with a letter and holds only letters,
 * digits, spaces and `_ . , ' ( ) / -` (no indicator, no comment), so only a whole word like `yes`,
 * `Off`, `null` or `e5` (a float to yaml's 1.1 schema) can be something else. Most titles and
 * keywords are such text, and skip the parser.
 */
const PLAIN_WORDS = /^[A-Za-z][\w .,'()/-]*$/;
const YAML11_WORD = /^\s*(?:y|n|yes|no|true|false|on|off|null|e[-+]?\d+)\s*$/i;
const LETTER_FIRST = /^[A-Za-z]/;
/**
 * A decimal number both versions read as the same number: no sign but minus, no leading zero
 * (0755 is octal to 1.1), no `_`, `:` or exponent (-0 and -0.5 are left to the parser).
 * `version: 1` skips the parser (loading it is about 45 ms of a command).
 */
const SAME_NUMBER = /^(?:0|-?[1-9][0-9]{0,14})(?:\.[0-9]{1,15})?$/;
/**
 * Other starts of text a YAML 1.1 reader reads as a string, as patterns and file names start: one of
 * `_ \ ( / $ ^`, a dot then a letter, `/` or `-`, or `-` then a letter or `-`. No 1.1 number, date,
 * boolean, null, merge key or value starts so, but for the floats of NUMBER_WORD (`.inf`, `-e3`).
 */
const STRING_START = /^(?:[_\\(/$^]|\.[A-Za-z/-]|-[A-Za-z-])/;
/** Floats to yaml's 1.1 schema that start with a dot or sign and a letter (and `-nan`, a string, with them). */
const NUMBER_WORD = /^[-+]?\.?(?:[eE][-+]?[0-9]+|inf|Inf|INF|nan|NaN|NAN)$/;
/** The words both versions read alike, as in `enabled: true`: they skip the parser. */
const SAME_WORDS = new Map<string, unknown>([
  ['true', true], ['True', true], ['TRUE', true], ['false', false], ['False', false], ['FALSE', false], ['null', null], ['Null', null], ['NULL', null],
]);

/** What a YAML 1.1 reader makes of this plain scalar text, or undefined when surely the same string. */
function yaml11Value(text: string): { value: unknown } | undefined {
  if (text.length > 40 || text.includes('\n')) return undefined;
  if (PLAIN_WORDS.test(text) && !YAML11_WORD.test(text)) return undefined;
  try {
    // Quietly: text such as `!x` makes yaml warn (an unknown tag), and the warning is not lore's to print.
    return { value: yaml().parse(text, { version: '1.1', logLevel: 'error' }) as unknown };
  } catch {
    return undefined;
  }
}

/** Whether a YAML 1.1 reader would read this string, written plain, as something else. */
export function misreadByYaml11(text: string): boolean {
  const read = yaml11Value(text);
  return read !== undefined && typeof read.value !== 'string';
}

/** Whether a YAML 1.1 reader would read the plain scalar `source` as another value than lore's `value`. */
export function readDifferentlyByYaml11(source: string, value: unknown): boolean {
  // A plain scalar's type comes from its whole text, and YAML 1.1 reads every one that starts with
  // a letter as a string but for the words: globs, patterns and `Name <email>` skip the parser. A
  // key like `a:` (from `a:: b`) is left to it: read alone, it is a mapping, and warned about.
  if ((LETTER_FIRST.test(source) ? !YAML11_WORD.test(source) : STRING_START.test(source) && !NUMBER_WORD.test(source)) && !source.endsWith(':')) return false;
  if (SAME_WORDS.has(source)) return SAME_WORDS.get(source) !== value;
  if (typeof value === 'number' && SAME_NUMBER.test(source)) return Number(source) !== value;
  const read = yaml11Value(source);
  if (read === undefined) return false;
  // Dates compare by type: a 1.1 reader's Date is never lore's string.
  return read.value instanceof Date || !isDeepStrictEqual(read.value, value);
}

/** The type a YAML 1.1 reader gives a value, in words. */
export function yaml11TypeOf(source: string): string {
  const value = yaml11Value(source)?.value;
  return value instanceof Date ? 'a date' : typeof value === 'boolean' ? 'a boolean' : typeof value === 'number' ? `the number ${value}` : value === null ? 'null' : 'another value';
}

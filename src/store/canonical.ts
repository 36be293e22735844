// The canonical text of a record: keys in the schema's order, two-space YAML, LF, a trailing
// newline and the `$schema=` comment first. The same record always gives the same bytes.
import YAML, { isScalar, Scalar, visit, type YAMLSeq } from 'yaml';
import { resolveRef, type JsonSchema } from '../schema/schemas.js';

/** Orders an object's keys as its schema lists them; keys the schema does not list keep their order after. */
export function orderKeys(value: unknown, schema: JsonSchema | undefined, root: JsonSchema): unknown {
  if (Array.isArray(value)) {
    const items = schema === undefined ? undefined : resolveRef(root, schema).items;
    const itemSchema = items === undefined ? undefined : resolveRef(root, items);
    return value.map((item) => orderKeys(item, itemSchema, root));
  }
  if (value === null || typeof value !== 'object') return value;
  const resolved = schema === undefined ? undefined : resolveRef(root, schema);
  // A value matching a branch of anyOf (a string or an object) is ordered by the object branch.
  const objectSchema = resolved?.properties === undefined ? resolved?.anyOf?.map((s) => resolveRef(root, s)).find((s) => s.properties !== undefined) ?? resolved : resolved;
  const properties = objectSchema?.properties ?? {};
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(properties)) {
    if (key in record && record[key] !== undefined) out[key] = orderKeys(record[key], properties[key], root);
  }
  for (const key of Object.keys(record)) {
    if (!(key in properties) && record[key] !== undefined) out[key] = orderKeys(record[key], undefined, root);
  }
  return out;
}

/**
 * Text a YAML 1.1 reader surely reads as a string: it starts with a letter and holds only letters,
 * digits, spaces and `_ . , ' ( ) / -` (no indicator, no comment), so only a whole word like `yes`,
 * `Off`, `null` or `e5` (a float to yaml's 1.1 schema) can be something else. Most titles and
 * keywords are such text, and skip the parser.
 */
const PLAIN_WORDS = /^[A-Za-z][\w .,'()/-]*$/;
const YAML11_WORD = /^\s*(?:y|n|yes|no|true|false|on|off|null|e[-+]?\d+)\s*$/i;

/** Whether a YAML 1.1 reader (PyYAML, SnakeYAML, ...) would read this plain string as something else. */
function misreadByYaml11(text: string): boolean {
  if (text.length > 40 || text.includes('\n')) return false;
  if (PLAIN_WORDS.test(text) && !YAML11_WORD.test(text)) return false;
  try {
    return typeof YAML.parse(text, { version: '1.1' }) !== 'string';
  } catch {
    return false;
  }
}

/** Serialises a record canonically, with `comment` (the `$schema=` line) first. */
export function toCanonicalYaml(value: unknown, schema: JsonSchema, comment: string): string {
  const doc = new YAML.Document(orderKeys(value, schema, schema));
  visit(doc, {
    Seq(_key, node: YAMLSeq) {
      // Number tuples (complexity_range) read best on one line: [4, 6].
      if (node.items.length > 0 && node.items.every((item) => isScalar(item) && typeof item.value === 'number')) node.flow = true;
    },
    Scalar(_key, node: Scalar) {
      // Quote strings that other YAML readers would turn into booleans, numbers or dates.
      if (typeof node.value === 'string' && !node.value.includes('\n') && misreadByYaml11(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  const body = doc.toString({ lineWidth: 0, indent: 2, indentSeq: true, blockQuote: 'literal', flowCollectionPadding: false });
  return `${comment}\n${body}`;
}


// The canonical text of a record: keys in the schema's order, two-space YAML, LF, a trailing
// newline and the `$schema=` comment first. The same record always gives the same bytes.
import YAML, { isScalar, Scalar, visit, type YAMLSeq } from 'yaml';
import { resolveRef, type JsonSchema } from '../schema/schemas.js';
import { misreadByYaml11 } from './yaml11.js';

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
  // Own keys only, each defined, never assigned: a property named constructor, toString or
  // __proto__ (a graph entity's, say) is data like any other, neither skipped nor a prototype.
  const put = (key: string, schemaOf: JsonSchema | undefined): void => {
    if (record[key] !== undefined) Object.defineProperty(out, key, { value: orderKeys(record[key], schemaOf, root), enumerable: true, writable: true, configurable: true });
  };
  for (const key of Object.keys(properties)) if (Object.hasOwn(record, key)) put(key, properties[key]);
  for (const key of Object.keys(record)) if (!Object.hasOwn(properties, key)) put(key, undefined);
  return out;
}

/** Text of spaces, tabs and line breaks only, ending in a line break, whose first non-empty line starts with a space. */
const BLANK_LINES = /^\n* [\t \n]*\n$/;

/** Serialises a record canonically, with `comment` (the `$schema=` line) first. */
export function toCanonicalYaml(value: unknown, schema: JsonSchema, comment: string): string {
  const doc = new YAML.Document(orderKeys(value, schema, schema));
  visit(doc, {
    Seq(_key, node: YAMLSeq) {
      // Number tuples (complexity_range) read best on one line: [4, 6].
      if (node.items.length > 0 && node.items.every((item) => isScalar(item) && typeof item.value === 'number')) node.flow = true;
    },
    Scalar(_key, node: Scalar) {
      if (typeof node.value !== 'string') return;
      // Quote strings that other YAML readers would turn into booleans, numbers or dates, and lines
      // of blanks only whose first starts with a space: yaml (2.9) writes those as a block with no
      // indentation indicator, which reads back with the spaces taken for indentation, or not at all.
      if (node.value.includes('\n') ? BLANK_LINES.test(node.value) : misreadByYaml11(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  // Quoted strings stay on one line: where yaml (2.9) breaks one over lines, it writes a line of a
  // single space as `\\ ` (a backslash, then a space) instead of `\ ` (an escaped space).
  const body = doc.toString({ lineWidth: 0, indent: 2, indentSeq: true, blockQuote: 'literal', flowCollectionPadding: false, doubleQuotedMinMultiLineLength: Number.POSITIVE_INFINITY });
  return `${comment}\n${body}`;
}


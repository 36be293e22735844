// A JSON Schema as tables people read: one row per field, its path (`gates.coverage.min`,
// `entities[].name`), type, whether it is required, its default and description. References are
// followed; a caller may instead have a reference shown as a link (a structure documented once).
import { resolveRef, type JsonSchema } from '../../src/schema/schemas.js';
import { code, table } from './_markdown.js';

export interface FieldRow {
  path: string;
  type: string;
  required: boolean;
  default: string;
  description: string;
}

/** A reference shown as a link instead of being followed: its text and where it points. */
export interface Link {
  text: string;
  href: string;
}

export interface SchemaView {
  /** The whole (bundled) document, for resolving `#/...` references. */
  root: JsonSchema;
  /** A link for a reference the page documents elsewhere, or undefined to follow it here. */
  link?: (ref: string, target: JsonSchema) => Link | undefined;
}

const TYPE_NAMES: Record<string, string> = { integer: 'integer', number: 'number', string: 'string', boolean: 'boolean', null: 'null', object: 'object', array: 'array' };

function linked(view: SchemaView, schema: JsonSchema): Link | undefined {
  return schema.$ref === undefined ? undefined : view.link?.(schema.$ref, resolveRef(view.root, schema));
}

/** The schema a reference leads to, with the referring schema's own description kept. */
function follow(view: SchemaView, schema: JsonSchema): JsonSchema {
  if (schema.$ref === undefined) return schema;
  const target = resolveRef(view.root, schema);
  return schema.description === undefined ? target : { ...target, description: schema.description };
}

function alternatives(schema: JsonSchema): JsonSchema[] {
  return ((schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined) ?? [];
}

function bounds(schema: JsonSchema): string {
  const [min, max] = [schema.minimum ?? schema.exclusiveMinimum, schema.maximum ?? schema.exclusiveMaximum] as Array<number | undefined>;
  if (min !== undefined && min === max) return ` ${min}`;
  if (min !== undefined && max !== undefined) return ` ${min}–${max}`;
  if (min !== undefined) return ` ≥ ${min}`;
  if (max !== undefined) return ` ≤ ${max}`;
  return '';
}

function literal(value: unknown): string {
  return code(typeof value === 'string' ? value : JSON.stringify(value));
}

/** The type of a value, for people: `integer ≥ 1`, `one of "low", "high"`, `array of string`, a link. */
export function typeText(view: SchemaView, schema: JsonSchema | boolean, depth = 0): string {
  if (typeof schema === 'boolean') return schema ? 'any' : 'nothing';
  const link = linked(view, schema);
  if (link !== undefined) return `[${link.text}](${link.href})`;
  if (depth > 8) return 'object';
  const s = follow(view, schema);
  if (s.enum !== undefined) return `one of ${s.enum.map(literal).join(', ')}`;
  if ('const' in s) return literal(s.const);
  const alts = alternatives(s);
  if (alts.length > 0) return [...new Set(alts.map((a) => typeText(view, a, depth + 1)))].join(' or ');
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  if (types.length === 0) return s.properties !== undefined ? 'object' : 'any';
  return types.map((type) => {
    if (type === 'array') {
      if (Array.isArray(s.prefixItems)) return `[${(s.prefixItems as JsonSchema[]).map((p) => typeText(view, p, depth + 1)).join(', ')}]`;
      if (s.items === undefined) return 'array';
      const item = typeText(view, s.items, depth + 1);
      return `array of ${item.split(' or ').map((one) => (TYPE_NAMES[one] === undefined ? one : `${one}s`)).join(' or ')}`;
    }
    if (type === 'object') {
      const values = s.additionalProperties;
      if (s.properties === undefined && typeof values === 'object') return `map of ${typeText(view, values, depth + 1)}`;
      return 'object';
    }
    if (type === 'string' && typeof s.format === 'string') return `string (${s.format})`;
    if (type === 'integer' || type === 'number') return `${type}${bounds(s)}`;
    return TYPE_NAMES[type] ?? type;
  }).join(' or ');
}

/** Whether a schema has fields of its own to list (an object with properties, or a list or map of them). */
export function hasFields(view: SchemaView, schema: JsonSchema | boolean | undefined, depth = 0): boolean {
  if (schema === undefined || typeof schema === 'boolean' || depth > 8 || linked(view, schema) !== undefined) return false;
  const s = follow(view, schema);
  if (s.properties !== undefined && Object.keys(s.properties).length > 0) return true;
  if (typeof s.items === 'object' && hasFields(view, s.items, depth + 1)) return true;
  if (typeof s.additionalProperties === 'object' && hasFields(view, s.additionalProperties, depth + 1)) return true;
  return alternatives(s).some((a) => hasFields(view, a, depth + 1));
}

function defaultText(schema: JsonSchema): string {
  return 'default' in schema ? literal(schema.default) : '';
}

/** The rows of the fields under `schema` (not a row for `schema` itself), their paths starting with `prefix`. */
export function fieldRows(view: SchemaView, schema: JsonSchema, prefix = '', seen: ReadonlySet<string> = new Set()): FieldRow[] {
  if (linked(view, schema) !== undefined) return [];
  const ref = schema.$ref;
  if (ref !== undefined && seen.has(ref)) return [];
  const inner = ref === undefined ? seen : new Set([...seen, ref]);
  const s = follow(view, schema);
  const rows: FieldRow[] = [];
  const required = new Set(s.required ?? []);
  const properties = Object.entries(s.properties ?? {}).filter((entry): entry is [string, JsonSchema] => typeof entry[1] !== 'boolean');
  const join = (name: string): string => (prefix === '' ? name : `${prefix}.${name}`);
  // Siblings of one structure (player and coach, each task type) list their fields once, under `*`.
  const refCount = new Map<string, number>();
  for (const [, child] of properties) if (child.$ref !== undefined) refCount.set(child.$ref, (refCount.get(child.$ref) ?? 0) + 1);
  const listed = new Set<string>();
  for (const [name, child] of properties) rows.push(fieldRow(view, child, join(name), required.has(name)), ...((refCount.get(child.$ref ?? '') ?? 0) > 1 ? [] : fieldRows(view, child, join(name), inner)));
  for (const [, child] of properties) {
    if ((refCount.get(child.$ref ?? '') ?? 0) < 2 || listed.has(child.$ref!)) continue;
    listed.add(child.$ref!);
    rows.push(...fieldRows(view, child, join('*'), inner));
  }
  if (typeof s.items === 'object' && !Array.isArray(s.items)) rows.push(...fieldRows(view, s.items, `${prefix}[]`, inner));
  if (typeof s.additionalProperties === 'object') rows.push(...fieldRows(view, s.additionalProperties, `${prefix}.<key>`.replace(/^\./, ''), inner));
  for (const alt of alternatives(s)) {
    for (const row of fieldRows(view, alt, prefix, inner)) if (!rows.some((r) => r.path === row.path)) rows.push(row);
  }
  return rows;
}

function fieldRow(view: SchemaView, schema: JsonSchema, path: string, required: boolean): FieldRow {
  const s = follow(view, schema);
  return { path, type: typeText(view, schema), required, default: defaultText(s), description: s.description ?? '' };
}

/** What an `allOf` of `if`/`then` adds: `arch_review_threshold` is required when `arch_review_required` is `true`. */
export function conditionNotes(view: SchemaView, schema: JsonSchema): string[] {
  const s = follow(view, schema);
  return ((s.allOf as JsonSchema[] | undefined) ?? []).flatMap((part) => {
    const when = part.if as JsonSchema | undefined;
    const then = part.then as JsonSchema | undefined;
    if (when === undefined || then === undefined || then.required === undefined) return [];
    const conditions = Object.entries(when.properties ?? {}).filter(([, v]) => typeof v === 'object' && 'const' in v).map(([k, v]) => `${code(k)} is ${literal((v as JsonSchema).const)}`);
    return [`${then.required.map(code).join(', ')} ${then.required.length === 1 ? 'is' : 'are'} required when ${conditions.join(' and ')}.`];
  });
}

/** One form of a line chosen by `if`/`then`/`else`: when it applies (`A line with \`deleted\``), its name and its schema. */
export interface SchemaForm {
  when: string;
  name: string;
  schema: JsonSchema;
}

/** The forms of a schema that picks one by `if`/`then`/`else` (a log line: a node, an artifact, a tombstone). */
export function schemaForms(schema: JsonSchema): SchemaForm[] {
  const forms: SchemaForm[] = [];
  let current: JsonSchema | undefined = schema;
  // The form's name from its definition's: artifactLine → artifact line.
  const named = (s: JsonSchema): string => (s.$ref?.split('/').pop() ?? 'value').replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  while (current?.if !== undefined && current.then !== undefined) {
    const when = current.if as JsonSchema;
    forms.push({ when: `A line with ${(when.required ?? []).map(code).join(' and ')}`, name: named(current.then as JsonSchema), schema: current.then as JsonSchema });
    const rest = current.else as JsonSchema | undefined;
    if (rest !== undefined && rest.if === undefined) forms.push({ when: 'Any other line', name: named(rest), schema: rest });
    current = rest;
  }
  return forms;
}

/** The table of a schema's fields, with the conditions `if`/`then` add below it; undefined when it has none. */
export function fieldsTable(view: SchemaView, schema: JsonSchema): string | undefined {
  const rows = fieldRows(view, schema);
  if (rows.length === 0) return undefined;
  const body = table(['Field', 'Type', 'Required', 'Default', 'Description'], rows.map((r) => [code(r.path), r.type, r.required ? 'yes' : '', r.default, r.description]));
  const notes = conditionNotes(view, schema);
  return notes.length === 0 ? body : `${body}\n\n${notes.map((n) => `- ${n}`).join('\n')}`;
}

// `--set field=value` edits of knowledge entries: the value is read as the field's schema type
// needs it — text as it is, true/false for flags, YAML or JSON for lists and objects.
import YAML from 'yaml';
import { UsageError, ValidationError } from '../errors.js';
import { loadSchema, resolveRef, type JsonSchema } from '../schema/schemas.js';
import { suggest } from '../schema/suggest.js';
import type { KnowledgeEntry } from '../types.js';

/** One `field=value` edit. */
export interface Assignment {
  field: string;
  /** The text after `=`; empty removes the field. */
  value: string;
}

/** Fields lore maintains itself: an edit may not set them. */
export const MANAGED_FIELDS: ReadonlySet<string> = new Set(['id', 'type', 'createdAt', 'updatedAt']);

/** Parses `field=value`; throws a UsageError for text without `=`. */
export function parseAssignment(text: string): Assignment {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`--set expects field=value (found ${JSON.stringify(text)})`, 'e.g. --set priority=high, --set keywords="[env, secrets]", --set details= (empty removes the field)');
  return { field: text.slice(0, at).trim(), value: text.slice(at + 1) };
}

function fieldSchema(field: string): JsonSchema {
  const root = loadSchema('knowledge-entry');
  const properties = root.properties ?? {};
  const schema = properties[field];
  if (schema === undefined || MANAGED_FIELDS.has(field)) {
    if (MANAGED_FIELDS.has(field)) throw new UsageError(`${field} cannot be set: lore maintains it`, field === 'type' ? 'to change the type, add a new entry and remove this one' : undefined);
    const hint = suggest(field, Object.keys(properties).filter((f) => !MANAGED_FIELDS.has(f)));
    throw new UsageError(`unknown field "${field}" in --set`, hint === undefined ? `fields: ${Object.keys(properties).filter((f) => !MANAGED_FIELDS.has(f)).join(', ')}` : `did you mean "${hint}"?`);
  }
  return resolveRef(root, schema);
}

/** The value of an assignment as the field's type needs it. */
export function convertValue(assignment: Assignment): unknown {
  const { field, value } = assignment;
  const schema = fieldSchema(field);
  if (schema.type === 'string' || schema.enum !== undefined) return value;
  let parsed: unknown;
  try {
    parsed = YAML.parse(value);
  } catch (error) {
    throw new ValidationError(`--set ${field}: the value is not valid YAML or JSON`, [{ severity: 'error', file: '--set', pointer: `/${field}`, message: `${field}: ${(error as Error).message.split('\n')[0]}` }]);
  }
  // A single word for a list of strings is a list of one: --set keywords=env.
  if (schema.type === 'array' && typeof parsed === 'string' && resolveRef(loadSchema('knowledge-entry'), schema.items ?? {}).type === 'string') return [parsed];
  return parsed;
}

/** Edits as an operation takes them: field → JSON value, null removing the field. */
export type FieldValues = Readonly<Record<string, unknown>>;

/** The JSON value of a `--set` assignment: null (remove the field) for an empty value. */
export function assignmentValue(assignment: Assignment): unknown {
  if (assignment.value !== '') return convertValue(assignment);
  fieldSchema(assignment.field);
  return null;
}

/**
 * Sets fields of an entry to JSON values; null removes the field. Throws a UsageError for a field
 * that is unknown or maintained by lore; the values are validated when the entry is written.
 *
 * @example
 * applyFieldValues(entry, { priority: 'high', keywords: ['env', 'secrets'], details: null });
 */
export function applyFieldValues(entry: KnowledgeEntry, fields: FieldValues): KnowledgeEntry {
  const out: Record<string, unknown> = { ...entry };
  for (const [field, value] of Object.entries(fields)) {
    fieldSchema(field);
    if (value === null) delete out[field];
    else out[field] = value;
  }
  return out as unknown as KnowledgeEntry;
}

/**
 * Applies `--set` edits to an entry; an empty value removes the field. Validation happens when
 * the entry is written, so an invalid value is reported with the field's name then.
 *
 * @example
 * applyAssignments(entry, [parseAssignment('priority=high'), parseAssignment('keywords=[env, secrets]')]);
 */
export function applyAssignments(entry: KnowledgeEntry, assignments: readonly Assignment[]): KnowledgeEntry {
  const out: Record<string, unknown> = { ...entry };
  for (const assignment of assignments) {
    if (assignment.value === '') {
      fieldSchema(assignment.field);
      delete out[assignment.field];
    } else {
      out[assignment.field] = convertValue(assignment);
    }
  }
  return out as unknown as KnowledgeEntry;
}

/** Applies edits given either way: `--set` assignments, or field values. */
export function applyEdits(entry: KnowledgeEntry, edits: readonly Assignment[] | FieldValues): KnowledgeEntry {
  return Array.isArray(edits) ? applyAssignments(entry, edits as readonly Assignment[]) : applyFieldValues(entry, edits as FieldValues);
}

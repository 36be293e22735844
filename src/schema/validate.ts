// Validation against the JSON Schemas: ajv compiles each schema once, on first use, and its
// errors are turned into plain sentences that name the field, the rule and the value found.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { loadSchema, loadSchemaFile, SCHEMA_ID_BASE, SCHEMA_NAMES, schemaFileName, type JsonSchema, type SchemaName } from './schemas.js';
import { suggest } from './suggest.js';

/** One schema violation, located by JSON pointer. */
export interface SchemaIssue {
  /** JSON pointer of the offending value (for a missing field: where it should be). */
  pointer: string;
  /** The pointer of the closest existing value, to locate the problem in the source text. */
  locatePointer: string;
  /** Locate the key rather than the value (unknown fields). */
  atKey: boolean;
  message: string;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a YYYY-MM-DD... string names a real calendar date (2025-02-30 does not). */
export function isRealDate(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps the years 0-99 to 1900-1999.
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

let ajv: Ajv2020 | undefined;
const compiled = new Map<SchemaName, ValidateFunction>();

function getAjv(): Ajv2020 {
  if (ajv === undefined) {
    // The schemas are lore's own and a test checks them against the 2020-12 meta-schema, so
    // compiling that meta-schema on every start (100 ms) is left out.
    ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true, validateSchema: false });
    ajv.addFormat('date-time', { type: 'string', validate: (s: string) => DATE_TIME.test(s) && isRealDate(s) && !Number.isNaN(Date.parse(s)) });
    ajv.addFormat('date', { type: 'string', validate: (s: string) => DATE.test(s) && isRealDate(s) });
  }
  return ajv;
}

function validatorFor(name: SchemaName): ValidateFunction {
  let fn = compiled.get(name);
  if (fn === undefined) {
    fn = getAjv().compile(loadSchema(name));
    compiled.set(name, fn);
  }
  return fn;
}

/** Validates a value against a schema; returns every issue, or an empty list when valid. */
export function validateAgainst(name: SchemaName, value: unknown): SchemaIssue[] {
  const fn = validatorFor(name);
  if (fn(value)) return [];
  return describeErrors(fn.errors ?? []);
}

/** Turns a JSON pointer into the field path people read: /examples/0/scenario → examples[0].scenario. */
export function fieldPath(pointer: string): string {
  if (pointer === '') return 'the record';
  let out = '';
  for (const raw of pointer.slice(1).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A short, quoted rendering of a found value for messages. */
export function showValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}..."` : text;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  if (Number.isInteger(value)) return 'integer';
  return typeof value === 'object' ? 'object' : typeof value;
}

const ARTICLE: Record<string, string> = {
  string: 'a string', number: 'a number', integer: 'an integer', boolean: 'true or false',
  array: 'a list', object: 'a mapping (key: value)', null: 'null',
};

function expectedType(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((t) => ARTICLE[String(t)] ?? String(t)).join(' or ');
}

const ID_WORDS = "must start with a letter or digit and contain only letters, digits, '.', '_' and '-'";
const PATTERN_WORDS: Record<string, string> = {
  '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$': `${ID_WORDS} (at most 128 characters)`,
  '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$': `${ID_WORDS} (at most 64 characters)`,
  '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$': "must start with a letter or digit and contain only letters, digits, '.', '_', ':' and '-'",
  '^[A-Za-z0-9_-]{1,50}$': "must contain only letters, digits, '_' and '-' (at most 50 characters)",
  '^ROLE-[a-z_]+$': 'must be ROLE-<role>, e.g. ROLE-coach',
  '^QG-[a-z_]+-([1-9]|10)-([1-9]|10)$': 'must be QG-<task_type>-<lo>-<hi>, e.g. QG-feature-4-6',
  '^MODE-[a-z_]+$': 'must be MODE-<mode>, e.g. MODE-direct',
  '^TURN-[A-Za-z0-9._-]+-T[0-9]+$': 'must be TURN-<feature>-<task>-T<n>, e.g. TURN-FEAT-001-TASK-003-T2',
  '^COMPLETE-[A-Za-z0-9._-]+$': 'must be COMPLETE-<feature>',
  '^https?://': 'must be an http:// or https:// URL',
  '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2}))?$': 'must be a date like 2026-01-31 or a date-time like 2026-01-31T12:00:00Z',
};

function describe(error: ErrorObject): SchemaIssue | undefined {
  const params = error.params as Record<string, unknown>;
  const at = error.instancePath;
  const found = showValue(error.data);
  switch (error.keyword) {
    case 'if':
    case 'anyOf':
    case 'oneOf':
      return undefined; // the branch errors say more; see describeErrors
    case 'required': {
      const missing = String(params.missingProperty);
      const pointer = `${at}/${escapePointer(missing)}`;
      return { pointer, locatePointer: at, atKey: false, message: `${fieldPath(pointer)} is required but missing` };
    }
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      const pointer = `${at}/${escapePointer(extra)}`;
      const known = Object.keys((error.parentSchema as JsonSchema | undefined)?.properties ?? {});
      const hint = suggest(extra, known);
      const where = at === '' ? '' : ` in ${fieldPath(at)}`;
      const message = `unknown field "${extra}"${where}${hint === undefined ? '' : ` (did you mean "${hint}"?)`}`;
      return { pointer, locatePointer: pointer, atKey: true, message };
    }
    case 'type':
      return { pointer: at, locatePointer: at, atKey: false, message: `${fieldPath(at)} must be ${expectedType(params.type)} (found ${typeName(error.data)} ${found})`.replace(/ \(found (list|object) (a list|an object)\)$/, ' (found $2)') };
    case 'enum':
      return { pointer: at, locatePointer: at, atKey: false, message: `${fieldPath(at)} must be one of ${(params.allowedValues as unknown[]).join(', ')} (found ${found})` };
    case 'const':
      return { pointer: at, locatePointer: at, atKey: false, message: `${fieldPath(at)} must be ${JSON.stringify(params.allowedValue)} (found ${found})` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { pointer: at, locatePointer: at, atKey: false, message: `${fieldPath(at)} must be ${String(params.comparison)} ${String(params.limit)} (found ${found})` };
    case 'minLength':
      return { pointer: at, locatePointer: at, atKey: false, message: params.limit === 1 ? `${fieldPath(at)} must not be empty` : `${fieldPath(at)} must be at least ${String(params.limit)} characters long` };
    case 'maxLength':
      return { pointer: at, locatePointer: at, atKey: false, message: `${fieldPath(at)} must be at most ${String(params.limit)} characters long (found ${(error.data as string).length})` };
    case 'minItems':
      return { pointer: at, locatePointer: at, atKey: false, message: `${fieldPath(at)} must have at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'} (found ${(error.data as unknown[]).length})` };
    case 'maxItems':
      return { pointer: at, locatePointer: at, atKey: false, message: `${fieldPath(at)} must have at most ${String(params.limit)} items (found ${(error.data as unknown[]).length})` };
    case 'minProperties':
    case 'maxProperties': {
      const keys = Object.keys(error.data as object);
      // Under dependentSchemas/<field>: that field takes no other.
      const alone = /\/dependentSchemas\/([^/]+)\/maxProperties$/.exec(error.schemaPath)?.[1];
      const limit = `at ${error.keyword === 'minProperties' ? 'least' : 'most'} ${String(params.limit)} field${params.limit === 1 ? '' : 's'}`;
      const message = alone !== undefined ? `${fieldPath(at)} with ${alone} must hold no other field (found ${keys.join(', ')})` : `${fieldPath(at)} must have ${limit} (found ${keys.length === 0 ? 'none' : keys.join(', ')})`;
      return { pointer: at, locatePointer: at, atKey: false, message };
    }
    case 'uniqueItems':
      return { pointer: at, locatePointer: at, atKey: false, message: `${fieldPath(at)} must not repeat an item (items ${String(params.j)} and ${String(params.i)} are the same)` };
    case 'pattern': {
      const pattern = String(params.pattern);
      const words = PATTERN_WORDS[pattern] ?? `must match ${pattern}`;
      return { pointer: at, locatePointer: at, atKey: false, message: `${fieldPath(at)} ${words} (found ${found})` };
    }
    case 'format': {
      const example = params.format === 'date' ? '2026-01-31' : '2026-01-31T12:00:00Z';
      return { pointer: at, locatePointer: at, atKey: false, message: `${fieldPath(at)} must be a ${String(params.format)} like ${example} (found ${found})` };
    }
    default:
      return { pointer: at, locatePointer: at, atKey: false, message: `${fieldPath(at)} ${error.message ?? 'is invalid'}` };
  }
}

/** Describes ajv's errors, dropping duplicates and the umbrella errors of anyOf/if. */
export function describeErrors(errors: readonly ErrorObject[]): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const seen = new Set<string>();
  // For `anyOf` (a string, or an object with fields): when the value has the type of one branch,
  // that branch's errors say what is wrong; otherwise one message names the accepted forms.
  const dropTypeErrorsAt = new Set<string>();
  const skipUnder = new Set<string>();
  for (const failing of errors.filter((e) => e.keyword === 'anyOf')) {
    const pointer = failing.instancePath;
    const types = ((failing.schema as JsonSchema[] | undefined) ?? []).map((s) => String(s.type ?? 'object'));
    const found = typeName(failing.data);
    if (types.includes(found) || (found === 'integer' && types.includes('number'))) {
      dropTypeErrorsAt.add(pointer);
      continue;
    }
    skipUnder.add(pointer);
    issues.push({ pointer, locatePointer: pointer, atKey: false, message: `${fieldPath(pointer)} must be ${types.map((t) => expectedType(t)).join(' or ')} (found ${typeName(failing.data)} ${showValue(failing.data)})` });
  }
  for (const error of errors) {
    if ([...skipUnder].some((p) => error.instancePath === p || error.instancePath.startsWith(`${p}/`))) continue;
    if (error.keyword === 'type' && dropTypeErrorsAt.has(error.instancePath)) continue;
    const issue = describe(error);
    if (issue === undefined) continue;
    const key = `${issue.pointer}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

const fileValidators = new Map<string, ValidateFunction>();
const addedIds = new Set<string>();

/** The `$ref`s of a schema that point into other files. */
function externalRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) externalRefs(item, out);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) out.push(value);
      else externalRefs(value, out);
    }
  }
  return out;
}

/**
 * Makes the schemas of `schemas/` that `schema` refers to (and those they refer to) known to ajv
 * by their `$id`, so cross-file `$ref`s resolve; the others are never read.
 */
function addReferencedSchemas(schema: JsonSchema): void {
  for (const ref of externalRefs(schema)) {
    const id = new URL(ref, schema.$id).href.replace(/#.*$/, '');
    if (addedIds.has(id) || !id.startsWith(SCHEMA_ID_BASE)) continue;
    addedIds.add(id);
    const path = id.slice(SCHEMA_ID_BASE.length);
    // A record schema is added as the object validateAgainst compiles, so ajv holds it once.
    const name = SCHEMA_NAMES.find((n) => schemaFileName(n) === path);
    const target = name === undefined ? loadSchemaFile(path) : loadSchema(name);
    if (getAjv().getSchema(id) === undefined) getAjv().addSchema(target);
    addReferencedSchemas(target);
  }
}

/**
 * Validates a value against a schema file under `schemas/` (an operation's input or output),
 * which may refer to the record schemas and `ops/_defs.schema.json`.
 */
export function validateAgainstFile(path: string, value: unknown): SchemaIssue[] {
  let fn = fileValidators.get(path);
  if (fn === undefined) {
    const schema = loadSchemaFile(path);
    addReferencedSchemas(schema);
    fn = getAjv().getSchema(schema.$id!) ?? getAjv().compile(schema);
    fileValidators.set(path, fn);
  }
  if (fn(value)) return [];
  return describeErrors(fn.errors ?? []);
}

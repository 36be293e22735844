// Validation against the JSON Schemas: ajv compiles each schema once, on first use, and its
// errors are turned into plain sentences that name the field, the rule and the value found. The
// built CLI mostly runs the validators `npm run build` generated from the same schema files
// (dist/schema/generated/), so ajv itself is loaded only when one is missing or out of date.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020, CodeOptions, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { FORMATS } from './formats.js';
import { loadSchema, loadSchemaFile, SCHEMA_ID_BASE, SCHEMA_NAMES, SCHEMAS_DIR, schemaFileName, type JsonSchema, type SchemaName } from './schemas.js';
import { suggest } from './suggest.js';

export { isRealDate } from './formats.js';

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

/**
 * A new ajv with lore's options and formats; `code`: options for generating standalone code
 * (scripts/build-validators.mjs), which must otherwise be the same as at run time.
 */
export function createAjv(code?: CodeOptions): Ajv2020 {
  const { Ajv2020: Ajv } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = new Ajv({ ...AJV_OPTIONS, ...(code === undefined ? {} : { code }) });
  for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, format);
  return ajv;
}

// The schemas are lore's own and a test checks them against the 2020-12 meta-schema, so
// compiling that meta-schema on every start (100 ms) is left out.
const AJV_OPTIONS = { allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true, validateSchema: false } as const;

let generator: string | undefined;

/**
 * What made a generated validator besides its schema files: ajv's version, lore's ajv options and
 * the formats' names. A module made by another ajv or with other options is not used.
 */
export function generatorKey(): string {
  if (generator === undefined) {
    // Read, not required: the module cache then shows only what validation loaded.
    const { version } = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('ajv/package.json'), 'utf8')) as { version: string };
    generator = `ajv ${version} ${JSON.stringify(AJV_OPTIONS)} ${Object.keys(FORMATS).join(',')}`;
  }
  return generator;
}

let ajv: Ajv2020 | undefined;

function getAjv(): Ajv2020 {
  ajv ??= createAjv();
  return ajv;
}

/** Validates a value against a schema; returns every issue, or an empty list when valid. */
export function validateAgainst(name: SchemaName, value: unknown): SchemaIssue[] {
  return validateAgainstFile(schemaFileName(name), value);
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
      return { pointer: at, locatePointer: at, atKey: false, message: `${fieldPath(at)} must be ${expectedType(params.type)} (found ${typeName(error.data)} ${found})`.replace(/ \(found (list|object) (a list|an object)\)$/, ' (found $2)').replace(/ \(found null null\)$/, ' (found null)') };
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

/** A schema file by its path under `schemas/`; a record schema as the object validateAgainst compiles, so ajv holds it once. */
function schemaAt(path: string): JsonSchema {
  const name = SCHEMA_NAMES.find((n) => schemaFileName(n) === path);
  return name === undefined ? loadSchemaFile(path) : loadSchema(name);
}

/** The files under `schemas/` a schema file needs: itself first, then every file its `$ref`s reach, each once. */
export function schemaFilesOf(path: string): string[] {
  const files = [path];
  for (let i = 0; i < files.length; i++) {
    const schema = schemaAt(files[i]!);
    for (const ref of externalRefs(schema)) {
      const id = new URL(ref, schema.$id).href.replace(/#.*$/, '');
      if (id.startsWith(SCHEMA_ID_BASE) && !files.includes(id.slice(SCHEMA_ID_BASE.length))) files.push(id.slice(SCHEMA_ID_BASE.length));
    }
  }
  return files;
}

/**
 * The validator of a schema file under `schemas/` (a record schema, an operation's input or
 * output), which may refer to the record schemas and `ops/_defs.schema.json`: those are made known
 * to `target` by their `$id`, so cross-file `$ref`s resolve; no other schema is read.
 */
export function fileValidator(target: Ajv2020, path: string): ValidateFunction {
  const [own, ...referred] = schemaFilesOf(path);
  for (const file of referred) {
    const schema = schemaAt(file);
    if (target.schemas[schema.$id!] === undefined && target.refs[schema.$id!] === undefined) target.addSchema(schema);
  }
  const schema = schemaAt(own!);
  return target.getSchema(schema.$id!) ?? target.compile(schema);
}

const validators = new Map<string, ValidateFunction>();

/**
 * Validates a value against a schema file under `schemas/` (a record schema, an operation's input
 * or output): with the validator `npm run build` generated when the schema files it was made from
 * are unchanged, else with ajv. The same issues either way (tests/generated-validators.test.ts);
 * the generated one spares loading ajv and compiling, 40-50 ms of a CLI command.
 */
export function validateAgainstFile(path: string, value: unknown): SchemaIssue[] {
  let fn = validators.get(path);
  if (fn === undefined) {
    fn = generatedValidator(path) ?? fileValidator(getAjv(), path);
    validators.set(path, fn);
  }
  if (fn(value)) return [];
  return describeErrors(fn.errors ?? []);
}

/** The sha1 of a schema file's bytes: how a generated validator names the files it was made from. */
export function schemaFileHash(path: string): string {
  return createHash('sha1').update(readFileSync(SCHEMAS_DIR + path)).digest('hex');
}

/** Where the generated validator of a schema file is, relative to this module (dist/schema/). */
export function generatedValidatorPath(path: string): string {
  return `./generated/${path.replace(/\.json$/, '.cjs')}`;
}

/** A module of dist/schema/generated/, written by scripts/build-validators.mjs. */
interface GeneratedValidator {
  /** generatorKey() when it was made. */
  generator: string;
  /** The schema files it was generated from (schemaFilesOf), each with its schemaFileHash. */
  sources: Record<string, string>;
  /** The validator, given the formats the generated code refers to. */
  create(formats: typeof FORMATS): ValidateFunction;
}

/**
 * The generated validator of a schema file, when there is one, whole, made by this ajv with these
 * options, from schema files that are unchanged.
 */
function generatedValidator(path: string): ValidateFunction | undefined {
  if (!/^(ops\/)?[a-z][a-z0-9_.-]*\.schema\.json$/.test(path)) return undefined;
  let generated: Partial<GeneratedValidator>;
  try {
    // Absent when lore runs from src/ (tests through tsx) or dist/ was built without the script.
    generated = createRequire(import.meta.url)(generatedValidatorPath(path)) as Partial<GeneratedValidator>;
  } catch {
    return undefined;
  }
  if (typeof generated.create !== 'function' || typeof generated.sources !== 'object' || generated.sources === null) return undefined;
  if (generated.generator !== generatorKey()) return undefined;
  for (const [file, hash] of Object.entries(generated.sources)) {
    try {
      if (schemaFileHash(file) !== hash) return undefined;
    } catch {
      return undefined;
    }
  }
  return generated.create(FORMATS);
}

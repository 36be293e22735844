// The JSON Schemas in `schemas/` are the public format; this module finds and loads them.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The file kinds that have a schema. */
export const SCHEMA_NAMES = [
  'config',
  'knowledge-entry',
  'role-constraints',
  'gate-profile',
  'implementation-mode',
  'project-overrides',
  'graph-entity',
  'graph-memory',
  'graph-update',
  'turn-state',
  'dag-line',
  'application-event',
  'allow-record',
  'task-plan',
  'learning-capture',
  'rejection-event',
  'extends-lock',
] as const;

export type SchemaName = (typeof SCHEMA_NAMES)[number];

/** Both src/schema/ (tests via tsx) and dist/schema/ (the built CLI) sit two levels below the package root. */
export const SCHEMAS_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));

const cache = new Map<SchemaName, JsonSchema>();

/** A JSON Schema as far as lore reads it. */
export interface JsonSchema {
  $id?: string;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  prefixItems?: JsonSchema[];
  items?: JsonSchema;
  required?: string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  [keyword: string]: unknown;
}

/** The file name of a schema, as the `$schema=` comments of records name it. */
export function schemaFileName(name: SchemaName): string {
  return `${name}.schema.json`;
}

/** Loads (once) and returns the parsed schema. */
export function loadSchema(name: SchemaName): JsonSchema {
  let schema = cache.get(name);
  if (schema === undefined) {
    schema = JSON.parse(readFileSync(SCHEMAS_DIR + schemaFileName(name), 'utf8')) as JsonSchema;
    cache.set(name, schema);
  }
  return schema;
}

/** Where the schemas of the operations are: `ops/<op>.input.schema.json`, `ops/<op>.output.schema.json`. */
export const OPS_DIR = 'ops/';

/** The base of every schema's `$id`; a schema's id is this plus its path under `schemas/`. */
export const SCHEMA_ID_BASE = 'https://lore-knowledge.dev/schemas/v1/';

const fileCache = new Map<string, JsonSchema>();

/** Loads (once) a schema by its path under `schemas/` (`ops/knowledge.query.input.schema.json`). */
export function loadSchemaFile(path: string): JsonSchema {
  let schema = fileCache.get(path);
  if (schema === undefined) {
    schema = JSON.parse(readFileSync(SCHEMAS_DIR + path, 'utf8')) as JsonSchema;
    fileCache.set(path, schema);
  }
  return schema;
}

/** The shared definitions of the operations' schemas: `ops/_*.schema.json`, by path under `schemas/`. */
export function opDefinitionFiles(): string[] {
  return readdirSync(SCHEMAS_DIR + OPS_DIR).filter((name) => name.startsWith('_') && name.endsWith('.schema.json')).sort().map((name) => OPS_DIR + name);
}

/** The path under `schemas/` of an operation's input or output schema. */
export function opSchemaPath(op: string, side: 'input' | 'output'): string {
  return `${OPS_DIR}${op}.${side}.schema.json`;
}

/** Follows a local `$ref` (`#/$defs/...`) within `root`; other schemas are returned as they are. */
export function resolveRef(root: JsonSchema, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref !== undefined && current.$ref.startsWith('#/') && hops < 16; hops++) {
    let target: unknown = root;
    for (const part of current.$ref.slice(2).split('/')) target = (target as Record<string, unknown> | undefined)?.[part];
    if (target === undefined) break;
    current = target as JsonSchema;
  }
  return current;
}

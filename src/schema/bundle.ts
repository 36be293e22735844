// A schema as one self-contained document, for clients that cannot fetch the others (an MCP tool
// list, an HTTP API's description): every `$ref` to another file is brought in under `$defs` and
// pointed at there. The `$schema` and `$id` keywords go: a client reads the document as it is.
import { loadSchemaFile, SCHEMA_ID_BASE, type JsonSchema } from './schemas.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The key under `$defs` a file is brought in as: `_defs`, `knowledge-entry`. */
function keyOf(path: string): string {
  return path.replace(/^ops\//, '').replace(/\.schema\.json$/, '');
}

/**
 * The schema at `path` (under `schemas/`) with the files it refers to included.
 *
 * @example
 * bundleSchema('ops/record.list.output.schema.json').$defs._defs; // → the shared definitions, included
 */
export function bundleSchema(path: string): JsonSchema {
  const included = new Map<string, Json>();
  // Rewrites the references of a schema read from `file` (a path under schemas/) into the bundle.
  const rewrite = (value: Json, file: string, prefix: string): Json => {
    if (Array.isArray(value)) return value.map((v) => rewrite(v, file, prefix));
    if (value === null || typeof value !== 'object') return value;
    const out: { [key: string]: Json } = {};
    for (const [key, child] of Object.entries(value)) {
      if (key === '$schema' || key === '$id') continue;
      if (key === '$ref' && typeof child === 'string') {
        out[key] = target(child, file, prefix);
        continue;
      }
      out[key] = rewrite(child, file, prefix);
    }
    return out;
  };
  // Where a reference found in `file` points inside the bundle.
  const target = (ref: string, file: string, prefix: string): string => {
    const [where, fragment = ''] = ref.split('#');
    if (where === '' || where === undefined) return `#${prefix}${fragment}`;
    const url = new URL(where, SCHEMA_ID_BASE + file);
    const other = url.href.slice(SCHEMA_ID_BASE.length);
    const key = keyOf(other);
    if (!included.has(key)) {
      included.set(key, null); // before rewriting it: a file that refers back to itself is not read twice
      included.set(key, rewrite(loadSchemaFile(other) as Json, other, `/$defs/${key}`));
    }
    return `#/$defs/${key}${fragment}`;
  };
  const root = rewrite(loadSchemaFile(path) as Json, path, '') as { [key: string]: Json };
  if (included.size > 0) root.$defs = { ...((root.$defs as { [key: string]: Json } | undefined) ?? {}), ...Object.fromEntries(included) };
  return root as JsonSchema;
}

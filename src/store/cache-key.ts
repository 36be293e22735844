// The identity of the parser and rules behind cached records: lore's version and the schemas.
// Caches made by another lore (or with other schemas) are ignored.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SCHEMAS_DIR, SCHEMA_NAMES, schemaFileName } from '../schema/schemas.js';

/** Bump when parsing, the rules or derived values (prefilter literals, the guard's rule table: validity windows as read) change in a way the schemas do not show. */
const CACHE_FORMAT = 16;

let rulesKey: string | undefined;

/** Identifies the parser and rules that produced a snapshot: lore's version and the schemas. */
export function cacheKey(): string {
  if (rulesKey === undefined) {
    const hash = createHash('sha1').update(String(CACHE_FORMAT));
    hash.update(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    for (const name of SCHEMA_NAMES) hash.update(readFileSync(SCHEMAS_DIR + schemaFileName(name)));
    rulesKey = hash.digest('hex');
  }
  return rulesKey;
}

// The YAML library, loaded on first use and synchronously (as match/regex.ts loads re2js): JSON
// text and cached parses never pay for loading it.
import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');
let lib: Yaml | undefined;

/** The yaml package, loaded on the first call. */
export function yaml(): Yaml {
  lib ??= createRequire(import.meta.url)('yaml') as Yaml;
  return lib;
}

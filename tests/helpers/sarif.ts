// The SARIF 2.1.0 schema as Microsoft's SARIF SDK ships it (@microsoft/jest-sarif, a dev
// dependency), compiled once with ajv: no download at test time.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv from 'ajv';

let compiled: ((doc: unknown) => boolean) & { errors?: unknown } | undefined;

/** Validates a document against the SARIF 2.1.0 schema; returns ajv's errors (empty when valid). */
export function sarifErrors(doc: unknown): unknown[] {
  if (compiled === undefined) {
    const path = createRequire(import.meta.url).resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
    const schema = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    // A draft-04 schema: its `id` is draft 2020's `$id`, and ajv 8 reads the rest as it is.
    delete schema.$schema;
    schema.$id = schema.id;
    delete schema.id;
    compiled = new Ajv.default({ strict: false, allErrors: true, unicodeRegExp: false, validateFormats: false }).compile(schema);
  }
  return compiled(doc) ? [] : ((compiled.errors as unknown[] | null | undefined) ?? []);
}

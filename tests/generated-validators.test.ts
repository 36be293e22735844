// The validators `npm run build` generates for the record schemas and the operations' inputs and
// outputs (dist/schema/generated/) must say exactly what ajv says at run time, and a CLI command must use
// one only while the schema files it was made from are unchanged.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { OPS } from '../src/ops/registry.js';
import { FORMATS } from '../src/schema/formats.js';
import { loadSchemaFile, opSchemaPath, SCHEMA_ID_BASE, SCHEMA_NAMES, schemaFileName, type JsonSchema } from '../src/schema/schemas.js';
import { createAjv, describeErrors, fileValidator, generatedValidatorPath, generatorKey, schemaFileHash, schemaFilesOf } from '../src/schema/validate.js';
import { copyPackage } from './helpers/cli.js';
import { seeded } from './helpers/crash.js';
import { entry, knowledgeStore } from './helpers/knowledge.js';
import { testEnv } from './helpers/temp.js';

// A path, not a URL's pathname: a checkout under a folder with a space or non-ASCII letter has one percent-encoded.
const PACKAGE = join(import.meta.dirname, '..');

interface Generated {
  generator: string;
  sources: Record<string, string>;
  create(formats: typeof FORMATS): ValidateFunction;
}

/** Every schema file with a generated validator: the record schemas and the operations' inputs and outputs. */
const FILES = [...SCHEMA_NAMES.map(schemaFileName), ...OPS.flatMap((op) => [opSchemaPath(op.name, 'input'), opSchemaPath(op.name, 'output')])];

function generated(path: string): Generated {
  return createRequire(import.meta.url)(join(PACKAGE, 'dist/schema', generatedValidatorPath(path))) as Generated;
}

/** Values of every JSON type, and the strings the schemas' formats, patterns and lengths care about. */
const ODD: readonly unknown[] = [null, true, false, 0, -1, 1.5, 7, 2 ** 31, '', 'x', 'ROLE-coach', 'rec-a', 'a b/c', '2026-02-30', '2026-01-31', '2026-01-31T12:00:00Z', '2026-01-31 12:00', 'é'.repeat(3), 'x'.repeat(300), [], ['x'], [1, 1], {}, { a: 1 }];

/**
 * A seeded random value for `schema` (under `root`): mostly what it asks for, with wrong types,
 * missing and unknown fields, and values at and past its limits mixed in.
 */
function sample(schema: JsonSchema | boolean, root: JsonSchema, random: () => number, depth = 0): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  if (typeof schema === 'boolean' || random() < 0.08 || depth > 6) return pick(ODD);
  if (schema.$ref !== undefined) {
    const [file, fragment = ''] = schema.$ref.split('#');
    const target = file === '' ? root : loadSchemaFile(new URL(file!, root.$id).href.slice(SCHEMA_ID_BASE.length));
    let node: unknown = target;
    for (const part of fragment.split('/').slice(1)) node = (node as Record<string, unknown>)[part];
    return sample(node as JsonSchema, target, random, depth + 1);
  }
  if (schema.enum !== undefined) return pick(schema.enum);
  if (schema.const !== undefined) return schema.const;
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches !== undefined) return sample(pick(branches), root, random, depth + 1);
  const type = Array.isArray(schema.type) ? pick(schema.type) : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(schema.properties ?? {})) {
        if (random() < (schema.required?.includes(key) === true ? 0.95 : 0.4)) out[key] = sample(value, root, random, depth + 1);
      }
      if (random() < 0.05) out.unknownField = 1;
      return out;
    }
    case 'array':
      return Array.from({ length: Math.floor(random() * 4) }, () => sample(schema.items ?? {}, root, random, depth + 1));
    case 'string': {
      const limits = [schema.minLength, schema.maxLength].filter((n): n is number => typeof n === 'number');
      if (limits.length > 0 && random() < 0.3) return 'y'.repeat(Math.max(0, pick(limits) + pick([-1, 0, 1])));
      return pick(ODD.filter((v) => typeof v === 'string'));
    }
    case 'integer':
    case 'number': {
      const limits = [schema.minimum, schema.maximum].filter((n): n is number => typeof n === 'number');
      return limits.length > 0 && random() < 0.4 ? pick(limits) + pick([-1, 0, 1]) : pick([0, 1, 3, 25, -2, 0.5, 1e6]);
    }
    case 'boolean':
      return random() < 0.5;
    default:
      return pick(ODD);
  }
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A copy of the package (its node_modules linked) and a store with one settled entry; `query` runs
 * the copy's `lore query --json` there, its stderr ending in AJV or NO AJV: whether ajv's compiler
 * was loaded. It has run once, so the caches hold the entries and ajv has no record to check.
 */
async function packageCopy(t: TestContext): Promise<{ pkg: string; query: () => Promise<Run> }> {
  const { root } = await knowledgeStore(t, [entry({ id: 'rec-retry', title: 'Retry flaky uploads' })]);
  const pkg = copyPackage(t);
  const trace = join(pkg, 'trace.mjs');
  writeFileSync(trace, "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nprocess.on('exit', () => process.stderr.write(Object.keys(require.cache).some((k) => k.includes('/node_modules/ajv/dist/compile/')) ? 'AJV\\n' : 'NO AJV\\n'));\n");
  // Not LORE_CHECK_OUTPUT: checking the output against its schema is ajv's job.
  const env = testEnv();
  delete env.LORE_CHECK_OUTPUT;
  const query = (): Promise<Run> => new Promise((resolve) => {
    execFile(process.execPath, ['--import', trace, join(pkg, 'bin/lore.js'), 'query', 'retry uploads', '--json'], { cwd: root, env }, (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }));
  });
  const hour = new Date(Date.now() - 3600_000);
  utimesSync(join(root, '.knowledge/knowledge/recommendations/rec-retry.yaml'), hour, hour);
  await query();
  return { pkg, query };
}

describe('generated schema validators', () => {
  it('exist for every record schema and operation input and output, and name the ajv and the schema files they were made from, as they are now', () => {
    for (const path of FILES) {
      assert.equal(generated(path).generator, generatorKey(), path);
      assert.deepEqual(generated(path).sources, Object.fromEntries(schemaFilesOf(path).map((file) => [file, schemaFileHash(file)])), path);
    }
  });

  it('give exactly the errors and messages ajv gives at run time, on 300 seeded values per schema', () => {
    const ajv = createAjv();
    let invalid = 0;
    for (const path of FILES) {
      const runtime = fileValidator(ajv, path);
      const validate = generated(path).create(FORMATS);
      const random = seeded(path.length * 7919 + path.charCodeAt(4));
      for (let i = 0; i < 300; i++) {
        const value = sample(loadSchemaFile(path), loadSchemaFile(path), random);
        const ok = runtime(value);
        assert.equal(validate(value), ok, `${path}: ${JSON.stringify(value)}`);
        if (ok) continue;
        invalid++;
        assert.deepEqual(validate.errors, runtime.errors, `${path}: ${JSON.stringify(value)}`);
        assert.deepEqual(describeErrors(validate.errors ?? []), describeErrors(runtime.errors ?? []));
      }
    }
    // The samples reach both outcomes, over all the schemas taken together.
    assert.ok(invalid > 1000 && invalid < 300 * FILES.length - 1000, `${invalid} invalid samples`);
  });

  it('are used by the CLI only while their schema files are unchanged', async (t) => {
    // A copy of the package whose knowledge.query input schema then gains a rule the generated
    // validator does not know: the CLI must check the input with ajv and apply it.
    const { pkg, query } = await packageCopy(t);
    const fresh = await query();
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.deepEqual((JSON.parse(fresh.stdout) as { recommendations: Array<{ id: string }> }).recommendations.map((r) => r.id), ['rec-retry']);
    assert.equal(fresh.stderr, 'NO AJV\n');

    const file = join(pkg, 'schemas/ops/knowledge.query.input.schema.json');
    const schema = JSON.parse(readFileSync(file, 'utf8')) as { properties: { taskDescription: Record<string, unknown> } };
    schema.properties.taskDescription.maxLength = 5;
    writeFileSync(file, JSON.stringify(schema, null, 2));
    const edited = await query();
    assert.equal(edited.code, 2);
    assert.deepEqual((JSON.parse(edited.stdout) as { error: { problems: unknown[] } }).error.problems, [
      { severity: 'error', file: 'knowledge.query input', pointer: '/taskDescription', message: 'taskDescription must be at most 5 characters long (found 13)' },
    ]);
    assert.equal(edited.stderr, 'AJV\n');
  });

  it('are not used when made by another ajv or cut short: the CLI checks with ajv and answers the same', async (t) => {
    const { pkg, query } = await packageCopy(t);
    const generatedAnswer = await query();
    assert.equal(generatedAnswer.code, 0, generatedAnswer.stderr);
    assert.equal(generatedAnswer.stderr, 'NO AJV\n');

    const module = join(pkg, 'dist/schema', generatedValidatorPath(opSchemaPath('knowledge.query', 'input')));
    const text = readFileSync(module, 'utf8');
    assert.match(text, /^exports\.generator = "ajv \d+\.\d+\.\d+ /m);
    writeFileSync(module, text.replace(/^exports\.generator = "ajv \d+/m, 'exports.generator = "ajv 0'));
    const otherAjv = await query();
    assert.deepEqual([otherAjv.code, otherAjv.stdout, otherAjv.stderr], [0, generatedAnswer.stdout, 'AJV\n']);

    writeFileSync(module, text.slice(0, text.indexOf('exports.create')));
    const cutShort = await query();
    assert.deepEqual([cutShort.code, cutShort.stdout, cutShort.stderr], [0, generatedAnswer.stdout, 'AJV\n']);
  });
});

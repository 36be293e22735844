// The table of operations and its schemas: every operation has an input and an output schema,
// valid JSON Schema 2020-12 whose references resolve, every input field is described (agents read
// the descriptions to choose a tool and fill its input), and bad input is refused naming the field.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { COMMANDS } from '../src/cli/registry.js';
import type { LoreError } from '../src/errors.js';
import { OPS } from '../src/ops/registry.js';
import { runOp } from '../src/ops/run.js';
import { loadSchema, loadSchemaFile, opDefinitionFiles, OPS_DIR, opSchemaPath, SCHEMA_NAMES, SCHEMAS_DIR, type JsonSchema } from '../src/schema/schemas.js';
import { Workspace } from '../src/workspace/workspace.js';
import { tempStore, testEnv } from './helpers/temp.js';

/** Every schema of schemas/ added to one ajv, so that references between files resolve. */
function ajvWithEverySchema(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
  ajv.addFormat('date-time', true).addFormat('date', true);
  for (const name of SCHEMA_NAMES) ajv.addSchema(loadSchema(name));
  for (const path of opDefinitionFiles()) ajv.addSchema(loadSchemaFile(path));
  return ajv;
}

describe('the operations and their schemas', () => {
  it('gives every operation an input and an output schema, and keeps no schema of an operation that does not exist', () => {
    const expected = OPS.flatMap((op) => [opSchemaPath(op.name, 'input'), opSchemaPath(op.name, 'output')]).map((p) => p.slice(OPS_DIR.length)).sort();
    const present = readdirSync(`${SCHEMAS_DIR}${OPS_DIR}`).filter((f) => !f.startsWith('_')).sort();
    assert.deepEqual(present, expected);
  });

  it('holds only schemas that are valid JSON Schema 2020-12, with every reference resolved', () => {
    const ajv = ajvWithEverySchema();
    const problems: string[] = [];
    for (const op of OPS) {
      for (const side of ['input', 'output'] as const) {
        const path = opSchemaPath(op.name, side);
        const schema = loadSchemaFile(path);
        if (ajv.validateSchema(schema) !== true) problems.push(`${path}: ${ajv.errorsText(ajv.errors)}`);
        if (schema.$id !== `https://lore-knowledge.dev/schemas/v1/${path}`) problems.push(`${path}: $id is ${schema.$id}`);
        try {
          ajv.compile(schema);
        } catch (error) {
          problems.push(`${path}: ${(error as Error).message}`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  it('describes every field of every input, for the agents that fill them', () => {
    const missing: string[] = [];
    // A reference to a shared definition (`_<name>.schema.json#/$defs/<def>`) is followed.
    const deref = (schema: JsonSchema): JsonSchema => {
      const match = /^(_[a-z-]+\.schema\.json)#\/\$defs\/(\w+)$/.exec(schema.$ref ?? '');
      return match === null ? schema : loadSchemaFile(`${OPS_DIR}${match[1]}`).$defs![match[2]!]!;
    };
    const walk = (schema: JsonSchema, path: string): void => {
      const target = deref(schema);
      for (const [key, value] of Object.entries(target.properties ?? {})) {
        if (value.description === undefined && deref(value).description === undefined) missing.push(`${path}/${key}`);
        walk(value, `${path}/${key}`);
      }
      if (target.items !== undefined) walk(target.items, `${path}[]`);
    };
    for (const op of OPS) walk(loadSchemaFile(opSchemaPath(op.name, 'input')), op.name);
    assert.deepEqual(missing, []);
  });

  it('takes an object as the input of every operation (an MCP tool\'s input is an object)', () => {
    assert.deepEqual(OPS.filter((op) => loadSchemaFile(opSchemaPath(op.name, 'input')).type !== 'object').map((op) => op.name), []);
  });

  it('names each operation once, dotted, with a summary', () => {
    const names = OPS.map((op) => op.name);
    assert.equal(new Set(names).size, names.length);
    for (const op of OPS) {
      assert.match(op.name, /^[a-z]+\.[a-z_]+$/, op.name);
      assert.ok(op.summary.length > 10 && !op.summary.endsWith('.'), `${op.name}: ${op.summary}`);
    }
  });

  it('backs every command that reads or writes the store with an operation that exists', async () => {
    const unknown: string[] = [];
    for (const entry of COMMANDS) {
      const { command } = await entry.load();
      if ('op' in command && !OPS.some((op) => op.name === command.op)) unknown.push(`${command.name}: ${command.op}`);
    }
    assert.deepEqual(unknown, []);
  });

  it('refuses input that does not match the input schema, naming the field, before anything runs', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\n' });
    const ws = new Workspace({ cwd: root, env: testEnv() });
    const ctx = { ws, note: () => undefined, progress: () => undefined };
    await assert.rejects(runOp('record.show', { id: 'x', kindd: 'gates' }, ctx), (error: LoreError) => {
      assert.equal(error.code, 'USAGE');
      assert.equal(error.message, 'the input of record.show is invalid');
      assert.deepEqual(error.problems.map((p) => p.message), ['unknown field "kindd" (did you mean "kind"?)']);
      return true;
    });
    await assert.rejects(runOp('store.seed', { dryRun: 'yes' }, ctx), { message: 'the input of store.seed is invalid' });
    await assert.rejects(runOp('knowledge.qery', {}, ctx), { code: 'USAGE', message: 'no operation named "knowledge.qery"' });
  });
});

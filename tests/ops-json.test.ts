// Every command over an operation prints, with --json, exactly what the operation's output schema
// describes (the JSON a command prints IS the operation's output). Checked here with ajv directly,
// on at least one real run of each command; every CLI run of the tests also checks it in the
// command itself (LORE_CHECK_OUTPUT=1, see tests/helpers/temp.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { COMMANDS } from '../src/cli/registry.js';
import { loadSchema, loadSchemaFile, opDefinitionFiles, opSchemaPath, SCHEMA_NAMES } from '../src/schema/schemas.js';
import { loreInProcess } from './helpers/cli.js';
import type { OpCases } from './helpers/op-cases.js';
import { gitRepo, tempStore, testEnv } from './helpers/temp.js';
import { AGENT_CASES } from './op-cases/agent.js';
import { DAG_CASES } from './op-cases/dag.js';
import { GRAPH_CASES } from './op-cases/graph.js';
import { GUARD_CASES } from './op-cases/guard.js';
import { KNOWLEDGE_CASES } from './op-cases/knowledge.js';
import { PLAYER_COACH_CASES } from './op-cases/player-coach.js';
import { STORE_CASES } from './op-cases/store.js';

const CASES: OpCases = { ...STORE_CASES, ...GUARD_CASES, ...AGENT_CASES, ...GRAPH_CASES, ...PLAYER_COACH_CASES, ...KNOWLEDGE_CASES, ...DAG_CASES };

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
ajv.addFormat('date-time', true).addFormat('date', true);
for (const name of SCHEMA_NAMES) ajv.addSchema(loadSchema(name));
for (const path of opDefinitionFiles()) ajv.addSchema(loadSchemaFile(path));
const validators = new Map<string, ValidateFunction>();
const outputValidator = (op: string): ValidateFunction => {
  if (!validators.has(op)) validators.set(op, ajv.compile(loadSchemaFile(opSchemaPath(op, 'output'))));
  return validators.get(op)!;
};

const opCommands = await Promise.all(COMMANDS.map(async (entry) => (await entry.load()).command)).then((all) => all.filter((c): c is typeof c & { op: string } => 'op' in c));

describe('the --json of every command over an operation', () => {
  it('has at least one case for each such command', () => {
    assert.deepEqual(opCommands.map((c) => c.name).filter((name) => CASES[name] === undefined), []);
  });

  for (const command of opCommands) {
    for (const [index, c] of (CASES[command.name] ?? []).entries()) {
      it(`lore ${command.name} (${index + 1}: ${c.args.slice(command.name.split(' ').length).join(' ') || 'no options'}) prints what ${c.op ?? command.op}'s output schema says`, async (t) => {
        const files = { '.knowledge/config.yaml': 'version: 1\nproject: shop\n', ...c.files };
        const root = c.git === true ? gitRepo(t, c.files ?? {}) : tempStore(t, files);
        // The command checks itself too; here the test does, so a command that stopped checking would not pass.
        const result = await loreInProcess([...c.args, '--json'], { cwd: root, env: testEnv({ LORE_CHECK_OUTPUT: '0' }), ...(c.stdin === undefined ? {} : { input: c.stdin }) });
        assert.equal(result.code, c.code ?? 0, result.stderr);
        const output = JSON.parse(result.stdout) as unknown;
        const validate = outputValidator(c.op ?? command.op);
        assert.ok(validate(output), `${c.op ?? command.op}: ${ajv.errorsText(validate.errors)}`);
      });
    }
  }
});

// docs/reference/operations.md: every operation of the table, with the names the three adapters
// give it (the CLI command, the MCP tool, the HTTP routes, each from the adapter's own table) and its
// input and output fields from schemas/ops/. Structures several operations share are listed once.
import { COMMANDS } from '../../src/cli/registry.js';
import type { CommandSpec, OptionValues } from '../../src/cli/command.js';
import { GET_ROUTES, opMethods } from '../../src/daemon/routes.js';
import { outputSchemaOf, toolName } from '../../src/mcp/server.js';
import { OP_AREAS, type OpEntry } from '../../src/ops/registry.js';
import { bundleSchema } from '../../src/schema/bundle.js';
import { opSchemaPath, SCHEMA_NAMES, type JsonSchema, type SchemaName } from '../../src/schema/schemas.js';
import { byText } from '../../src/text-order.js';
import { anchor, code, page, sentence } from './_markdown.js';
import { commandHeading } from './commands.js';
import { schemaHeading } from './format.js';
import { fieldsTable, hasFields, typeText, type Link, type SchemaView } from './schema-fields.js';

/** A structure of an ops/_*.schema.json file, documented once under "Shared structures". */
interface Shared {
  file: string;
  name: string;
}

/** The view of a schema with the links of this page: shared structures here, the file formats on format.md. */
function view(root: JsonSchema, file: string | undefined, wanted: Map<string, Shared>): SchemaView {
  const v: SchemaView = { root };
  v.link = (ref, target): Link | undefined => {
    const schema = /^#\/\$defs\/([a-z-]+)$/.exec(ref)?.[1];
    if (schema !== undefined && (SCHEMA_NAMES as readonly string[]).includes(schema)) return { text: schema, href: `format.md#${anchor(schemaHeading(schema as SchemaName))}` };
    const other = /^#\/\$defs\/(_[a-z-]+)\/\$defs\/([A-Za-z]+)$/.exec(ref);
    const own = file === undefined ? null : /^#\/\$defs\/([A-Za-z]+)$/.exec(ref);
    const shared = other !== null ? { file: `ops/${other[1]}.schema.json`, name: other[2]! } : own !== null ? { file: file!, name: own[1]! } : undefined;
    // Only a structure with fields of its own gets a section; a string with a pattern is shown where it is used.
    if (shared === undefined || !hasFields({ root }, target)) return undefined;
    const known = wanted.get(shared.name);
    if (known !== undefined && known.file !== shared.file) throw new Error(`two shared structures are named ${shared.name}: in ${known.file} and ${shared.file}`);
    wanted.set(shared.name, shared);
    return { text: shared.name, href: `#${anchor(shared.name)}` };
  };
  return v;
}

/** An input or output: its type when it is not an object, then its fields. */
function sideBlock(op: string, side: 'input' | 'output', wanted: Map<string, Shared>): string {
  const root = bundleSchema(opSchemaPath(op, side));
  const v = view(root, undefined, wanted);
  const label = side === 'input' ? 'Input' : 'Output';
  const fields = fieldsTable(v, root);
  const type = typeText(v, root);
  const lead = type === 'object' ? (fields === undefined ? `**${label}:** none (\`{}\`).` : `**${label}:**`) : `**${label}:** ${type}.`;
  return page([lead, fields]).trimEnd();
}

/** The commands that run an operation: by their op, or by the op they switch to for some option (`lore export --to`). */
function commandsOf(op: string, specs: readonly CommandSpec[]): string[] {
  // Every option given: a command that switches operations on an option shows that operation.
  const everyOption = new Proxy({}, { get: () => ['x'] }) as OptionValues;
  return specs.filter((s) => 'op' in s && (s.op === op || s.opFor?.(everyOption) === op)).map((s) => s.name);
}

function opSection(op: OpEntry, specs: readonly CommandSpec[], wanted: Map<string, Shared>): string {
  const routes = [
    ...opMethods(op).map((method) => code(method === 'POST' ? `POST /api/ops/${op.name}` : `GET /api/ops/${op.name}?input=<JSON>`)),
    ...GET_ROUTES.filter((r) => r.op === op.name).map((r) => code(`GET ${r.path.replace(/:(\w+)/g, '<$1>')}${r.query}`)),
  ];
  const commands = commandsOf(op.name, specs).map((name) => `[${code(`lore ${name}`)}](commands.md#${anchor(commandHeading(name))})`);
  const wrapped = outputSchemaOf(op).wrapped;
  return page([
    `### ${code(op.name)}`,
    sentence(op.summary),
    [
      `- **Changes the store:** ${op.readOnly ? 'no' : 'yes'}`,
      ...(commands.length === 0 ? [] : [`- **CLI:** ${commands.join(', ')}`]),
      `- **MCP tool:** ${code(toolName(op.name))}${wrapped ? ' (its structured content is `{ "result": <output> }`)' : ''}`,
      `- **HTTP:** ${routes.join(', ')}`,
    ].join('\n'),
    sideBlock(op.name, 'input', wanted),
    sideBlock(op.name, 'output', wanted),
  ]).trimEnd();
}

/** The sections of the shared structures, including those they refer to, by name. */
function sharedSections(wanted: Map<string, Shared>): string[] {
  const done = new Map<string, string>();
  while (done.size < wanted.size) {
    for (const shared of [...wanted.values()]) {
      if (done.has(shared.name)) continue;
      const root = bundleSchema(shared.file);
      const schema = (root.$defs ?? {})[shared.name]!;
      const v = view(root, shared.file, wanted);
      done.set(shared.name, page([`### ${shared.name}`, schema.description, `Defined in [${code(`schemas/${shared.file}`)}](../../schemas/${shared.file}).`, fieldsTable(v, schema)]).trimEnd());
    }
  }
  return [...done.keys()].sort(byText).map((name) => done.get(name)!);
}

/** The page, from the table of operations, the adapters' tables and the operations' schemas. */
export async function renderOperations(): Promise<string> {
  const specs = await Promise.all(COMMANDS.map(async (c) => (await c.load()).command));
  const wanted = new Map<string, Shared>();
  const areas = OP_AREAS.map((area) => ({ area, sections: area.ops.map((op) => opSection(op, specs, wanted)) }));
  const shared = sharedSections(wanted);
  const contents = OP_AREAS.map((area) => `- **${area.title}:** ${area.ops.map((op) => `[${op.name}](#${anchor(op.name)})`).join(' · ')}`);
  return page([
    '# Operations',
    '<!-- Generated by `npm run docs` from src/ops/registry.ts, the adapters\' tables and schemas/ops/. Do not edit by hand. -->',
    'Everything lore does to a store is an operation: a name, an input and an output, each a JSON Schema in [`schemas/ops/`](../../schemas/ops/). Three doors lead to the same operations, with the same input and output: the CLI (`lore <command> --json` prints the output), the MCP server (`lore mcp`: a tool per operation, named with `_` for `.`), and the HTTP API of `lore serve` (`POST /api/ops/<name>` with the input as the body; a read-only operation also at `GET /api/ops/<name>?input=<JSON>`). Errors have the same shape everywhere: `{ "error": { "code", "message", "hint", "problems" } }`.',
    '## Contents',
    [...contents, `- **Shared structures:** ${[...wanted.keys()].sort(byText).map((name) => `[${name}](#${anchor(name)})`).join(' · ')}`].join('\n'),
    ...areas.flatMap(({ area, sections }) => [`## ${area.title}`, ...sections]),
    '## Shared structures',
    'Structures that several operations take or return, from `schemas/ops/_*.schema.json`.',
    ...shared,
  ]);
}

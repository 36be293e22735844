// docs/reference/ is generated (npm run docs) from the command table, the schemas and the operations'
// table: the committed pages must be what the generator writes now, and the generator must not drop
// a command, an operation or a config key.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { commandHelp } from '../src/cli/main.js';
import { COMMANDS } from '../src/cli/registry.js';
import { OPS } from '../src/ops/registry.js';
import { loadSchema, type JsonSchema } from '../src/schema/schemas.js';
import { DEFAULT_CONFIG } from '../src/store/config.js';
import { renderReference, ROOT, staleness } from '../scripts/docs.js';
import { HELP_COLUMNS } from '../scripts/docs/commands.js';

const pages = renderReference();
const page = async (name: string): Promise<string> => (await pages).get(`docs/reference/${name}`)!;
const committed = (file: string): string | undefined => {
  try {
    return readFileSync(join(ROOT, file), 'utf8');
  } catch {
    return undefined;
  }
};

/** Every key path of a schema's properties: `matching.embeddings.url`, `extends[].name`. */
function keyPaths(schema: JsonSchema, prefix = ''): string[] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, child]) => {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    const items = child.type === 'array' && typeof child.items === 'object' ? keyPaths(child.items, `${path}[]`) : [];
    return [path, ...keyPaths(child, path), ...items];
  });
}

/** Every leaf of an object, by dotted path. */
function leaves(value: object, prefix = ''): Array<[string, unknown]> {
  return Object.entries(value).flatMap(([key, child]): Array<[string, unknown]> => {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    return child !== null && typeof child === 'object' && !Array.isArray(child) ? leaves(child, path) : [[path, child]];
  });
}

describe('docs/reference/', () => {
  it('is what npm run docs generates now, page by page', async () => {
    const generated = await pages;
    assert.deepEqual([...generated.keys()], ['docs/reference/commands.md', 'docs/reference/format.md', 'docs/reference/operations.md']);
    for (const [file, text] of generated) {
      const problem = staleness(file, committed(file), text);
      assert.equal(problem, undefined, problem);
    }
  });

  it('says which page is stale and where it first differs', () => {
    assert.equal(staleness('docs/reference/format.md', 'a\nb\nc\n', 'a\nb\nc\n'), undefined);
    assert.equal(staleness('docs/reference/format.md', 'a\nold\nc\n', 'a\nnew\nc\n'), [
      'docs/reference/format.md is stale: run npm run docs',
      'first difference at line 2:',
      '- committed: "old"',
      '+ generated: "new"',
    ].join('\n'));
    assert.equal(staleness('docs/reference/format.md', 'a\n', 'a\nmore\n'), 'docs/reference/format.md is stale: run npm run docs\nfirst difference at line 2:\n- committed: ""\n+ generated: "more"');
    assert.equal(staleness('docs/reference/commands.md', undefined, 'a\n'), 'docs/reference/commands.md is missing: run npm run docs');
  });

  it('has a heading for every command, and each command\'s --help text as lore prints it', async () => {
    const text = await page('commands.md');
    for (const entry of COMMANDS) {
      assert.ok(text.includes(`\n### lore ${entry.name}\n`), `no heading for lore ${entry.name}`);
      const help = commandHelp((await entry.load()).command, HELP_COLUMNS);
      assert.ok(text.includes(`\`\`\`text\n$ lore ${entry.name} --help\n${help}\n\`\`\``), `the help of lore ${entry.name} is not on the page`);
      assert.ok(text.includes(`[${entry.name}](#lore-${entry.name.replace(/ /g, '-')})`), `lore ${entry.name} is not in the contents`);
    }
  });

  it('has a heading for every operation, with its MCP tool and POST route', async () => {
    const text = await page('operations.md');
    for (const op of OPS) {
      const section = text.split(`\n### \`${op.name}\`\n`)[1]?.split('\n### ')[0];
      assert.ok(section !== undefined, `no heading for ${op.name}`);
      assert.ok(section.includes(`- **MCP tool:** \`${op.name.replace(/\./g, '_')}\``), `${op.name}: no MCP tool`);
      assert.ok(section.includes(`\`POST /api/ops/${op.name}\``), `${op.name}: no POST route`);
      assert.equal(section.includes(`\`GET /api/ops/${op.name}?input=<JSON>\``), op.readOnly, `${op.name}: GET route only when read-only`);
      assert.ok(section.includes(`- **Changes the store:** ${op.readOnly ? 'no' : 'yes'}`), `${op.name}: whether it writes`);
    }
  });

  it('lists every key of config.yaml, with the default lore uses for it', async () => {
    const text = await page('format.md');
    const config = text.split('\n## config.yaml\n')[1]?.split('\n## ')[0] ?? '';
    const paths = keyPaths(loadSchema('config'));
    assert.ok(paths.length > 30 && paths.includes('matching.embeddings.timeout_ms') && paths.includes('extends[].ref'), paths.join(', '));
    for (const path of paths) assert.ok(config.includes(`\n| \`${path}\` |`), `config.yaml's ${path} is not in format.md`);
    // The schema's defaults are what resolveConfig fills in: format.md shows the schema's.
    for (const [path, value] of leaves(DEFAULT_CONFIG)) {
      if (path === 'version') continue;
      const row = config.split('\n').find((line) => line.startsWith(`| \`${path}\` |`)) ?? '';
      assert.ok(row.includes(` | \`${JSON.stringify(value)}\` | `), `${path}: lore's default is ${JSON.stringify(value)}, format.md says: ${row}`);
    }
  });

  it('documents the exit code 1 of every command that gives it', async () => {
    for (const entry of COMMANDS) {
      const spec = (await entry.load()).command;
      if ('exit' in spec && spec.exit !== undefined) assert.ok(spec.exits?.[1] !== undefined, `lore ${entry.name} may exit 1 but its exits do not say when`);
    }
  });
});

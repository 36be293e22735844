import type { MigrateOutput } from '../../ops/dag/migrate.js';
import { defineOpCommand } from '../command.js';
import { table } from '../format.js';
import { DAG_OPTIONS, dagInput } from './_dag.js';

export const command = defineOpCommand<MigrateOutput>({
  name: 'dag migrate',
  summary: 'move kg.<project>.json files of the older tool into the log',
  usage: '<dir> [options]',
  description: [
    'Reads every kg.<project>.json of DIR: { "entities": { "<id>": entity, ... } or [entity, ...], "relations": [{ "from": ID, "to": ID }] }. An entity with a role is a node, one without is an artifact; a relation makes "from" a parent of "to".',
    'Every file is checked before anything is written: a malformed file stops the migration with its problems. Nodes already in the log are skipped, so running it twice adds nothing. The files are only read.',
  ].join('\n\n'),
  options: { ...DAG_OPTIONS },
  positionals: [1, 1],
  examples: ['lore dag migrate ~/.codeloops/data', 'lore dag migrate ./data --project my-app --json'],
  op: 'dag.migrate',
  input: (ctx) => ({ dir: ctx.args[0]!, ...dagInput(ctx) }),
  print(result, ctx) {
    ctx.print(table(result.projects.map((p) => [p.project, `${p.found} found`, `${p.added} added`, `${p.skipped} already there`]), ctx.columns));
    ctx.print(`migrated ${result.added} nodes and artifacts; ${result.skipped} were already in the log`);
  },
});

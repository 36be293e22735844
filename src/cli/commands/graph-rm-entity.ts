import type { RemoveEntityOutput } from '../../ops/graph/remove-entity.js';
import { defineOpCommand } from '../command.js';
import { plural } from '../format.js';
import { MEMORY_FILE_OPTION, memoryFileInput, savedLines } from './_graph.js';

export const command = defineOpCommand<RemoveEntityOutput>({
  name: 'graph rm-entity',
  summary: 'remove an entity and every relationship from or to it',
  usage: '<NAME> [options]',
  options: { ...MEMORY_FILE_OPTION },
  positionals: [1, 1],
  examples: ['lore graph rm-entity "Legacy Billing"'],
  op: 'graph.remove_entity',
  input: (ctx) => ({ name: ctx.args[0]!, ...memoryFileInput(ctx) }),
  print(output, ctx) {
    ctx.print(`removed entity ${JSON.stringify(output.removed.entity.name)} and ${plural(output.removed.relationships.length, 'relationship')}`);
    for (const line of savedLines(output.saved)) ctx.print(line);
  },
});

import { defineCommand } from '../command.js';
import { plural } from '../format.js';
import { change, MEMORY_FILE_OPTION, openBackend, savedLines, unknownEntity } from './_graph.js';

export const command = defineCommand({
  name: 'graph rm-entity',
  summary: 'remove an entity and every relationship from or to it',
  usage: '<NAME> [options]',
  options: { ...MEMORY_FILE_OPTION },
  positionals: [1, 1],
  examples: ['lore graph rm-entity "Legacy Billing"'],
  async run(ctx) {
    const name = ctx.args[0]!;
    const backend = await openBackend(ctx);
    const { result, saved } = await change(backend, ctx, (graph) => {
      const removed = graph.removeEntity(name);
      if (removed === undefined) throw unknownEntity(graph, name, backend);
      return removed;
    });
    if (ctx.json) {
      ctx.printJson({ removed: { entity: result.entity, relationships: result.relationships }, saved });
      return;
    }
    ctx.print(`removed entity ${JSON.stringify(name)} and ${plural(result.relationships.length, 'relationship')}`);
    for (const line of savedLines(saved)) ctx.print(line);
  },
});

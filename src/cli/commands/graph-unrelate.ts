import { LoreError } from '../../errors.js';
import { describeRelationship } from '../../graph/merge.js';
import { defineCommand } from '../command.js';
import { change, MEMORY_FILE_OPTION, openBackend, savedLines } from './_graph.js';

export const command = defineCommand({
  name: 'graph unrelate',
  summary: 'remove the relationship FROM -TYPE-> TO',
  usage: '<FROM> <TYPE> <TO> [options]',
  options: { ...MEMORY_FILE_OPTION },
  positionals: [3, 3],
  examples: ['lore graph unrelate "Web App" calls "Auth Service"'],
  async run(ctx) {
    const [from, type, to] = ctx.args as [string, string, string];
    const backend = await openBackend(ctx);
    const { saved } = await change(backend, ctx, (graph) => {
      if (graph.removeRelationship(from, to, type)) return;
      const types = graph.findRelations({ from, to }).map((r) => r.type);
      throw new LoreError('NOT_FOUND', `there is no relationship ${describeRelationship({ from, to, type })}`, types.length === 0 ? {} : { hint: `${JSON.stringify(from)} -> ${JSON.stringify(to)} has: ${types.join(', ')}` });
    });
    if (ctx.json) {
      ctx.printJson({ removed: { from, to, type }, saved });
      return;
    }
    ctx.print(`removed relationship ${describeRelationship({ from, to, type })}`);
    for (const line of savedLines(saved)) ctx.print(line);
  },
});

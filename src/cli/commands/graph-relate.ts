import { LoreError } from '../../errors.js';
import { describeRelationship } from '../../graph/merge.js';
import { defineCommand } from '../command.js';
import { change, MEMORY_FILE_OPTION, openBackend, parseProps, savedLines } from './_graph.js';

export const command = defineCommand({
  name: 'graph relate',
  summary: 'add a typed relationship FROM -TYPE-> TO, or merge its properties',
  usage: '<FROM> <TYPE> <TO> [options]',
  description: [
    'Both entities must exist: otherwise nothing changes and the command says which end is missing (exit 1).',
    'At most one relationship per (FROM, TO, TYPE): relating again merges the properties.',
  ].join('\n'),
  options: {
    prop: { type: 'string', multiple: true, value: 'K=V', description: 'a property of the relationship (JSON value or string)' },
    ...MEMORY_FILE_OPTION,
  },
  positionals: [3, 3],
  examples: ['lore graph relate "Web App" calls "Auth Service"', 'lore graph relate "Auth Service" reads_from "User DB" --prop pool=5'],
  async run(ctx) {
    const [from, type, to] = ctx.args as [string, string, string];
    const properties = parseProps(ctx.strings('prop'));
    const backend = await openBackend(ctx);
    const warnings: string[] = [];
    const { result, saved } = await change(backend, ctx, (graph) => {
      const existed = graph.findRelations({ from, to, type }).length > 0;
      graph.onWarning = (w) => warnings.push(w);
      const related = graph.addOrUpdateRelationship({ from, to, type, properties });
      return related ? (existed ? 'updated' : 'added') : undefined;
    });
    if (result === undefined) {
      throw new LoreError('INVALID_RECORD', warnings.join('; '), { hint: 'add the missing entity first with lore graph add-entity; nothing was changed' });
    }
    if (ctx.json) {
      ctx.printJson({ change: result, relationship: { from, to, type }, saved });
      return;
    }
    ctx.print(`${result} relationship ${describeRelationship({ from, to, type })}`);
    for (const line of savedLines(saved)) ctx.print(line);
  },
});

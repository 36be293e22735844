import { describeRelationship } from '../../graph/merge.js';
import type { UnrelateOutput } from '../../ops/graph/unrelate.js';
import { defineOpCommand } from '../command.js';
import { MEMORY_FILE_OPTION, memoryFileInput, savedLines } from './_graph.js';

export const command = defineOpCommand<UnrelateOutput>({
  name: 'graph unrelate',
  summary: 'remove the relationship FROM -TYPE-> TO',
  usage: '<FROM> <TYPE> <TO> [options]',
  options: { ...MEMORY_FILE_OPTION },
  positionals: [3, 3],
  examples: ['lore graph unrelate "Web App" calls "Auth Service"'],
  op: 'graph.unrelate',
  input(ctx) {
    const [from, type, to] = ctx.args as [string, string, string];
    return { from, type, to, ...memoryFileInput(ctx) };
  },
  print(output, ctx) {
    ctx.print(`removed relationship ${describeRelationship(output.removed)}`);
    for (const line of savedLines(output.saved)) ctx.print(line);
  },
});

import { contextString } from '../../graph/serialize-text.js';
import { defineCommand } from '../command.js';
import { intOption, loadGraph, MEMORY_FILE_OPTION, requireEntities } from './_graph.js';

export const command = defineCommand({
  name: 'graph context',
  summary: 'the graph as prompt text, whole or around entities, within a token budget',
  usage: '[--around NAME ... --depth N] [--budget TOKENS] [options]',
  description: [
    'Without --around: the whole graph. With --around: those entities and everything within --depth steps,',
    'nearest first. With --budget, entities are kept nearest first while the text fits (tokens estimated as',
    'characters / 4); a cut text says so in its first and last lines.',
  ].join('\n'),
  options: {
    around: { type: 'string', multiple: true, value: 'NAME', description: 'centre on this entity (repeatable)' },
    depth: { type: 'string', value: 'N', description: 'steps around --around (default 1)' },
    budget: { type: 'string', value: 'TOKENS', description: 'at most this many tokens' },
    ...MEMORY_FILE_OPTION,
  },
  positionals: [0, 0],
  examples: ['lore graph context > context.txt', 'lore graph context --around "Auth Service" --depth 2 --budget 1500', 'lore graph context --budget 4000 --json'],
  async run(ctx) {
    const depth = intOption(ctx, 'depth', 1, 0)!;
    const budget = intOption(ctx, 'budget', undefined, 1);
    const around = ctx.strings('around');
    const { backend, graph } = await loadGraph(ctx);
    requireEntities(graph, around, backend);
    const result = contextString(graph, { around, depth, ...(budget === undefined ? {} : { budget }) });
    if (ctx.json) ctx.printJson(result);
    else ctx.print(result.text);
  },
});

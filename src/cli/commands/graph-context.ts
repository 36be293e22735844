import type { ContextText } from '../../graph/serialize-text.js';
import { defineOpCommand } from '../command.js';
import { MEMORY_FILE_OPTION, memoryFileInput } from './_graph.js';

export const command = defineOpCommand<ContextText>({
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
    depth: { type: 'integer', min: 0, value: 'N', description: 'steps around --around (default 1)' },
    budget: { type: 'integer', min: 1, value: 'TOKENS', description: 'at most this many tokens' },
    ...MEMORY_FILE_OPTION,
  },
  positionals: [0, 0],
  examples: ['lore graph context > context.txt', 'lore graph context --around "Auth Service" --depth 2 --budget 1500', 'lore graph context --budget 4000 --json'],
  op: 'graph.context',
  daemon: (input: { memoryFile?: string }) => input.memoryFile === undefined,
  input: (ctx) => ({ around: ctx.strings('around'), depth: ctx.number('depth') ?? 1, budget: ctx.number('budget') ?? 0, ...memoryFileInput(ctx) }),
  print(output, ctx) {
    ctx.print(output.text);
  },
});

import type { ApplyOutput } from '../../ops/graph/_apply.js';
import { defineOpCommand } from '../command.js';
import { readInputText } from '../_input.js';
import { MEMORY_FILE_OPTION, memoryFileInput, printApply } from './_graph.js';

export const command = defineOpCommand<ApplyOutput>({
  name: 'graph apply',
  summary: 'apply a structured update (entities, relationships, removals)',
  usage: '[FILE|-] [options]',
  description: [
    'Reads one JSON update, { "entities": [...], "relationships": [...], "remove": { "entities": [...],',
    '"relationships": [...] } } (schemas/graph-update.schema.json), from FILE or standard input, and applies it:',
    'entities first (merged by name), then relationships (merged by from, to, type), removals last.',
    'An invalid entry stops the whole update (exit 1, nothing saved) with its index, field, line and column.',
    'Relationships to entities that do not exist are ignored with a warning.',
  ].join('\n'),
  options: { ...MEMORY_FILE_OPTION },
  positionals: [0, 1],
  exits: { 1: 'an entity or relationship of the update is invalid (nothing saved)' },
  examples: ['lore graph apply update.json', 'llm-step | lore graph apply - --json', 'lore graph apply update.json --memory-file context.json'],
  op: 'graph.apply',
  async input(ctx) {
    const { text, file } = await readInputText(ctx, ctx.args[0]);
    return { json: text, source: file, ...memoryFileInput(ctx) };
  },
  print: printApply,
});

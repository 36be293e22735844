import { parseJson } from '../../store/json-text.js';
import { defineCommand } from '../command.js';
import { change, locateIn, MEMORY_FILE_OPTION, openBackend, reportApply } from './_graph.js';
import { readInputText } from '../_input.js';

export const command = defineCommand({
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
  examples: ['lore graph apply update.json', 'llm-step | lore graph apply - --json', 'lore graph apply update.json --memory-file context.json'],
  async run(ctx) {
    const { text, file: source } = await readInputText(ctx, ctx.args[0]);
    const payload = parseJson(text, source, 'a graph update');
    const backend = await openBackend(ctx);
    const { result, saved } = await locateIn(text, source, () => change(backend, ctx, (graph) => graph.applyUpdate(payload, { source })));
    reportApply(ctx, backend, result, saved);
  },
});

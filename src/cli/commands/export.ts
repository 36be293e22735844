import { EXPORT_FORMATS, exportKnowledge, formatExport } from '../../knowledge/export-entries.js';
import { defineCommand } from '../command.js';
import { FILTER_OPTIONS, filterFromFlags, oneOf, warnSkipped } from '../_knowledge.js';

export const command = defineCommand({
  name: 'export',
  summary: 'write entries, with their usage statistics, as JSON or NDJSON',
  usage: '[filters] [--format json|ndjson] > FILE',
  description: [
    'Writes the recommendations, prohibitions and learnings that pass the filters (the same as lore list\'s;',
    'pending learnings are not exported) to stdout, sorted by id, each entry complete with timesApplied,',
    'timesHelpful and lastApplied. The same knowledge always exports to the same bytes, and lore import',
    'of an export into an empty store exports identically again.',
  ].join('\n'),
  options: {
    format: { type: 'string', value: 'F', description: 'json (an array, the default) or ndjson (one entry per line)' },
    ...FILTER_OPTIONS,
  },
  positionals: [0, 0],
  examples: ['lore export > knowledge.json', 'lore export --type prohibition --priority critical --format ndjson > critical.ndjson'],
  async run(ctx) {
    const format = ctx.string('format') === undefined ? 'json' : oneOf('format', ctx.string('format')!, EXPORT_FORMATS);
    const { entries, problems } = await exportKnowledge({ store: await ctx.openStore(), filter: filterFromFlags(ctx) });
    warnSkipped(ctx, problems);
    const text = formatExport(entries, format);
    if (text !== '') ctx.print(text.replace(/\n$/, ''));
  },
});

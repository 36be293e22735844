import { EXPORT_FORMATS, formatExport, type ExportFormat } from '../../knowledge/export-entries.js';
import type { EntryWithStats } from '../../knowledge/stats.js';
import { defineOpCommand } from '../command.js';
import { FILTER_OPTIONS, filterInput } from '../_knowledge.js';

export const command = defineOpCommand<EntryWithStats[]>({
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
    format: { type: 'enum', values: EXPORT_FORMATS, value: 'F', description: 'json (an array, the default) or ndjson (one entry per line)' },
    ...FILTER_OPTIONS,
  },
  positionals: [0, 0],
  examples: ['lore export > knowledge.json', 'lore export --type prohibition --priority critical --format ndjson > critical.ndjson'],
  op: 'knowledge.export',
  input(ctx) {
    const filter = filterInput(ctx);
    return Object.keys(filter).length === 0 ? {} : { filter };
  },
  print(entries, ctx) {
    const text = formatExport(entries, (ctx.string('format') ?? 'json') as ExportFormat);
    if (text !== '') ctx.print(text.replace(/\n$/, ''));
  },
});

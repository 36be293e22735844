import type { ExportWritten } from '../../ops/graph/export.js';
import type { FittedJson } from '../../graph/fit.js';
import { defineOpCommand } from '../command.js';
import { plural } from '../format.js';

export const command = defineOpCommand<FittedJson | ExportWritten>({
  name: 'graph export',
  summary: "write the store's graph as one memory file (JSON)",
  usage: '[--memory-file PATH] [options]',
  description: [
    'Reads the graph from the store\'s entity files and prints it as { "entities": [...], "relationships": [...] },',
    'or writes it atomically to --memory-file PATH (replacing that file). lore graph import converts back.',
    'A PATH that holds something other than a memory file is left alone (exit 2) unless --force.',
  ].join('\n'),
  options: {
    'memory-file': { type: 'string', value: 'PATH', description: 'write to this file instead of standard output' },
    force: { type: 'boolean', description: 'replace PATH even when it is not a memory file' },
  },
  positionals: [0, 0],
  examples: ['lore graph export > context.json', 'lore graph export --memory-file context.json'],
  op: 'graph.export',
  input(ctx) {
    const file = ctx.string('memory-file');
    return file === undefined ? { budget: 0 } : { memoryFile: file, ...(ctx.flag('force') ? { force: true } : {}) };
  },
  print(output, ctx) {
    if (!('file' in output)) {
      ctx.print(JSON.stringify(output, null, 2));
      return;
    }
    ctx.print(`${output.status === 'unchanged' ? 'unchanged' : 'wrote'} ${output.file}: ${plural(output.entities, 'entity', 'entities')}, ${plural(output.relationships, 'relationship')}`);
  },
});

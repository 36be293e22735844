import { resolve } from 'node:path';
import { loadStoreGraph } from '../../graph/store-graph.js';
import { memoryFileText, saveMemoryFile } from '../../graph/memory-file.js';
import { defineCommand } from '../command.js';
import { plural } from '../format.js';
import { noteWarnings } from './_graph.js';

export const command = defineCommand({
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
  async run(ctx) {
    const store = await ctx.openStore();
    const { graph, warnings } = await loadStoreGraph(store.root, { limits: store.config.limits });
    noteWarnings(ctx, { graph, warnings });
    const file = ctx.string('memory-file');
    if (file === undefined) {
      ctx.print(memoryFileText(graph.toJSON()).trimEnd());
      return;
    }
    const status = await saveMemoryFile(resolve(ctx.cwd, file), graph, { display: file, force: ctx.flag('force') });
    const counts = { entities: graph.entityCount, relationships: graph.relationshipCount };
    if (ctx.json) ctx.printJson({ file, status, ...counts });
    else ctx.print(`${status === 'unchanged' ? 'unchanged' : 'wrote'} ${file}: ${plural(counts.entities, 'entity', 'entities')}, ${plural(counts.relationships, 'relationship')}`);
  },
});

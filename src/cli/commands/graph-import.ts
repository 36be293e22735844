import type { ApplyOutput } from '../../ops/graph/_apply.js';
import { defineOpCommand } from '../command.js';
import { readInputText } from '../_input.js';
import { MEMORY_FILE_OPTION, memoryFileInput, printApply } from './_graph.js';

export const command = defineOpCommand<ApplyOutput>({
  name: 'graph import',
  summary: 'merge a memory file or MCP-memory JSONL into the graph',
  usage: '<FILE|-> [--from lore|mcp-memory] [options]',
  description: [
    'Merges FILE into the graph with the usual rules (into the store, or into --memory-file PATH).',
    '--from lore (the default): FILE is a memory file, { "entities": [...], "relationships": [...] }.',
    '--from mcp-memory: FILE is the JSONL of the MCP reference memory server; entityType becomes the type,',
    'observations become the property "observations", relationType becomes the relationship type.',
    'A bad FILE stops the import before anything changes (exit 1, with line numbers).',
  ].join('\n'),
  options: {
    from: { type: 'enum', values: ['lore', 'mcp-memory'], value: 'FORMAT', description: 'lore (default) or mcp-memory' },
    ...MEMORY_FILE_OPTION,
  },
  positionals: [1, 1],
  examples: ['lore graph import context.json', 'lore graph import --from mcp-memory ~/.mcp/memory.jsonl', 'lore graph import memory.jsonl --from mcp-memory --memory-file context.json'],
  op: 'graph.import',
  async input(ctx) {
    const { text, file } = await readInputText(ctx, ctx.args[0]);
    return { content: text, format: ctx.string('from') ?? 'lore', source: file, ...memoryFileInput(ctx) };
  },
  print: printApply,
});

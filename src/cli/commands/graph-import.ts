import { UsageError } from '../../errors.js';
import { parseMcpMemory } from '../../graph/mcp-memory.js';
import { parseMemoryFile, toMemoryFile } from '../../graph/memory-file.js';
import type { GraphUpdate } from '../../types.js';
import { defineCommand } from '../command.js';
import { formatProblem } from '../format.js';
import { change, MEMORY_FILE_OPTION, openBackend, reportApply } from './_graph.js';
import { readInputText } from '../_input.js';

export const command = defineCommand({
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
    from: { type: 'string', value: 'FORMAT', description: 'lore (default) or mcp-memory' },
    ...MEMORY_FILE_OPTION,
  },
  positionals: [1, 1],
  examples: ['lore graph import context.json', 'lore graph import --from mcp-memory ~/.mcp/memory.jsonl', 'lore graph import memory.jsonl --from mcp-memory --memory-file context.json'],
  async run(ctx) {
    const from = ctx.string('from') ?? 'lore';
    if (from !== 'lore' && from !== 'mcp-memory') throw new UsageError(`--from must be lore or mcp-memory (found ${JSON.stringify(from)})`);
    const { text, file: source } = await readInputText(ctx, ctx.args[0]);
    let update: GraphUpdate;
    if (from === 'mcp-memory') update = parseMcpMemory(text, source);
    else {
      const loaded = parseMemoryFile(text, source);
      for (const warning of loaded.warnings) ctx.note(formatProblem(warning, ctx.style));
      update = toMemoryFile(loaded.graph.toJSON());
    }
    const backend = await openBackend(ctx);
    const { result, saved } = await change(backend, ctx, (graph) => graph.applyUpdate(update, { source }));
    reportApply(ctx, backend, result, saved);
  },
});

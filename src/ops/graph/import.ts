import { parseMcpMemory } from '../../graph/mcp-memory.js';
import { parseMemoryFile, toMemoryFile } from '../../graph/memory-file.js';
import type { GraphUpdate } from '../../types.js';
import { defineOp } from '../_define.js';
import { applyOn, type ApplyOutput } from './_apply.js';
import { graphBackend, noteWarnings, type GraphInput } from './_graph.js';

export interface ImportInput extends GraphInput {
  /** The text to import. */
  content: string;
  /** lore: a memory file (the default); mcp-memory: the MCP memory server's JSONL. */
  format?: 'lore' | 'mcp-memory';
  /** What names the content in problems (its file, `<stdin>`). */
  source?: string;
}

/** Merges a memory file or MCP-memory JSONL into the graph with the usual rules. */
export const op = defineOp<ImportInput, ApplyOutput>({
  name: 'graph.import',
  async run(input, ctx) {
    const source = input.source ?? '<import>';
    let update: GraphUpdate;
    if (input.format === 'mcp-memory') update = parseMcpMemory(input.content, source);
    else {
      const loaded = parseMemoryFile(input.content, source);
      noteWarnings(ctx, loaded);
      update = toMemoryFile(loaded.graph.toJSON());
    }
    return applyOn(ctx, await graphBackend(ctx, input.memoryFile), update, source);
  },
});

import { UsageError } from '../../errors.js';
import { fitJson, type FittedJson } from '../../graph/fit.js';
import { saveMemoryFile } from '../../graph/memory-file.js';
import { storeBackend } from '../../graph/backend.js';
import { defineOp } from '../_define.js';
import { inputPath } from '../_paths.js';
import { DEFAULT_BUDGET, noteWarnings, readLoaded } from './_graph.js';

export interface ExportInput {
  /** Write the graph to this file (resolved against the working directory) instead of returning it. */
  memoryFile?: string;
  /** Replace memoryFile even when it is not a memory file. */
  force?: boolean;
  /** When the graph is returned: at most this many tokens of compact JSON (default DEFAULT_BUDGET); 0 for no limit. */
  budget?: number;
}

/** The file written and what it holds. */
export interface ExportWritten {
  file: string;
  status: 'created' | 'updated' | 'unchanged';
  entities: number;
  relationships: number;
}

/** The store's graph as one memory file: returned, or written to memoryFile (atomically). */
export const op = defineOp<ExportInput, FittedJson | ExportWritten>({
  name: 'graph.export',
  async run(input, ctx) {
    const backend = storeBackend(await ctx.ws.store());
    const loaded = await readLoaded(ctx.ws, backend);
    noteWarnings(ctx, loaded);
    const { graph } = loaded;
    const file = input.memoryFile;
    if (file === undefined) {
      const budget = input.budget ?? DEFAULT_BUDGET;
      return fitJson(graph.toJSON(), budget === 0 ? Number.POSITIVE_INFINITY : budget);
    }
    if (input.force === true && ctx.confined === true) throw new UsageError('force is for the CLI: over HTTP and MCP, a file that is not a memory file is never replaced');
    const status = await saveMemoryFile(await inputPath(ctx, file, 'memoryFile'), graph, { display: file, force: input.force === true });
    return { file, status, entities: graph.entityCount, relationships: graph.relationshipCount };
  },
});

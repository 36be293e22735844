import { contextString, type ContextText } from '../../graph/serialize-text.js';
import { defineOp } from '../_define.js';
import { DEFAULT_BUDGET, readGraph, requireEntities, type GraphInput } from './_graph.js';

export interface ContextInput extends GraphInput {
  /** Centre on these entities; the whole graph without them. */
  around?: string[];
  /** Steps around `around` (default 1). */
  depth?: number;
  /** At most this many tokens (default DEFAULT_BUDGET); 0 for no limit. */
  budget?: number;
}

/** The graph as prompt text, whole or around entities nearest first, within a token budget. */
export const op = defineOp<ContextInput, ContextText>({
  name: 'graph.context',
  async run(input, ctx) {
    const around = input.around ?? [];
    const { backend, graph } = await readGraph(ctx, input.memoryFile);
    requireEntities(graph, around, backend);
    const budget = input.budget ?? DEFAULT_BUDGET;
    return contextString(graph, { around, depth: input.depth ?? 1, ...(budget === 0 ? {} : { budget }) });
  },
});

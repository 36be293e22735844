import type { GraphPath } from '../../graph/query.js';
import { defineOp } from '../_define.js';
import { readGraph, requireEntities, type GraphInput } from './_graph.js';

export interface PathInput extends GraphInput {
  from: string;
  to: string;
  /** Follow relationships only from -> to. */
  directed?: boolean;
}

export interface PathOutput {
  from: string;
  to: string;
  /** null when nothing connects them. */
  path: GraphPath | null;
}

/** The shortest chain of relationships between two entities. */
export const op = defineOp<PathInput, PathOutput>({
  name: 'graph.path',
  async run(input, ctx) {
    const { from, to } = input;
    const { backend, graph } = await readGraph(ctx, input.memoryFile);
    requireEntities(graph, [from, to], backend);
    return { from, to, path: graph.shortestPath(from, to, { directed: input.directed === true }) ?? null };
  },
});

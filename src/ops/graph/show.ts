import { fitJson, type FittedJson } from '../../graph/fit.js';
import { toDot, toMermaid } from '../../graph/serialize-diagram.js';
import type { GraphMemory } from '../../types.js';
import { defineOp } from '../_define.js';
import { DEFAULT_BUDGET, readGraph, requireEntities, type GraphInput } from './_graph.js';

export interface ShowInput extends GraphInput {
  /** The entity to centre on; the whole graph without it. */
  name?: string;
  /** Steps around `name` (default 1). */
  depth?: number;
  /** At most this many tokens of compact JSON (default DEFAULT_BUDGET); 0 for no limit. */
  budget?: number;
  /** Also give the shown view as a Mermaid or DOT diagram. */
  diagram?: 'mermaid' | 'dot';
}

/** The shown graph, with the diagram when the input asked for one. */
export type ShowOutput = FittedJson & { diagram?: string };

/** The graph, or the neighbourhood of one entity nearest first, as a memory file cut to a budget. */
export const op = defineOp<ShowInput, ShowOutput>({
  name: 'graph.show',
  async run(input, ctx) {
    const { backend, graph } = await readGraph(ctx, input.memoryFile);
    if (input.name !== undefined) requireEntities(graph, [input.name], backend);
    const view = input.name === undefined ? graph.toJSON() : graph.neighbours(input.name, { depth: input.depth ?? 1 });
    const budget = input.budget ?? DEFAULT_BUDGET;
    const fitted = fitJson({ entities: view.entities, relationships: view.relationships }, budget === 0 ? Number.POSITIVE_INFINITY : budget);
    if (input.diagram === undefined) return fitted;
    // The diagram shows what the answer holds: after the budget's cut, with the fields the cut left out at their defaults.
    const shown: GraphMemory = { entities: fitted.entities.map((e) => ({ description: '', tags: [], properties: {}, ...e })), relationships: fitted.relationships.map((r) => ({ properties: {}, ...r })) };
    return { ...fitted, diagram: input.diagram === 'mermaid' ? toMermaid(shown) : toDot(shown) };
  },
});

import type { PlanItem } from '../../dag/queries.js';
import { defineOp } from '../_define.js';
import { openDag, type ProjectInput } from './_dag.js';

export interface ExportInput extends ProjectInput {
  tag?: string;
  /** At most this many nodes, oldest first (default: all of them). */
  limit?: number;
}

/** The plan view (its first `limit` nodes when the input sets one), and how many nodes there are in all. */
export interface ExportOutput {
  project: string;
  /** Nodes with the tag (or every node), before the limit. */
  total: number;
  /** Whether the limit left nodes out: `total` is more than `nodes` holds. */
  truncated: boolean;
  nodes: PlanItem[];
}

export const op = defineOp<ExportInput, ExportOutput>({
  name: 'dag.export',
  async run(input, ctx) {
    const dag = await openDag(ctx);
    const project = dag.project(input.project);
    const plan = dag.exportPlan({ project, ...(input.tag === undefined ? {} : { tag: input.tag }) });
    const nodes = input.limit === undefined ? plan : plan.slice(0, input.limit);
    return { project, total: plan.length, truncated: nodes.length < plan.length, nodes };
  },
});

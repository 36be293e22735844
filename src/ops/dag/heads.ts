import type { DagNode } from '../../types.js';
import { defineOp } from '../_define.js';
import { openDag, type ProjectInput } from './_dag.js';

/** The heads, and the project they are of (the current one when the input names none). */
export interface HeadsOutput {
  project: string;
  heads: DagNode[];
}

export const op = defineOp<ProjectInput, HeadsOutput>({
  name: 'dag.heads',
  async run(input, ctx) {
    const dag = await openDag(ctx);
    const project = dag.project(input.project);
    return { project, heads: dag.heads({ project }) };
  },
});

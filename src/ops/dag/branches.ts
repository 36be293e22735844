import type { BranchHead } from '../../dag/queries.js';
import { defineOp } from '../_define.js';
import { openDag, type ProjectInput } from './_dag.js';

/** The branches, and the project they are of (the current one when the input names none). */
export interface BranchesOutput {
  project: string;
  branches: BranchHead[];
}

export const op = defineOp<ProjectInput, BranchesOutput>({
  name: 'dag.branches',
  async run(input, ctx) {
    const dag = await openDag(ctx);
    const project = dag.project(input.project);
    return { project, branches: dag.branches({ project }) };
  },
});

import type { DagNode } from '../../types.js';
import { defineOp } from '../_define.js';
import { openDag, projectOf, type ProjectInput } from './_dag.js';

export const op = defineOp<{ branch: string; text: string } & ProjectInput, DagNode>({
  name: 'dag.summarize',
  async run(input, ctx) {
    return (await openDag(ctx)).summarize({ branch: input.branch, text: input.text, ...projectOf(input) });
  },
});

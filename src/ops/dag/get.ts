import type { DagNode } from '../../types.js';
import { defineOp } from '../_define.js';
import { openDag, projectOf, type ProjectInput } from './_dag.js';

export const op = defineOp<{ id: string } & ProjectInput, DagNode>({
  name: 'dag.get',
  async run(input, ctx) {
    return (await openDag(ctx)).get(input.id, projectOf(input));
  },
});

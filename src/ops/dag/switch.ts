import { defineOp } from '../_define.js';
import { openDag } from './_dag.js';

export const op = defineOp<{ project: string }, { project: string; previous: string; known: boolean }>({
  name: 'dag.switch',
  async run(input, ctx) {
    return (await openDag(ctx)).switchProject(input.project);
  },
});

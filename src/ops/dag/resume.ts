import type { ResumeResult } from '../../dag/queries.js';
import { defineOp } from '../_define.js';
import { openDag, projectOf, type ProjectInput } from './_dag.js';

export const op = defineOp<{ branch: string; window?: number } & ProjectInput, ResumeResult>({
  name: 'dag.resume',
  async run(input, ctx) {
    const dag = await openDag(ctx);
    return dag.resume(input.branch, { ...projectOf(input), ...(input.window === undefined ? {} : { window: input.window }) });
  },
});

import type { AppendResult, CriticInput } from '../../dag/dag.js';
import { defineOp } from '../_define.js';
import { openDag } from './_dag.js';

export const op = defineOp<CriticInput, AppendResult>({
  name: 'dag.critic',
  async run(input, ctx) {
    const dag = await openDag(ctx);
    return dag.critic(input);
  },
});

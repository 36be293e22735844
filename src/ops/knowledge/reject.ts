import { rejectLearning } from '../../knowledge/capture.js';
import type { RejectionEvent } from '../../types.js';
import { defineOp } from '../_define.js';

export const op = defineOp<{ id: string; reason: string }, { rejection: RejectionEvent; removed: string }>({
  name: 'learning.reject',
  async run(input, { ws }) {
    return rejectLearning({ store: await ws.store(), id: input.id, reason: input.reason, env: ws.env });
  },
});

import { projectOf } from '../../entities/sources.js';
import { pruneTurns, type PruneResult } from '../../turns/retention.js';
import { defineOp } from '../_define.js';

export const op = defineOp<{ dryRun?: boolean; project?: string }, PruneResult>({
  name: 'turn.prune',
  async run(input, { ws }) {
    const store = await ws.store();
    return pruneTurns({ store, project: projectOf(store, input.project), dryRun: input.dryRun === true });
  },
});

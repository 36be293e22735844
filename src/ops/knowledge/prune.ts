import { pruneKnowledge, type PruneResult } from '../../knowledge/retention.js';
import { defineOp } from '../_define.js';
import { noteSkipped } from './_knowledge.js';

export const op = defineOp<{ dryRun?: boolean }, Omit<PruneResult, 'problems'>>({
  name: 'knowledge.prune',
  async run(input, { ws, note, progress }) {
    // Nothing is deleted unless the input says so: dryRun defaults to true.
    const result = await pruneKnowledge({ store: await ws.store(), dryRun: input.dryRun !== false, onProgress: progress });
    noteSkipped(note, result.problems);
    return { enabled: result.enabled, dryRun: result.dryRun, rule: result.rule, removed: result.removed };
  },
});

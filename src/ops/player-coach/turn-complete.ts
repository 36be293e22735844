import { projectOf } from '../../entities/sources.js';
import { completeFeature, type CompleteFeatureResult } from '../../turns/record.js';
import { defineOp } from '../_define.js';

export const op = defineOp<{ feature_id: string; project?: string }, CompleteFeatureResult>({
  name: 'turn.complete',
  async run(input, { ws }) {
    const store = await ws.store();
    return completeFeature({ store, project: projectOf(store, input.project), feature: input.feature_id, now: new Date() });
  },
});

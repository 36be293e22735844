import { approveLearning } from '../../knowledge/capture.js';
import type { FieldValues } from '../../knowledge/set-fields.js';
import type { KnowledgeEntry } from '../../types.js';
import { defineOp } from '../_define.js';

export const op = defineOp<{ id: string; set?: FieldValues }, { entry: KnowledgeEntry; file: string; removed: string }>({
  name: 'learning.approve',
  async run(input, { ws }) {
    return approveLearning({ store: await ws.store(), id: input.id, set: input.set ?? {}, env: ws.env });
  },
});

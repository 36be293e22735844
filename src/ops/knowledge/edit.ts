import { editEntry } from '../../knowledge/manage.js';
import type { FieldValues } from '../../knowledge/set-fields.js';
import type { WriteStatus } from '../../store/write.js';
import type { KnowledgeEntry } from '../../types.js';
import { defineOp } from '../_define.js';

export interface EditOutput {
  id: string;
  file: string;
  status: WriteStatus;
  entry: KnowledgeEntry;
}

export const op = defineOp<{ id: string; set: FieldValues }, EditOutput>({
  name: 'entry.edit',
  async run(input, { ws }) {
    const result = await editEntry({ store: await ws.store(), id: input.id, set: input.set, env: ws.env });
    return { id: result.entry.id, file: result.file, status: result.status, entry: result.entry };
  },
});

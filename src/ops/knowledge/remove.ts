import { removeEntry } from '../../knowledge/manage.js';
import type { EntryKindName } from '../../store/layout.js';
import { defineOp } from '../_define.js';

export const op = defineOp<{ id: string }, { id: string; kind: EntryKindName; file: string }>({
  name: 'entry.remove',
  async run(input, { ws }) {
    return removeEntry({ store: await ws.store(), id: input.id });
  },
});

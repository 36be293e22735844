import { exportKnowledge } from '../../knowledge/export-entries.js';
import type { EntryWithStats } from '../../knowledge/stats.js';
import { defineOp } from '../_define.js';
import type { FilterInput } from '../store/list.js';
import { noteSkipped } from './_knowledge.js';

export const op = defineOp<{ filter?: FilterInput }, EntryWithStats[]>({
  name: 'knowledge.export',
  async run(input, { ws, note }) {
    const { validAt, ...rest } = input.filter ?? {};
    const filter = { ...rest, ...(validAt === undefined ? {} : { validAt: new Date(validAt) }) };
    const { entries, problems } = await exportKnowledge({ store: await ws.store(), filter });
    noteSkipped(note, problems);
    return entries;
  },
});

import { listPending } from '../../knowledge/capture.js';
import type { KnowledgeEntry } from '../../types.js';
import { defineOp } from '../_define.js';
import { noteSkipped } from './_knowledge.js';

export const op = defineOp<Record<string, never>, Array<{ id: string; file: string; value: KnowledgeEntry }>>({
  name: 'learning.pending',
  async run(_input, { ws, note }) {
    const { records, problems } = await listPending(await ws.store());
    noteSkipped(note, problems);
    return records.map((r) => ({ id: r.id, file: r.file, value: r.value }));
  },
});

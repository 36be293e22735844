import type { PendingItem } from '../../ops/knowledge/pending.js';
import { defineOpCommand } from '../command.js';
import { table } from '../format.js';

export const command = defineOpCommand<PendingItem[]>({
  name: 'pending',
  summary: 'list the captured learnings waiting for review',
  usage: '[--similar T] [options]',
  description: 'Oldest first, with the task and outcome they were captured from. With --similar, each is followed by the existing entries at least that similar to it. Review them with lore show, then lore approve or lore reject.',
  options: {
    similar: { type: 'number', min: 0, max: 1, value: 'T', description: 'also list the existing entries at least this similar (0 to 1) to each' },
  },
  positionals: [0, 0],
  examples: ['lore pending', 'lore pending --similar 0.5', 'lore pending --json'],
  op: 'learning.pending',
  input(ctx) {
    const similar = ctx.number('similar');
    return similar === undefined ? {} : { similar };
  },
  print(records, ctx) {
    if (records.length === 0) return void ctx.print('no learnings waiting for review');
    const rows: string[][] = [];
    for (const r of records) {
      rows.push([r.id, r.value.capture === undefined ? '-' : `${r.value.capture.outcome} ${r.value.capture.taskId}`, r.value.createdAt.slice(0, 10), r.value.title]);
      for (const s of r.similar ?? []) rows.push([`  ~ ${s.id}`, s.similarity.toFixed(3), s.type, s.title]);
    }
    ctx.print(table(rows, ctx.columns));
  },
});

import type { KnowledgeEntry } from '../../types.js';
import { defineOpCommand } from '../command.js';
import { table } from '../format.js';

export const command = defineOpCommand<Array<{ id: string; file: string; value: KnowledgeEntry }>>({
  name: 'pending',
  summary: 'list the captured learnings waiting for review',
  usage: '[options]',
  description: 'Oldest first, with the task and outcome they were captured from. Review them with lore show, then lore approve or lore reject.',
  options: {},
  positionals: [0, 0],
  examples: ['lore pending', 'lore pending --json'],
  op: 'learning.pending',
  input: () => ({}),
  print(records, ctx) {
    if (records.length === 0) return void ctx.print('no learnings waiting for review');
    ctx.print(table(records.map((r) => [r.id, r.value.capture === undefined ? '-' : `${r.value.capture.outcome} ${r.value.capture.taskId}`, r.value.createdAt.slice(0, 10), r.value.title]), ctx.columns));
  },
});

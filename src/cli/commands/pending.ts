import { listPending } from '../../knowledge/capture.js';
import { defineCommand } from '../command.js';
import { table } from '../format.js';
import { warnSkipped } from '../_knowledge.js';

export const command = defineCommand({
  name: 'pending',
  summary: 'list the captured learnings waiting for review',
  usage: '[options]',
  description: 'Oldest first, with the task and outcome they were captured from. Review them with lore show, then lore approve or lore reject.',
  options: {},
  positionals: [0, 0],
  examples: ['lore pending', 'lore pending --json'],
  async run(ctx) {
    const { records, problems } = await listPending(await ctx.openStore());
    warnSkipped(ctx, problems);
    if (ctx.json) return void ctx.printJson(records.map((r) => ({ id: r.id, file: r.file, value: r.value })));
    if (records.length === 0) return void ctx.print('no learnings waiting for review');
    ctx.print(table(records.map((r) => [r.id, r.value.capture === undefined ? '-' : `${r.value.capture.outcome} ${r.value.capture.taskId}`, r.value.createdAt.slice(0, 10), r.value.title]), ctx.columns));
  },
});

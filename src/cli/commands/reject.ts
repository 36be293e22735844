import { UsageError } from '../../errors.js';
import { rejectLearning } from '../../knowledge/capture.js';
import { defineCommand } from '../command.js';

export const command = defineCommand({
  name: 'reject',
  summary: 'reject a pending learning, recording why',
  usage: '<id> --reason "..." [options]',
  description: 'Deletes the pending learning and appends the rejection (id, title, description, reason, who, when) to log/rejections.ndjson, so the same learning is recognised if it is captured again.',
  options: {
    reason: { type: 'string', value: 'TEXT', description: 'why it is rejected (required)' },
  },
  positionals: [1, 1],
  examples: ['lore reject learn-retry-with-exponential-backoff --reason "already covered by rec-retry-policy"'],
  async run(ctx) {
    const reason = ctx.string('reason');
    if (reason === undefined) throw new UsageError('lore reject needs --reason "..."', 'the reason is kept in log/rejections.ndjson');
    const result = await rejectLearning({ store: await ctx.openStore(), id: ctx.args[0]!, reason, env: ctx.env });
    if (ctx.json) return void ctx.printJson(result);
    ctx.print(`${ctx.style.yellow('rejected')} ${result.rejection.id} (${result.removed} removed; recorded in .knowledge/log/rejections.ndjson)`);
  },
});

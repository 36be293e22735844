import { UsageError } from '../../errors.js';
import type { RejectionEvent } from '../../types.js';
import { defineOpCommand } from '../command.js';

export const command = defineOpCommand<{ rejection: RejectionEvent; removed: string }>({
  name: 'reject',
  summary: 'reject a pending learning, recording why',
  usage: '<id> --reason "..." [options]',
  description: 'Deletes the pending learning and appends the rejection (id, title, description, reason, who, when) to log/rejections.ndjson, so the same learning is recognised if it is captured again.',
  options: {
    reason: { type: 'string', value: 'TEXT', description: 'why it is rejected (required)' },
  },
  positionals: [1, 1],
  examples: ['lore reject learn-retry-with-exponential-backoff --reason "already covered by rec-retry-policy"'],
  op: 'learning.reject',
  input(ctx) {
    const reason = ctx.string('reason');
    if (reason === undefined) throw new UsageError('lore reject needs --reason "..."', 'the reason is kept in log/rejections.ndjson');
    return { id: ctx.args[0]!, reason };
  },
  print(result, ctx) {
    ctx.print(`${ctx.style.yellow('rejected')} ${result.rejection.id} (${result.removed} removed; recorded in .knowledge/log/rejections.ndjson)`);
  },
});

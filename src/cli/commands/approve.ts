import { approveLearning } from '../../knowledge/capture.js';
import { parseAssignment } from '../../knowledge/set-fields.js';
import { defineCommand } from '../command.js';

export const command = defineCommand({
  name: 'approve',
  summary: 'approve a pending learning into knowledge/learnings/',
  usage: '<id> [--set field=value ...] [options]',
  description: 'Moves the pending learning to knowledge/learnings/<id>.yaml under the same id, with approvedBy (git user), approvedAt and updatedAt set. --set edits it on the way, as lore edit does.',
  options: {
    set: { type: 'string', multiple: true, value: 'FIELD=VALUE', description: 'a change to make while approving (repeatable)' },
  },
  positionals: [1, 1],
  examples: ['lore approve learn-retry-with-exponential-backoff', 'lore approve learn-retry-with-exponential-backoff --set priority=high --set "keywords=[retry, backoff]"'],
  async run(ctx) {
    const set = ctx.strings('set').map(parseAssignment);
    const result = await approveLearning({ store: await ctx.openStore(), id: ctx.args[0]!, set, env: ctx.env });
    if (ctx.json) return void ctx.printJson(result);
    ctx.print(`${ctx.style.green('approved')} ${result.entry.id}: ${result.removed} → ${result.file}`);
  },
});

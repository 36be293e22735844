import type { KnowledgeEntry } from '../../types.js';
import { defineOpCommand } from '../command.js';
import { setInput } from '../_knowledge.js';

export const command = defineOpCommand<{ entry: KnowledgeEntry; file: string; removed: string }>({
  name: 'approve',
  summary: 'approve a pending learning into knowledge/learnings/',
  usage: '<id> [--set field=value ...] [options]',
  description: 'Moves the pending learning to knowledge/learnings/<id>.yaml under the same id, with approvedBy (git user), approvedAt and updatedAt set. --set edits it on the way, as lore edit does.',
  options: {
    set: { type: 'string', multiple: true, value: 'FIELD=VALUE', description: 'a change to make while approving (repeatable)' },
  },
  positionals: [1, 1],
  examples: ['lore approve learn-retry-with-exponential-backoff', 'lore approve learn-retry-with-exponential-backoff --set priority=high --set "keywords=[retry, backoff]"'],
  op: 'learning.approve',
  async input(ctx) {
    return { id: ctx.args[0]!, ...(ctx.strings('set').length === 0 ? {} : { set: await setInput(ctx) }) };
  },
  print(result, ctx) {
    ctx.print(`${ctx.style.green('approved')} ${result.entry.id}: ${result.removed} → ${result.file}`);
  },
});

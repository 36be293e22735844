import { UsageError } from '../../errors.js';
import type { UsageStats } from '../../knowledge/stats.js';
import type { ApplicationEvent } from '../../types.js';
import { defineOpCommand } from '../command.js';
import { usageText } from '../_knowledge.js';

export const command = defineOpCommand<{ event: ApplicationEvent; stats: UsageStats }>({
  name: 'applied',
  summary: 'record that an entry was applied to a task (and whether it helped)',
  usage: '<id> --task T [--helpful|--not-helpful] [options]',
  description: [
    'Appends one event to .knowledge/log/applications.ndjson (locked, fsynced). timesApplied, timesHelpful and',
    'lastApplied are aggregated from that log and shown by show, list, query --json and export; the entry',
    'file itself never changes because knowledge was used.',
  ].join('\n'),
  options: {
    task: { type: 'string', value: 'T', description: 'the task it was applied to (required)' },
    helpful: { type: 'boolean', description: 'it helped' },
    'not-helpful': { type: 'boolean', description: 'it did not help' },
  },
  positionals: [1, 1],
  examples: ['lore applied rec-use-typescript-strict-mode --task TASK-42 --helpful'],
  op: 'usage.record',
  input(ctx) {
    const task = ctx.string('task');
    if (task === undefined || task === '') throw new UsageError('lore applied needs --task T', 'usage: lore applied <id> --task T [--helpful|--not-helpful]');
    if (ctx.flag('helpful') && ctx.flag('not-helpful')) throw new UsageError('--helpful and --not-helpful exclude each other');
    const helpful = ctx.flag('helpful') ? true : ctx.flag('not-helpful') ? false : undefined;
    return { entryId: ctx.args[0]!, taskId: task, ...(helpful === undefined ? {} : { helpful }) };
  },
  print({ event, stats }, ctx) {
    const judged = event.helpful === undefined ? '' : event.helpful ? ' (helpful)' : ' (not helpful)';
    ctx.print(`recorded: ${event.entryId} applied to ${event.taskId}${judged}; ${usageText(stats)}`);
  },
});

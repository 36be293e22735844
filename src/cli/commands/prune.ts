import type { PruneResult } from '../../knowledge/retention.js';
import { defineOpCommand } from '../command.js';
import { plural } from '../format.js';

export const command = defineOpCommand<Omit<PruneResult, 'problems'>>({
  name: 'prune',
  summary: 'delete old, rarely applied, low-priority entries (a dry run unless --yes)',
  usage: '[--dry-run | --yes] [options]',
  description: [
    'With retention.prune_low_priority, deletes entries of priority low that were created more than',
    'retention.max_age_days ago and applied fewer than retention.min_applications_to_keep times. Medium, high',
    'and critical entries and pending learnings are never touched. Lists what it removes; without --yes it',
    'only lists what it would remove.',
  ].join('\n'),
  options: {
    'dry-run': { type: 'boolean', description: 'only list what would be removed (the default)' },
    yes: { type: 'boolean', description: 'really delete' },
  },
  positionals: [0, 0],
  examples: ['lore prune', 'lore prune --yes'],
  op: 'knowledge.prune',
  input: (ctx) => ({ dryRun: ctx.flag('dry-run') || !ctx.flag('yes') }),
  print(result, ctx) {
    const { dryRun } = result;
    if (!result.enabled) return void ctx.print('retention.prune_low_priority is false in .knowledge/config.yaml: nothing is pruned');
    const verb = dryRun ? 'would remove' : 'removed';
    for (const item of result.removed) ctx.print(`${verb} ${item.id} (${item.file}): created ${item.createdAt.slice(0, 10)}, applied ${plural(item.timesApplied, 'time')}`);
    ctx.print(`${verb} ${plural(result.removed.length, 'entry', 'entries')} (${result.rule})${dryRun && result.removed.length > 0 ? '; lore prune --yes deletes them' : ''}`);
  },
});

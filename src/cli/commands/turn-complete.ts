import { projectOf } from '../../entities/sources.js';
import { completeFeature } from '../../turns/record.js';
import { defineCommand } from '../command.js';
import { PROJECT_OPTION, required } from './_player-coach.js';
import { printPrune } from './turn-prune.js';

export const command = defineCommand({
  name: 'turn complete',
  summary: 'mark a feature completed, so its turns may be pruned',
  usage: '--feature F [options]',
  description: [
    "Appends the completion record COMPLETE-<feature> to the feature's turn log. Only completed",
    'features lose turns to retention; the limits are applied right after. Completing twice changes nothing.',
  ].join('\n'),
  options: {
    feature: { type: 'string', value: 'F', description: 'the feature (FEAT-XXX)' },
    ...PROJECT_OPTION,
  },
  positionals: [0, 0],
  examples: ['lore turn complete --feature FEAT-001', 'lore turn complete --feature FEAT-001 --project acme --json'],
  async run(ctx) {
    const store = await ctx.openStore();
    const result = await completeFeature({ store, project: projectOf(store, ctx.string('project')), feature: required(ctx, 'feature', 'turn complete'), now: new Date() });
    if (ctx.json) {
      ctx.printJson(result);
      return;
    }
    const feature = result.completion.feature_id;
    ctx.print(result.status === 'completed'
      ? `completed feature ${feature} (${result.file}); its turns may now be pruned`
      : `feature ${feature} was already completed at ${result.completion.timestamp}: nothing to change`);
    printPrune(ctx, result.prune, false);
  },
});

import type { CompleteFeatureResult } from '../../turns/record.js';
import { defineOpCommand } from '../command.js';
import { printPrune, PROJECT_OPTION, projectInput, required } from './_player-coach.js';

export const command = defineOpCommand<CompleteFeatureResult>({
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
  op: 'turn.complete',
  input: (ctx) => ({ feature_id: required(ctx, 'feature', 'turn complete'), ...projectInput(ctx) }),
  print(result, ctx) {
    const feature = result.completion.feature_id;
    ctx.print(result.status === 'completed'
      ? `completed feature ${feature} (${result.file}); its turns may now be pruned`
      : `feature ${feature} was already completed at ${result.completion.timestamp}: nothing to change`);
    printPrune(ctx, result.prune, false);
  },
});

import type { PruneResult } from '../../turns/retention.js';
import { defineOpCommand } from '../command.js';
import { printPrune, PROJECT_OPTION, projectInput } from './_player-coach.js';

export const command = defineOpCommand<PruneResult>({
  name: 'turn prune',
  summary: 'apply the turn retention limits to a project',
  usage: '[options]',
  description: [
    'Keeps at most turns.max_per_feature turns per feature and turns.max_per_project per project',
    '(config.yaml; 50 and 200 by default). Over a limit, the oldest turns of completed features go first',
    '(lore turn complete marks a feature completed); turns of features in progress are never removed,',
    'a warning says so instead. Logs are rewritten atomically; git history keeps what was pruned. A log',
    'with a line that cannot be read is never rewritten (that would lose the line): it is reported, with',
    'its file and line, and the command exits 1.',
  ].join('\n'),
  options: {
    'dry-run': { type: 'boolean', description: 'show what would be pruned, change nothing' },
    ...PROJECT_OPTION,
  },
  positionals: [0, 0],
  exits: { 1: 'a log holds a line that cannot be read, so it was not pruned' },
  examples: ['lore turn prune --dry-run', 'lore turn prune --project acme --json'],
  op: 'turn.prune',
  input: (ctx) => ({ dryRun: ctx.flag('dry-run'), ...projectInput(ctx) }),
  exit: (result) => (result.refused.length > 0 ? 1 : 0),
  print(result, ctx) {
    printPrune(ctx, result, true);
  },
});

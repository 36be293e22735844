import { projectOf } from '../../entities/sources.js';
import { pruneTurns, type PruneResult } from '../../turns/retention.js';
import { defineCommand, type CommandContext } from '../command.js';
import { plural } from '../format.js';
import { PROJECT_OPTION } from './_player-coach.js';

/**
 * What retention did, for people; `always` (lore turn prune) also reports when nothing was pruned,
 * and reports a log it refused to rewrite as an error rather than a warning.
 */
export function printPrune(ctx: CommandContext, result: PruneResult, always: boolean): void {
  const limits = `limits: ${result.limits.max_per_feature} per feature, ${result.limits.max_per_project} per project`;
  if (result.removed.length > 0) {
    ctx.print(`${result.dryRun ? 'would prune' : 'pruned'} ${plural(result.removed.length, 'turn')} of project ${result.project} (${result.before} -> ${result.after}; ${limits})`);
    for (const f of result.features.filter((x) => x.removed > 0)) ctx.print(`  ${f.feature}: ${plural(f.removed, 'turn')} of ${f.turns} (completed)`);
  } else if (always && result.refused.length === 0) {
    ctx.print(`nothing to prune in project ${result.project}: ${plural(result.before, 'turn')} in ${plural(result.features.length, 'feature')}; ${limits}`);
  }
  for (const warning of result.warnings) ctx.note(ctx.style.yellow(`warning: ${warning}`));
  for (const refusal of result.refused) {
    const text = `${refusal.message}; none of its turns were pruned (fix or remove the line by hand: lore validate lists every such line)`;
    ctx.note(always ? `${ctx.style.red('error')}: ${text}` : ctx.style.yellow(`warning: ${text}`));
  }
}

export const command = defineCommand({
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
  examples: ['lore turn prune --dry-run', 'lore turn prune --project acme --json'],
  async run(ctx) {
    const store = await ctx.openStore();
    const result = await pruneTurns({ store, project: projectOf(store, ctx.string('project')), dryRun: ctx.flag('dry-run') });
    if (ctx.json) ctx.printJson(result);
    else printPrune(ctx, result, true);
    return result.refused.length > 0 ? 1 : 0;
  },
});

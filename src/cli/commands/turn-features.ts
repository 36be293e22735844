import type { TurnFeaturesOutput } from '../../ops/player-coach/turn-features.js';
import { defineOpCommand } from '../command.js';
import { plural, table } from '../format.js';
import { PROJECT_OPTION, projectInput } from './_player-coach.js';

export const command = defineOpCommand<TurnFeaturesOutput>({
  name: 'turn features',
  summary: 'list the features of a project that have a turn log, latest activity first',
  usage: '[options]',
  description: 'Each feature with its number of turns, its latest turn and whether it is completed.',
  options: { ...PROJECT_OPTION },
  positionals: [0, 0],
  examples: ['lore turn features', 'lore turn features --project acme --json'],
  op: 'turn.features',
  input: (ctx) => projectInput(ctx),
  print(listed, ctx) {
    if (listed.features.length === 0) {
      ctx.print(`no turn logs for project ${listed.project}${listed.projects.length === 0 ? '' : ` (projects with turn logs: ${listed.projects.join(', ')})`}`);
      return;
    }
    ctx.print(table(listed.features.map((f) => [f.feature, plural(f.turns, 'turn'), f.latest === null ? '' : `T${f.latest.turn_number} ${f.latest.task_id} ${f.latest.coach_decision} ${f.latest.timestamp}`, f.completed ? 'completed' : 'in progress']), ctx.columns));
  },
});

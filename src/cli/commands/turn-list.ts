import type { TurnListOutput } from '../../ops/player-coach/turn-list.js';
import { defineOpCommand } from '../command.js';
import { plural, table } from '../format.js';
import { logName, TURN_LOG_OPTIONS, turnLogInput } from './_player-coach.js';

export const command = defineOpCommand<TurnListOutput>({
  name: 'turn list',
  summary: 'list the turns of a feature',
  usage: '--feature F [options]',
  description: 'Lists the latest version of every turn, by turn_number, then timestamp. With --ref, the log is read from that commit through git.',
  options: TURN_LOG_OPTIONS,
  positionals: [0, 0],
  examples: ['lore turn list --feature FEAT-001', 'lore turn list --feature FEAT-001 --ref origin/main --json'],
  op: 'turn.list',
  input: (ctx) => turnLogInput(ctx, 'turn list'),
  print(log, ctx) {
    if (log.turns.length === 0) {
      ctx.print(`no turns recorded for ${logName(log)}`);
      return;
    }
    ctx.print(table(log.turns.map((t) => [`T${t.turn_number}`, t.task_id, t.coach_decision, t.timestamp, t.progress_summary]), ctx.columns));
    ctx.print(`${plural(log.turns.length, 'turn')} of ${logName(log)}${log.completed ? ', completed' : ', in progress'}`);
  },
});

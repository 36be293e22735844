import { defineCommand } from '../command.js';
import { plural, table } from '../format.js';
import { logName, openTurnLog, TURN_LOG_OPTIONS } from './turn-latest.js';

export const command = defineCommand({
  name: 'turn list',
  summary: 'list the turns of a feature',
  usage: '--feature F [options]',
  description: 'Lists the latest version of every turn, by turn_number, then timestamp. With --ref, the log is read from that commit through git.',
  options: TURN_LOG_OPTIONS,
  positionals: [0, 0],
  examples: ['lore turn list --feature FEAT-001', 'lore turn list --feature FEAT-001 --ref origin/main --json'],
  async run(ctx) {
    const log = await openTurnLog(ctx, 'turn list');
    if (ctx.json) {
      ctx.printJson({ project: log.project, feature: log.feature, file: log.file, ref: log.ref ?? null, completed: log.completion !== undefined, turns: log.turns });
      return;
    }
    if (log.turns.length === 0) {
      ctx.print(`no turns recorded for ${logName(log)}`);
      return;
    }
    ctx.print(table(log.turns.map((t) => [`T${t.turn_number}`, t.task_id, t.coach_decision, t.timestamp, t.progress_summary]), ctx.columns));
    ctx.print(`${plural(log.turns.length, 'turn')} of ${logName(log)}${log.completion === undefined ? ', in progress' : ', completed'}`);
  },
});

import { suggestMode } from '../../entities/modes.js';
import { defineCommand } from '../command.js';
import { integer, originText, required, TASK_OPTIONS } from './_player-coach.js';

export const command = defineCommand({
  name: 'mode suggest',
  summary: 'suggest an implementation mode for a task (advisory only)',
  usage: '--task-type T --complexity N [options]',
  description: [
    'Among the modes whose complexity_range holds the complexity, the one whose range midpoint is',
    'nearest wins; a tie goes to less ceremony (2 -> direct, 5 -> task_work, 7 -> autobuild). Advice',
    'only: nothing is blocked. When no mode covers the complexity, nothing is suggested (exit 0).',
  ].join('\n'),
  options: { ...TASK_OPTIONS },
  positionals: [0, 0],
  examples: ['lore mode suggest --task-type feature --complexity 7', 'lore mode suggest --task-type documentation --complexity 2 --json'],
  async run(ctx) {
    const store = await ctx.openStore();
    const taskType = required(ctx, 'task-type', 'mode suggest');
    const complexity = integer(ctx, 'complexity', 'mode suggest');
    const suggestion = await suggestMode({ store, taskType, complexity });
    if (ctx.json) {
      ctx.printJson({ task_type: taskType, complexity, suggestion: suggestion ?? null });
      return;
    }
    if (suggestion === undefined) {
      ctx.print(`no implementation mode covers complexity ${complexity}: no suggestion, proceed as usual`);
      return;
    }
    ctx.print(`Suggested mode: ${ctx.style.bold(suggestion.mode)} (${suggestion.ceremony_level} ceremony)`);
    ctx.print(`  ${suggestion.when_to_use.join(', ')}`);
    if (suggestion.pitfall !== undefined) ctx.print(`  Pitfall: ${suggestion.pitfall}`);
    ctx.print(ctx.style.dim(`  advisory only; from ${originText(suggestion.origin)}; modes covering ${complexity}: ${suggestion.candidates.join(', ')}`));
  },
});

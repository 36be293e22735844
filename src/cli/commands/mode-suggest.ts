import type { ModeSuggestOutput } from '../../ops/player-coach/mode-suggest.js';
import { defineOpCommand } from '../command.js';
import { originText, required, requiredNumber, TASK_OPTIONS } from './_player-coach.js';

export const command = defineOpCommand<ModeSuggestOutput>({
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
  op: 'mode.suggest',
  input: (ctx) => ({ task_type: required(ctx, 'task-type', 'mode suggest'), complexity: requiredNumber(ctx, 'complexity', 'mode suggest') }),
  print({ complexity, suggestion }, ctx) {
    if (suggestion === null) {
      ctx.print(`no implementation mode covers complexity ${complexity}: no suggestion, proceed as usual`);
      return;
    }
    ctx.print(`Suggested mode: ${ctx.style.bold(suggestion.mode)} (${suggestion.ceremony_level} ceremony)`);
    ctx.print(`  ${suggestion.when_to_use.join(', ')}`);
    if (suggestion.pitfall !== undefined) ctx.print(`  Pitfall: ${suggestion.pitfall}`);
    ctx.print(ctx.style.dim(`  advisory only; from ${originText(suggestion.origin)}; modes covering ${complexity}: ${suggestion.candidates.join(', ')}`));
  },
});

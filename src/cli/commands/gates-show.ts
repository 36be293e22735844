import { GATE_FIELDS } from '../../entities/gates.js';
import type { GatesShowOutput } from '../../ops/player-coach/gates-show.js';
import { defineOpCommand } from '../command.js';
import { table } from '../format.js';
import { originText, overrideText, PROJECT_OPTION, sourceLabel, TASK_OPTIONS, taskInput } from './_player-coach.js';

export const command = defineOpCommand<GatesShowOutput>({
  name: 'gates show',
  summary: 'show the quality gates of a task type and complexity',
  usage: '--task-type T --complexity N [options]',
  description: [
    "Picks the task type's profile whose complexity_range holds the complexity (store record, or the",
    "built-in profile when the store has none), then applies the project's overrides for that range,",
    'field by field. Each field says whether it came from the store, the override file or the fallback.',
  ].join('\n'),
  options: { ...TASK_OPTIONS, ...PROJECT_OPTION },
  positionals: [0, 0],
  examples: ['lore gates show --task-type feature --complexity 5', 'lore gates show --task-type feature --complexity 5 --project acme --json'],
  op: 'gates.show',
  input: (ctx) => taskInput(ctx, 'gates show'),
  print(resolved, ctx) {
    const p = resolved.profile;
    ctx.print(`${ctx.style.bold(p.id)} for ${p.task_type}, complexity ${resolved.complexity}, project ${resolved.project}`);
    ctx.print(`  profile: ${originText(resolved.origin)}`);
    ctx.print(`  overrides: ${overrideText(resolved.overrideFile, resolved.project)}`);
    ctx.print('');
    const rows = GATE_FIELDS.filter((f) => p[f] !== undefined).map((f) => {
      const value = f === 'coverage_threshold' ? `${p[f]} (${+(p[f]! * 100).toFixed(2)}%)` : String(p[f]);
      return [f, value, ctx.style.dim(sourceLabel(resolved.fields[f]!))];
    });
    ctx.print(table(rows, undefined));
  },
});

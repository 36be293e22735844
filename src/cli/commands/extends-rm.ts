import type { ResolvedSource } from '../../extends/sources.js';
import { defineOpCommand } from '../command.js';

export const command = defineOpCommand<{ removed: string; sources: ResolvedSource[] }>({
  name: 'extends rm',
  summary: "remove an org-wide knowledge source from config.yaml's extends",
  usage: '<name>',
  description: "Removes the source from config.yaml's extends; lore sync then takes it out of .knowledge/extends.lock.",
  options: {},
  positionals: [1, 1],
  examples: ['lore extends rm acme'],
  op: 'extends.remove',
  input: (ctx) => ({ name: ctx.args[0]! }),
  print({ removed }, ctx) {
    ctx.print(`${ctx.style.green('removed')} ${removed}`);
    ctx.print('next: run lore sync to take it out of .knowledge/extends.lock, then commit both files');
  },
});

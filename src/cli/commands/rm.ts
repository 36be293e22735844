import { defineOpCommand } from '../command.js';

export const command = defineOpCommand<{ id: string; file: string }>({
  name: 'rm',
  summary: 'remove a knowledge entry (deletes its file)',
  usage: '<id> [options]',
  description: 'Deletes the file of the entry (pending learnings included). Git keeps its history; lore disable keeps it but stops applying it.',
  options: {},
  positionals: [1, 1],
  examples: ['lore rm rec-use-typescript-strict-mode'],
  op: 'entry.remove',
  input: (ctx) => ({ id: ctx.args[0]! }),
  print(result, ctx) {
    ctx.print(`${ctx.style.green('removed')} ${result.id} (${result.file})`);
  },
});

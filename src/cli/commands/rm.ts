import { removeEntry } from '../../knowledge/manage.js';
import { defineCommand } from '../command.js';

export const command = defineCommand({
  name: 'rm',
  summary: 'remove a knowledge entry (deletes its file)',
  usage: '<id> [options]',
  description: 'Deletes the file of the entry (pending learnings included). Git keeps its history; lore disable keeps it but stops applying it.',
  options: {},
  positionals: [1, 1],
  examples: ['lore rm rec-use-typescript-strict-mode'],
  async run(ctx) {
    const result = await removeEntry({ store: await ctx.openStore(), id: ctx.args[0]! });
    if (ctx.json) return void ctx.printJson(result);
    ctx.print(`${ctx.style.green('removed')} ${result.id} (${result.file})`);
  },
});

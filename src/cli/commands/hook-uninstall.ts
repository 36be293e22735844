import { uninstallHook } from '../../guard/install.js';
import { defineCommand } from '../command.js';

export const command = defineCommand({
  name: 'hook uninstall',
  summary: "remove lore's pre-commit hook and restore the hook it chained",
  usage: '[options]',
  description: [
    "Undoes lore hook install: removes lore's line from husky's hook (wherever it is in the file), or removes",
    "lore's shim and puts back the hook it chained. A file that held only lore's line is deleted.",
  ].join('\n'),
  options: {},
  positionals: [0, 0],
  examples: ['lore hook uninstall'],
  async run(ctx) {
    const result = await uninstallHook({ cwd: ctx.cwd, env: ctx.env });
    if (ctx.json) return ctx.printJson(result);
    if (result.status === 'not-installed') return ctx.print(`lore's pre-commit hook is not installed (${result.file})`);
    ctx.print(`removed lore's pre-commit hook from ${result.file}${result.restored === undefined ? '' : '; the previous hook is back'}`);
  },
});

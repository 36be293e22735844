import { installHook } from '../../guard/install.js';
import { defineCommand } from '../command.js';

export const command = defineCommand({
  name: 'hook install',
  summary: "install lore's pre-commit hook in this repository, chaining any existing hook",
  usage: '[options]',
  description: [
    'Finds where the pre-commit hook lives (core.hooksPath, husky, or .git/hooks). With husky it adds one',
    'line to .husky/pre-commit. Otherwise it writes a thin shim; an existing hook is kept, renamed to',
    'pre-commit.lore-chained, and runs first. lore hook uninstall restores it.',
  ].join('\n'),
  options: {},
  positionals: [0, 0],
  examples: ['lore hook install', 'lore hook install --json'],
  async run(ctx) {
    const result = await installHook({ cwd: ctx.cwd, env: ctx.env });
    if (ctx.json) return ctx.printJson(result);
    if (result.status === 'already-installed') return ctx.print(`lore's pre-commit hook is already installed in ${result.file}`);
    ctx.print(`installed lore's pre-commit hook in ${result.file}${result.chained === undefined ? '' : ` (the existing hook now runs first, from ${result.chained})`}`);
    if (result.manager === 'lefthook') ctx.note('note: lefthook manages this hook and may overwrite it; prefer adding "lore hook pre-commit" to lefthook.yml (see the README)');
  },
});

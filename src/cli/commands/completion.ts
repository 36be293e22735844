import { UsageError } from '../../errors.js';
import { defineCommand } from '../command.js';
import { completionScript, SHELLS, type Shell } from '../_completion.js';
import { GLOBAL_OPTIONS } from '../_options.js';

export const command = defineCommand({
  name: 'completion',
  summary: 'print the shell completion script for bash, zsh or fish',
  usage: '<bash|zsh|fish>',
  description: [
    'Prints a script that completes lore\'s commands, subcommands, options and the values of options that',
    'take one of a list, generated from the commands themselves. Install it once per shell; regenerate it',
    'after upgrading lore.',
  ].join('\n'),
  options: {},
  positionals: [1, 1],
  args: SHELLS,
  json: false,
  examples: [
    'lore completion bash > ~/.local/share/bash-completion/completions/lore',
    'lore completion zsh > ~/.zfunc/_lore',
    'lore completion fish > ~/.config/fish/completions/lore.fish',
  ],
  async run(ctx) {
    const shell = ctx.args[0]!;
    if (!(SHELLS as readonly string[]).includes(shell)) throw new UsageError(`lore completion does not know the shell "${shell}"`, `shells: ${SHELLS.join(', ')}`);
    ctx.print(completionScript(shell as Shell, await ctx.commands(), GLOBAL_OPTIONS).trimEnd());
  },
});

import { installHook } from '../../guard/install.js';
import { defineCommand } from '../command.js';

const lines = (numbers: number[]): string => `${numbers.length === 1 ? 'line' : 'lines'} ${numbers.join(', ')}`;

export const command = defineCommand({
  name: 'hook install',
  summary: "install lore's pre-commit hook where git provably runs it, keeping any existing hook",
  usage: '[options]',
  description: [
    'Finds the pre-commit hook git runs (core.hooksPath, husky, or .git/hooks). With husky 9.1+ it puts one',
    'line in .husky/pre-commit as its first command, after the #! line and leading comments, so an exit or',
    'exec further down cannot skip it; a hook file git tracks (core.hooksPath=.githooks) gets the same line,',
    'and install says the file must be committed. Otherwise it writes a thin shim; an existing hook is kept,',
    'renamed to pre-commit.lore-chained, and runs first. lore hook uninstall undoes each.',
    '',
    'Then it reads the files back and proves that git runs lore. When it cannot (a husky hook that is not',
    "a shell script, husky's runner missing, not executable or older than 9.1, hooks turned off, lefthook",
    'managing the hooks), it changes nothing, says what to edit by hand, and exits 1.',
    '',
    '--json status: installed, already-installed or refused (with reason, message, fix and text); tracked:',
    'whether git tracks the file. lore hook status proves which manager runs lore.',
  ].join('\n'),
  options: {},
  positionals: [0, 0],
  exits: { 1: 'refused: git would not provably run lore (nothing changed; the fix is printed)' },
  examples: ['lore hook install', 'lore hook install --json'],
  async run(ctx) {
    const result = await installHook({ cwd: ctx.cwd, env: ctx.env });
    if (ctx.json) {
      ctx.printJson(result);
      return result.status === 'refused' ? 1 : 0;
    }
    if (result.status === 'refused') {
      ctx.note(`lore: hook not installed: ${result.message}. Nothing was changed.`);
      ctx.note(result.text === undefined ? `${result.fix}.` : `${result.fix}:\n\n${result.text.replace(/\n$/, '')}`);
      return 1;
    }
    if (result.status === 'already-installed') return ctx.print(`lore's pre-commit hook is already installed in ${result.file}`);
    const replaced = result.replaced === undefined ? '' : `; it replaced lore's earlier ${lines(result.replaced)}`;
    if (result.style === 'husky') ctx.print(`installed lore's pre-commit hook in ${result.file} as its first command (git runs it through husky's ${result.runner})${replaced}`);
    else if (result.tracked) ctx.print(`installed lore's pre-commit hook in ${result.file} as its first command${replaced}`);
    else ctx.print(`installed lore's pre-commit hook in ${result.file}${result.chained === undefined ? '' : ` (the existing hook now runs first, from ${result.chained})`}`);
    if (result.tracked) ctx.print(`${result.file} is tracked by git: commit the change so that the team runs lore too`);
  },
});

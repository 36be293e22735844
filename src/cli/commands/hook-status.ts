import { hookStatus } from '../../guard/hook-status.js';
import { defineCommand } from '../command.js';

export const command = defineCommand({
  name: 'hook status',
  summary: 'say which hook manager runs lore on a commit, and prove it by a dry run',
  usage: '[options]',
  description: [
    'Names the manager of the pre-commit hook (git: .git/hooks; husky; lefthook; pre-commit: the',
    'pre-commit framework; hooks-path: a core.hooksPath folder; none) and the file git runs, then proves',
    'that lore runs: git hook run pre-commit with LORE_HOOK_PROBE set, so lore hook pre-commit says it was',
    'reached and exits at once, checking nothing. The dry run happens only where nothing of yours runs',
    "before lore: lore's shim (the hook it chains is not run), lore's line as the first command, lefthook",
    "asked for its command lore alone. For the pre-commit framework the proof is .pre-commit-config.yaml.",
    '',
    'Exit 0: lore runs. Exit 1: it does not (the fix is printed). Exit 2: the check could not run.',
  ].join('\n'),
  options: {},
  positionals: [0, 0],
  exits: { 1: 'git does not run lore on a commit (the fix is printed)' },
  examples: ['lore hook status', 'lore hook status --json'],
  async run(ctx) {
    const status = await hookStatus({ cwd: ctx.cwd, env: ctx.env });
    if (ctx.json) {
      const { manager, file, via, runs, proof, message, evidence, fix, text, output } = status;
      ctx.printJson({ manager, file, via, runs, proof, message, evidence, fix, text, output });
      return status.runs ? 0 : 1;
    }
    if (status.runs) return ctx.print(`lore runs on commit (${status.manager}): ${status.message}\nproof: ${status.evidence}`);
    ctx.print(`lore does not run on commit (${status.manager}): ${status.message}`);
    if (status.output !== undefined && status.output.trim() !== '') ctx.print(`the dry run printed:\n${status.output.replace(/\n$/, '').replace(/^/gm, '  ')}`);
    ctx.print(status.text === undefined ? `fix: ${status.fix}` : `fix: ${status.fix}:\n\n${status.text.replace(/\n$/, '')}`);
    return 1;
  },
});

import { checkStaged } from '../../guard/check.js';
import { defineCommand } from '../command.js';
import { printReport } from './_guard-output.js';

/** The exit code of a probed hook: not 0, so `|| exit $?` ends the hook before anything after lore runs. */
export const PROBE_EXIT = 3;

export const command = defineCommand({
  name: 'hook pre-commit',
  summary: 'the pre-commit hook: check the staged change, block on critical prohibitions',
  usage: '[options]',
  description: [
    'What hooks/pre-commit runs. Checks the staged change as git will commit it (also for git commit -a',
    'and git commit <path>, through GIT_INDEX_FILE). Exit 1 blocks the commit on a critical finding; exit 2',
    'blocks it when the check cannot run (invalid store, git failure): it fails closed.',
    'LORE_SKIP=1 skips the hook, visibly; CI still checks the range.',
    '',
    'LORE_HOOK_PROBE=<token> (set by lore hook status for its dry run): says it was reached, with the token,',
    'and exits 3 at once, checking nothing, so that a hook calling it with || exit $? stops there.',
  ].join('\n'),
  options: { verbose: { type: 'boolean', description: 'also list suppressed and allowed findings, and the role decision' } },
  positionals: [0, 0],
  json: false,
  light: true,
  exits: { 1: 'a critical finding blocks the commit', 2: 'the check could not run (invalid store, git failure): the commit is blocked', 3: 'LORE_HOOK_PROBE is set: the dry run of lore hook status reached lore' },
  examples: ['lore hook pre-commit', 'LORE_SKIP=1 git commit -m "..."   # skip the hook, visibly'],
  async run(ctx) {
    const probe = ctx.env.LORE_HOOK_PROBE;
    if (probe !== undefined && probe !== '') {
      ctx.note(`lore: hook probe ${probe}: lore hook pre-commit was reached; nothing was checked`);
      return PROBE_EXIT;
    }
    if (ctx.env.LORE_SKIP === '1') {
      ctx.note('lore: LORE_SKIP=1: the pre-commit check was skipped (CI still checks the range)');
      return 0;
    }
    const report = await checkStaged({ cwd: ctx.cwd, env: ctx.env });
    // Hooks talk on stderr: git shows it, and stdout stays free for the commit's own tools. A clean
    // pass is one line.
    return printReport(ctx, report, 'text', ctx.note, true);
  },
});

// `lore enable` and `lore disable`: one definition, two commands.
import { setEnabled } from '../knowledge/manage.js';
import { defineCommand, type CommandSpec } from './command.js';

/** The command that sets an entry's `enabled` to the given value. */
export function toggleCommand(enabled: boolean): CommandSpec {
  const verb = enabled ? 'enable' : 'disable';
  return defineCommand({
    name: verb,
    summary: `${verb} a knowledge entry`,
    usage: '<id> [options]',
    description: enabled ? 'Sets enabled: true, so the entry applies again.' : 'Sets enabled: false: the entry is kept but never applied (queries, checks and hooks skip it).',
    options: {},
    positionals: [1, 1],
    examples: [`lore ${verb} pro-never-commit-env-files`],
    async run(ctx) {
      const result = await setEnabled({ store: await ctx.openStore(), id: ctx.args[0]!, enabled, env: ctx.env });
      if (ctx.json) return void ctx.printJson({ id: result.entry.id, file: result.file, status: result.status, enabled });
      ctx.print(result.status === 'unchanged' ? `${result.entry.id} is already ${verb}d` : `${ctx.style.green(`${verb}d`)} ${result.entry.id} (${result.file})`);
    },
  });
}

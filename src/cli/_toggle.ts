// `lore enable` and `lore disable`: one definition, two commands.
import type { ToggleOutput } from '../ops/knowledge/_toggle.js';
import { defineOpCommand, type CommandSpec } from './command.js';

/** The command that sets an entry's `enabled` to the given value. */
export function toggleCommand(enabled: boolean): CommandSpec {
  const verb = enabled ? 'enable' : 'disable';
  return defineOpCommand<ToggleOutput>({
    name: verb,
    summary: `${verb} a knowledge entry`,
    usage: '<id> [options]',
    description: enabled ? 'Sets enabled: true, so the entry applies again.' : 'Sets enabled: false: the entry is kept but never applied (queries, checks and hooks skip it).',
    options: {},
    positionals: [1, 1],
    examples: [`lore ${verb} pro-never-commit-env-files`],
    op: enabled ? 'entry.enable' : 'entry.disable',
    input: (ctx) => ({ id: ctx.args[0]! }),
    print(result, ctx) {
      ctx.print(result.status === 'unchanged' ? `${result.id} is already ${verb}d` : `${ctx.style.green(`${verb}d`)} ${result.id} (${result.file})`);
    },
  });
}

import { UsageError } from '../../errors.js';
import type { EditOutput } from '../../ops/knowledge/edit.js';
import { defineOpCommand } from '../command.js';
import { setInput } from '../_knowledge.js';

export const command = defineOpCommand<EditOutput>({
  name: 'edit',
  summary: 'change fields of a knowledge entry',
  usage: '<id> --set field=value [--set ...] [options]',
  description: [
    'Sets fields of an entry (pending learnings included) and its updatedAt. Text fields take the value as',
    'it is; enabled and secret take true or false; lists and objects take YAML or JSON ([env, secrets]);',
    'a single word for a list is a list of one. An empty value removes an optional field. id, type,',
    'createdAt and updatedAt are maintained by lore. An invalid result is refused (exit 1), naming the field.',
  ].join('\n'),
  options: {
    set: { type: 'string', multiple: true, value: 'FIELD=VALUE', description: 'the change to make (repeatable)' },
  },
  positionals: [1, 1],
  exits: { 1: 'the edited entry would be invalid (nothing written)' },
  examples: ['lore edit rec-use-typescript-strict-mode --set priority=critical', 'lore edit pro-never-commit-env-files --set "keywords=[env, dotenv]" --set details='],
  op: 'entry.edit',
  async input(ctx) {
    if (ctx.strings('set').length === 0) throw new UsageError('lore edit needs at least one --set field=value', 'e.g. lore edit <id> --set priority=high');
    return { id: ctx.args[0]!, set: await setInput(ctx) };
  },
  print(result, ctx) {
    ctx.print(result.status === 'unchanged' ? `${result.entry.id} is unchanged (${result.file})` : `${ctx.style.green('updated')} ${result.entry.id} (${result.file})`);
  },
});

import { UsageError } from '../../errors.js';
import { editEntry } from '../../knowledge/manage.js';
import { parseAssignment } from '../../knowledge/set-fields.js';
import { defineCommand } from '../command.js';

export const command = defineCommand({
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
  examples: ['lore edit rec-use-typescript-strict-mode --set priority=critical', 'lore edit pro-never-commit-env-files --set "keywords=[env, dotenv]" --set details='],
  async run(ctx) {
    const set = ctx.strings('set').map(parseAssignment);
    if (set.length === 0) throw new UsageError('lore edit needs at least one --set field=value', 'e.g. lore edit <id> --set priority=high');
    const result = await editEntry({ store: await ctx.openStore(), id: ctx.args[0]!, set, env: ctx.env });
    if (ctx.json) return void ctx.printJson({ id: result.entry.id, file: result.file, status: result.status, entry: result.entry });
    ctx.print(result.status === 'unchanged' ? `${result.entry.id} is unchanged (${result.file})` : `${ctx.style.green('updated')} ${result.entry.id} (${result.file})`);
  },
});

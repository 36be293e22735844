import type { RecordOutput } from '../../ops/store/_records.js';
import { defineOpCommand } from '../command.js';
import { usageText } from '../_knowledge.js';

export const command = defineOpCommand<RecordOutput | RecordOutput[]>({
  name: 'show',
  summary: 'show one record by id',
  usage: '<id> [options]',
  description: 'Finds the record with this id (or graph entity with this name) in any kind and prints its file.',
  options: {
    kind: { type: 'string', value: 'KIND', description: 'look only in this kind (prohibitions, gates, entities, ...)' },
  },
  positionals: [1, 1],
  examples: ['lore show pro-never-commit-env-files', 'lore show QG-feature-4-6 --json', 'lore show "Auth Service" --kind entities'],
  op: 'record.show',
  daemon: true,
  input: (ctx) => ({ id: ctx.args[0]!, ...(ctx.string('kind') === undefined ? {} : { kind: ctx.string('kind') }) }),
  async print(output, ctx) {
    // The YAML writer only for text: `--json` never loads it.
    const { renderRecord } = await import('../../store/write.js');
    for (const record of Array.isArray(output) ? output : [output]) {
      ctx.print(ctx.style.dim(`# ${record.file}`));
      ctx.print(renderRecord(record.kind, record.value).replace(/^# yaml-language-server:.*\n/, '').trimEnd());
      if (record.stats !== undefined) ctx.print(ctx.style.dim(`# usage: ${usageText(record.stats)}`));
    }
  },
});

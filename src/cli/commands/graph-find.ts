import { UsageError } from '../../errors.js';
import type { FindOutput } from '../../ops/graph/find.js';
import { defineOpCommand } from '../command.js';
import { plural, table } from '../format.js';
import { graphLocation, MEMORY_FILE_OPTION, memoryFileInput } from './_graph.js';

export const command = defineOpCommand<FindOutput>({
  name: 'graph find',
  summary: 'find entities by type, tag, or relationship to another entity',
  usage: '[options]',
  description: 'Every filter given must hold. --related-to NAME keeps entities with a relationship to or from NAME; --relation narrows that to one relationship type. No filter lists every entity.',
  options: {
    type: { type: 'string', value: 'T', description: 'entities of this type' },
    tag: { type: 'string', multiple: true, value: 'T', description: 'entities carrying this tag (repeat: all of them)' },
    'related-to': { type: 'string', value: 'NAME', description: 'entities with a relationship to or from NAME' },
    relation: { type: 'string', value: 'TYPE', description: 'with --related-to: only relationships of this type' },
    limit: { type: 'integer', min: 1, value: 'N', description: 'list at most N entities (default: all)' },
    ...MEMORY_FILE_OPTION,
  },
  positionals: [0, 0],
  examples: ['lore graph find --type service', 'lore graph find --tag payments --json', 'lore graph find --related-to "User DB" --relation reads_from'],
  op: 'graph.find',
  input(ctx) {
    const [type, relatedTo, relation] = [ctx.string('type'), ctx.string('related-to'), ctx.string('relation')];
    if (relation !== undefined && relatedTo === undefined) throw new UsageError('--relation narrows --related-to: give --related-to NAME too');
    return {
      ...(type === undefined ? {} : { type }),
      ...(ctx.strings('tag').length === 0 ? {} : { tags: ctx.strings('tag') }),
      ...(relatedTo === undefined ? {} : { relatedTo }),
      ...(relation === undefined ? {} : { relation }),
      limit: ctx.number('limit') ?? 0,
      ...memoryFileInput(ctx),
    };
  },
  async print(output, ctx) {
    if (output.total === 0) {
      ctx.print(`no entities match in ${await graphLocation(ctx)}`);
      return;
    }
    ctx.print(table(output.entities.map((e) => [e.name, e.type, e.description]), ctx.columns));
    ctx.print(ctx.style.dim(output.truncated ? `${output.entities.length} of ${plural(output.total, 'entity', 'entities')} (--limit ${output.entities.length})` : plural(output.total, 'entity', 'entities')));
  },
});

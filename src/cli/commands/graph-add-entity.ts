import { UsageError } from '../../errors.js';
import type { AddEntityOutput } from '../../ops/graph/add-entity.js';
import type { EntityUpdate } from '../../types.js';
import { defineOpCommand, type CommandContext } from '../command.js';
import { MEMORY_FILE_OPTION, memoryFileInput, parseProps, savedLines } from './_graph.js';

function updateFrom(ctx: CommandContext): EntityUpdate {
  const name = ctx.string('name');
  if (name === undefined) throw new UsageError('lore graph add-entity needs --name', 'usage: lore graph add-entity --name N --type T [options]');
  const update: EntityUpdate = { name };
  const type = ctx.string('type');
  const description = ctx.string('description');
  if (type !== undefined) update.type = type;
  if (description !== undefined) update.description = description;
  if (ctx.strings('tag').length > 0) update.tags = ctx.strings('tag');
  if (ctx.strings('prop').length > 0) update.properties = parseProps(ctx.strings('prop'));
  if (ctx.strings('remove-tag').length > 0) update.removeTags = ctx.strings('remove-tag');
  if (ctx.strings('remove-prop').length > 0) update.removeProperties = ctx.strings('remove-prop');
  return update;
}

export const command = defineOpCommand<AddEntityOutput>({
  name: 'graph add-entity',
  summary: 'add an entity, or update the one of that name',
  usage: '--name N --type T [options]',
  description: [
    'A new name adds an entity (--type is required then). An existing name is updated: a given --type or',
    '--description overwrites, tags are added to the existing ones, properties are merged key by key.',
    'Tags and properties are removed only by --remove-tag and --remove-prop. A --prop value is read as',
    'JSON when it is valid JSON (8080, true, ["a"]) and as a string otherwise.',
  ].join('\n'),
  options: {
    name: { type: 'string', value: 'N', description: 'the entity name (unique; any text)' },
    type: { type: 'string', value: 'T', description: 'its type: service, data_store, queue, library, adr, ...' },
    description: { type: 'string', value: 'D', description: 'what it is ("" empties it)' },
    tag: { type: 'string', multiple: true, value: 'T', description: 'a tag to add' },
    prop: { type: 'string', multiple: true, value: 'K=V', description: 'a property to set' },
    'remove-tag': { type: 'string', multiple: true, value: 'T', description: 'a tag to remove' },
    'remove-prop': { type: 'string', multiple: true, value: 'K', description: 'a property to remove' },
    ...MEMORY_FILE_OPTION,
  },
  positionals: [0, 0],
  examples: [
    'lore graph add-entity --name "Auth Service" --type service --description "Issues tokens" --tag core --prop owner=team-a',
    'lore graph add-entity --name "Auth Service" --remove-tag core --prop port=8443',
  ],
  op: 'graph.add_entity',
  input: (ctx) => ({ ...updateFrom(ctx), ...memoryFileInput(ctx) }),
  print(output, ctx) {
    ctx.print(`${output.change} entity ${JSON.stringify(output.entity.name)} (${output.entity.type})`);
    for (const line of savedLines(output.saved)) ctx.print(line);
  },
});

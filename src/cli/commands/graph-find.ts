import { UsageError } from '../../errors.js';
import type { Entity } from '../../types.js';
import { defineCommand } from '../command.js';
import { plural, table } from '../format.js';
import { loadGraph, MEMORY_FILE_OPTION, requireEntities } from './_graph.js';

export const command = defineCommand({
  name: 'graph find',
  summary: 'find entities by type, tag, or relationship to another entity',
  usage: '[options]',
  description: 'Every filter given must hold. --related-to NAME keeps entities with a relationship to or from NAME; --relation narrows that to one relationship type. No filter lists every entity.',
  options: {
    type: { type: 'string', value: 'T', description: 'entities of this type' },
    tag: { type: 'string', multiple: true, value: 'T', description: 'entities carrying this tag (repeat: all of them)' },
    'related-to': { type: 'string', value: 'NAME', description: 'entities with a relationship to or from NAME' },
    relation: { type: 'string', value: 'TYPE', description: 'with --related-to: only relationships of this type' },
    ...MEMORY_FILE_OPTION,
  },
  positionals: [0, 0],
  examples: ['lore graph find --type service', 'lore graph find --tag payments --json', 'lore graph find --related-to "User DB" --relation reads_from'],
  async run(ctx) {
    const { backend, graph } = await loadGraph(ctx);
    const type = ctx.string('type');
    const tags = ctx.strings('tag');
    const relatedTo = ctx.string('related-to');
    const relation = ctx.string('relation');
    if (relation !== undefined && relatedTo === undefined) throw new UsageError('--relation narrows --related-to: give --related-to NAME too');
    let found: Array<Readonly<Entity>> = type !== undefined ? graph.entitiesByType(type) : tags.length > 0 ? graph.entitiesByTag(tags[0]!) : [...graph.entities()];
    found = found.filter((e) => (type === undefined || e.type === type) && tags.every((t) => e.tags.includes(t)));
    if (relatedTo !== undefined) {
      requireEntities(graph, [relatedTo], backend);
      const filter = relation === undefined ? {} : { type: relation };
      const linked = new Set([...graph.findRelations({ ...filter, from: relatedTo }).map((r) => r.to), ...graph.findRelations({ ...filter, to: relatedTo }).map((r) => r.from)]);
      found = found.filter((e) => linked.has(e.name));
    }
    if (ctx.json) {
      ctx.printJson(found);
      return;
    }
    if (found.length === 0) {
      ctx.print(`no entities match in ${backend.location}`);
      return;
    }
    ctx.print(table(found.map((e) => [e.name, e.type, e.description]), ctx.columns));
    ctx.print(ctx.style.dim(plural(found.length, 'entity', 'entities')));
  },
});

import { UsageError } from '../../errors.js';
import type { Entity } from '../../types.js';
import { defineOp } from '../_define.js';
import { DEFAULT_LIMIT, readGraph, requireEntities, type GraphInput } from './_graph.js';

export interface FindInput extends GraphInput {
  type?: string;
  /** Every one of these tags. */
  tags?: string[];
  /** Entities with a relationship to or from this one. */
  relatedTo?: string;
  /** With relatedTo: only relationships of this type. */
  relation?: string;
  /** At most this many entities (default DEFAULT_LIMIT); 0 for no limit. */
  limit?: number;
}

export interface FindOutput {
  entities: Entity[];
  /** How many entities match in all. */
  total: number;
  /** Whether the limit left some out. */
  truncated: boolean;
}

/** Entities by type, tags and relationship to another entity; every filter given must hold. */
export const op = defineOp<FindInput, FindOutput>({
  name: 'graph.find',
  async run(input, ctx) {
    const { type, relatedTo, relation } = input;
    const tags = input.tags ?? [];
    if (relation !== undefined && relatedTo === undefined) throw new UsageError('relation narrows relatedTo: give relatedTo too');
    const { backend, graph } = await readGraph(ctx, input.memoryFile);
    let found: Entity[] = type !== undefined ? graph.entitiesByType(type) : tags.length > 0 ? graph.entitiesByTag(tags[0]!) : [...graph.entities()];
    found = found.filter((e) => (type === undefined || e.type === type) && tags.every((t) => e.tags.includes(t)));
    if (relatedTo !== undefined) {
      requireEntities(graph, [relatedTo], backend);
      const filter = relation === undefined ? {} : { type: relation };
      const linked = new Set([...graph.findRelations({ ...filter, from: relatedTo }).map((r) => r.to), ...graph.findRelations({ ...filter, to: relatedTo }).map((r) => r.from)]);
      found = found.filter((e) => linked.has(e.name));
    }
    const limit = input.limit ?? DEFAULT_LIMIT;
    const shown = limit === 0 ? found : found.slice(0, limit);
    return { entities: shown, total: found.length, truncated: shown.length < found.length };
  },
});

import type { SavedFile } from '../../graph/store-graph.js';
import type { Entity, Relationship } from '../../types.js';
import { defineOp } from '../_define.js';
import { change, graphBackend, unknownEntity, type GraphInput } from './_graph.js';

export interface RemoveEntityOutput {
  removed: { entity: Entity; relationships: Relationship[] };
  saved: SavedFile[];
}

/** Removes an entity and every relationship from or to it. */
export const op = defineOp<{ name: string } & GraphInput, RemoveEntityOutput>({
  name: 'graph.remove_entity',
  async run(input, ctx) {
    const backend = await graphBackend(ctx, input.memoryFile);
    const { result, saved } = await change(ctx, backend, (graph) => {
      const removed = graph.removeEntity(input.name);
      if (removed === undefined) throw unknownEntity(graph, input.name, backend);
      return removed;
    });
    return { removed: { entity: result.entity, relationships: result.relationships }, saved };
  },
});

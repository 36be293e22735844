import type { SavedFile } from '../../graph/store-graph.js';
import type { Entity, EntityUpdate } from '../../types.js';
import { defineOp } from '../_define.js';
import { change, graphBackend, type GraphInput } from './_graph.js';

export interface AddEntityOutput {
  change: 'added' | 'updated';
  entity: Entity;
  saved: SavedFile[];
}

/** Adds an entity, or merges the given fields into the one of that name. */
export const op = defineOp<EntityUpdate & GraphInput, AddEntityOutput>({
  name: 'graph.add_entity',
  async run(input, ctx) {
    const { memoryFile, ...update } = input;
    const backend = await graphBackend(ctx, memoryFile);
    const { result, saved } = await change(ctx, backend, (graph) => {
      const changed = graph.addOrUpdateEntity(update);
      return { change: changed, entity: graph.findEntityByName(update.name)! };
    });
    return { ...result, saved };
  },
});

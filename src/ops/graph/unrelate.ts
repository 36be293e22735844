import { LoreError } from '../../errors.js';
import { describeRelationship } from '../../graph/merge.js';
import type { SavedFile } from '../../graph/store-graph.js';
import type { RelationshipKey } from '../../types.js';
import { defineOp } from '../_define.js';
import { change, graphBackend, type GraphInput } from './_graph.js';

export interface UnrelateOutput {
  removed: RelationshipKey;
  saved: SavedFile[];
}

/** Removes the relationship from -type-> to. */
export const op = defineOp<RelationshipKey & GraphInput, UnrelateOutput>({
  name: 'graph.unrelate',
  async run(input, ctx) {
    const { from, type, to } = input;
    const backend = await graphBackend(ctx, input.memoryFile);
    const { saved } = await change(ctx, backend, (graph) => {
      if (graph.removeRelationship(from, to, type)) return;
      const types = graph.findRelations({ from, to }).map((r) => r.type);
      throw new LoreError('NOT_FOUND', `there is no relationship ${describeRelationship({ from, to, type })}`, types.length === 0 ? {} : { hint: `${JSON.stringify(from)} -> ${JSON.stringify(to)} has: ${types.join(', ')}` });
    });
    return { removed: { from, to, type }, saved };
  },
});

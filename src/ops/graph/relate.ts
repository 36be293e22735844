import { LoreError } from '../../errors.js';
import type { SavedFile } from '../../graph/store-graph.js';
import type { JsonValue, RelationshipKey } from '../../types.js';
import { defineOp } from '../_define.js';
import { change, graphBackend, type GraphInput } from './_graph.js';

export interface RelateInput extends GraphInput {
  from: string;
  type: string;
  to: string;
  properties?: Record<string, JsonValue>;
}

export interface RelateOutput {
  change: 'added' | 'updated';
  relationship: RelationshipKey;
  saved: SavedFile[];
}

/** Adds the relationship from -type-> to between two existing entities, or merges its properties. */
export const op = defineOp<RelateInput, RelateOutput>({
  name: 'graph.relate',
  async run(input, ctx) {
    const { from, type, to } = input;
    const backend = await graphBackend(ctx, input.memoryFile);
    const warnings: string[] = [];
    const { result, saved } = await change(ctx, backend, (graph) => {
      const existed = graph.findRelations({ from, to, type }).length > 0;
      graph.onWarning = (w) => warnings.push(w);
      const related = graph.addOrUpdateRelationship({ from, to, type, properties: input.properties ?? {} });
      return related ? (existed ? 'updated' : 'added') : undefined;
    });
    if (result === undefined) {
      throw new LoreError('INVALID_RECORD', warnings.join('; '), { hint: 'add the missing entity first with lore graph add-entity; nothing was changed' });
    }
    return { change: result, relationship: { from, to, type }, saved };
  },
});

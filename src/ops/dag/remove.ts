import { defineOp } from '../_define.js';
import { openDag, projectOf, type ProjectInput } from './_dag.js';

export interface RemoveOutput {
  deleted: string[];
  updated: string[];
  affectedSummaries: string[];
}

export const op = defineOp<{ id: string; cascade?: boolean } & ProjectInput, RemoveOutput>({
  name: 'dag.remove',
  async run(input, ctx) {
    return (await openDag(ctx)).remove(input.id, { ...projectOf(input), cascade: input.cascade === true });
  },
});

import { UsageError } from '../../errors.js';
import { UPDATE_SOURCE } from '../../graph/check-update.js';
import { parseJson } from '../../store/json-text.js';
import type { GraphUpdate } from '../../types.js';
import { defineOp } from '../_define.js';
import { applyOn, type ApplyOutput } from './_apply.js';
import { graphBackend, locateIn, type GraphInput } from './_graph.js';

export interface ApplyInput extends GraphInput {
  /** The update (schemas/graph-update.schema.json). */
  update?: GraphUpdate;
  /** The update as JSON text, instead of `update`: problems are then located by line and column. */
  json?: string;
  /** What names the update in problems (its file, `<stdin>`). */
  source?: string;
}

/** One structured update: entities merged by name, then relationships, removals last; all or nothing. */
export const op = defineOp<ApplyInput, ApplyOutput>({
  name: 'graph.apply',
  async run(input, ctx) {
    if ((input.update === undefined) === (input.json === undefined)) throw new UsageError('graph.apply needs the update: give update (an object) or json (its text), not both');
    if (input.json === undefined) return applyOn(ctx, await graphBackend(ctx, input.memoryFile), input.update, input.source);
    const text = input.json;
    const source = input.source ?? UPDATE_SOURCE;
    const update = parseJson(text, source, 'a graph update');
    const backend = await graphBackend(ctx, input.memoryFile);
    return locateIn(text, source, () => applyOn(ctx, backend, update, source));
  },
});

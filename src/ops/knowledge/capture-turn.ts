import { projectOf } from '../../entities/sources.js';
import type { CaptureResult } from '../../knowledge/capture.js';
import { captureFromTurn } from '../../turns/capture.js';
import { defineOp } from '../_define.js';
import { noteWarnings } from './_knowledge.js';

export interface CaptureTurnInput {
  /** TURN-{feature}-{task}-T{n}. */
  turnId: string;
  project?: string;
  allowDuplicate?: boolean;
  threshold?: number;
}

export const op = defineOp<CaptureTurnInput, CaptureResult>({
  name: 'learning.capture_turn',
  async run(input, { ws, note }) {
    const store = await ws.store();
    const result = await captureFromTurn({ store, project: projectOf(store, input.project), id: input.turnId, env: ws.env, allowDuplicate: input.allowDuplicate, threshold: input.threshold });
    noteWarnings(note, result.warnings);
    return result;
  },
});

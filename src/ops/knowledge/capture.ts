import { UsageError } from '../../errors.js';
import { captureLearning, type CaptureResult } from '../../knowledge/capture.js';
import type { LearningCapture } from '../../types.js';
import { defineOp } from '../_define.js';
import { noteWarnings } from './_knowledge.js';

export interface CaptureInput {
  /** The capture; projectId defaults to the store's project. */
  capture: Omit<LearningCapture, 'projectId'> & { projectId?: string };
  allowDuplicate?: boolean;
  threshold?: number;
}

export const op = defineOp<CaptureInput, CaptureResult>({
  name: 'learning.capture',
  async run(input, { ws, note }) {
    const store = await ws.store();
    const projectId = input.capture.projectId ?? store.config.project;
    if (projectId === undefined) throw new UsageError('the capture needs a projectId: config.yaml names no project', 'give capture.projectId, or set project: in .knowledge/config.yaml');
    const result = await captureLearning({ store, capture: { ...input.capture, projectId }, env: ws.env, allowDuplicate: input.allowDuplicate, threshold: input.threshold });
    noteWarnings(note, result.warnings);
    return result;
  },
});

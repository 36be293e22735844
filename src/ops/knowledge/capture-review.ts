import { UsageError } from '../../errors.js';
import { captureReview, type ReviewCaptureResult } from '../../knowledge/capture-review.js';
import { defineOp } from '../_define.js';
import { noteWarnings } from './_knowledge.js';

export interface CaptureReviewInput {
  text: string;
  /** The name of the text in messages (a file name, `<stdin>`). */
  file?: string;
  taskId?: string;
  projectId?: string;
  allowDuplicate?: boolean;
  threshold?: number;
}

export const op = defineOp<CaptureReviewInput, ReviewCaptureResult>({
  name: 'learning.capture_review',
  async run(input, { ws, note }) {
    const store = await ws.store();
    const projectId = input.projectId ?? store.config.project;
    if (projectId === undefined) throw new UsageError('the review\'s learnings need a projectId: config.yaml names no project', 'give projectId, or set project: in .knowledge/config.yaml');
    const result = await captureReview({ store, text: input.text, file: input.file ?? '(input)', projectId, taskId: input.taskId, env: ws.env, allowDuplicate: input.allowDuplicate, threshold: input.threshold });
    noteWarnings(note, [...new Set(result.points.flatMap((p) => p.result.warnings))]);
    return result;
  },
});

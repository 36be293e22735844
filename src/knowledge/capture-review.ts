// Review feedback captured as learnings of source code_review: one per distinct point
// (review-points.ts), each checked like any capture against the entries and earlier rejections,
// and against the points captured before it; all of them written in one transaction.
import { LoreError, UsageError } from '../errors.js';
import type { LearningCapture } from '../types.js';
import { captureLearnings, type CaptureResult } from './capture.js';
import { titleFrom } from './capture-text.js';
import type { EntryWriteOptions } from './manage.js';
import { MAX_REVIEW_BYTES, parseReview, type ParsedReview, type ReviewPoint, type SkippedPoint } from './review-points.js';

/** The longest learning description taken from one point; the rest stays at its source. */
export const MAX_POINT_CHARS = 4000;

export interface ReviewCaptureOptions extends EntryWriteOptions {
  /** The review: GitHub's JSON, or a plain list. */
  text: string;
  /** Its name in messages and in the refs of a plain list. */
  file: string;
  projectId: string;
  /** The task (or pull request) the learnings come from; default the pull request the comments' URLs name. */
  taskId?: string | undefined;
  allowDuplicate?: boolean | undefined;
  threshold?: number | undefined;
}

export interface ReviewCaptureItem {
  /** Where the point came from (also the learning's sourceRef). */
  ref: string;
  title: string;
  result: CaptureResult;
}

export interface ReviewCaptureResult {
  format: ParsedReview['format'];
  points: ReviewCaptureItem[];
  skipped: SkippedPoint[];
}

/** A text without its fenced code blocks: what a title is taken from. */
function prose(text: string): string {
  let fenced = false;
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    const fence = /^ {0,3}(?:```|~~~)/.test(line);
    if (!fenced && !fence) kept.push(line);
    if (fence) fenced = !fenced;
  }
  return kept.join('\n');
}

/** What happened, in words: "Review comment by @ada on src/retry.ts:42 in acme/shop#7." */
function happened(point: ReviewPoint): string {
  if (point.author === undefined && point.location === undefined && point.pullRequest === undefined) return `Review point from ${point.ref}.`;
  const kind = point.state !== undefined ? 'Review' : 'Review comment';
  const by = point.author === undefined ? '' : ` by @${point.author}`;
  const state = point.state === undefined ? '' : ` (${point.state.toLowerCase().replaceAll('_', ' ')})`;
  const on = point.location === undefined ? '' : ` on ${point.location}`;
  const pr = point.pullRequest === undefined ? '' : ` in ${point.pullRequest}`;
  return `${kind}${by}${state}${on}${pr}.`;
}

/** The capture a review point proposes. An approving review's point is a success; any other asks for a change. */
function pointCapture(point: ReviewPoint, taskId: string, projectId: string): LearningCapture {
  const title = prose(point.text).trim();
  const description = point.text.length <= MAX_POINT_CHARS ? point.text : `${point.text.slice(0, MAX_POINT_CHARS)}…\n(cut at ${MAX_POINT_CHARS} characters; the whole point: ${point.ref})`;
  return {
    taskId, projectId, outcome: point.state === 'APPROVED' ? 'success' : 'failure', description: happened(point),
    suggestedTitle: title === '' ? `Suggested change${point.location === undefined ? '' : ` to ${point.location}`}` : titleFrom(title),
    suggestedDescription: description, source: 'code_review', sourceRef: point.ref,
  };
}

/**
 * Captures the points of a review as pending learnings (learnings without require_approval) of
 * source code_review; each point that resembles an entry, a rejection or an earlier point is
 * reported, not captured. Nothing is written when the review cannot be read.
 *
 * @example
 * const result = await captureReview({ store, text: await readFile('comments.json', 'utf8'), file: 'comments.json', projectId: 'shop' });
 * result.points.map((p) => p.result.status); // → ['pending', 'duplicate']
 */
export async function captureReview(options: ReviewCaptureOptions): Promise<ReviewCaptureResult> {
  const { text, file, projectId, taskId, ...rest } = options;
  if (Buffer.byteLength(text) > MAX_REVIEW_BYTES) throw new LoreError('TOO_LARGE', `${file} is over the limit of ${MAX_REVIEW_BYTES} bytes for a review`);
  const parsed = parseReview(text, file);
  const unnamed = parsed.points.find((p) => (taskId ?? p.pullRequest) === undefined);
  if (unnamed !== undefined) {
    throw new UsageError(`${unnamed.ref} names no pull request, so the learning would have no task: give the task id`, `lore capture --from-review ${file} --task-id acme/shop#7 (any task or pull-request id)`);
  }
  const captures = parsed.points.map((point) => pointCapture(point, (taskId ?? point.pullRequest)!, projectId));
  const results = captures.length === 0 ? [] : await captureLearnings({ ...rest, captures });
  return { format: parsed.format, points: captures.map((c, i) => ({ ref: c.sourceRef!, title: c.suggestedTitle, result: results[i]! })), skipped: parsed.skipped };
}

// Learning capture and curation: a task outcome becomes a pending learning (or a learning, without
// require_approval); a person approves it into knowledge/learnings/ or rejects it, and the
// rejection is logged so the same learning is recognised when it is captured again.
import { join } from 'node:path';
import { LoreError, UsageError, ValidationError, type Problem } from '../errors.js';
import { replayLog } from '../log/ndjson.js';
import { validateAgainst } from '../schema/validate.js';
import { displayPath, knowledgeDir, LOGS } from '../store/layout.js';
import { logKind } from '../store/log-kinds.js';
import type { Store } from '../store/open.js';
import { writeStore, type StoreTransaction } from '../store/transaction.js';
import { putRecord, removeRecord } from '../store/write.js';
import type { KnowledgeEntry, LearningCapture, RejectionEvent } from '../types.js';
import { DEFAULT_SIMILARITY, SimilarityIndex } from './duplicates.js';
import { findEntry, kindsHolding, loadEntries, newEntryId, resolveActor, timestamp, type Actor, type EntryRecord } from './entries.js';
import type { EntryWriteOptions } from './manage.js';
import { applyEdits, type Assignment, type FieldValues } from './set-fields.js';
import { byText } from '../text-order.js';

/** Absolute path of the rejection log. */
export function rejectionsLog(root: string): string {
  return join(knowledgeDir(root), LOGS.rejections);
}

/** The rejections on record, latest per learning id. */
export async function loadRejections(root: string): Promise<{ rejections: RejectionEvent[]; problems: Problem[] }> {
  const file = rejectionsLog(root);
  const replay = await replayLog<RejectionEvent>(file, { displayPath: displayPath(root, file), validate: logKind(LOGS.rejections)!.lineProblem });
  return { rejections: [...replay.records.values()].map((line) => line.value), problems: replay.problems };
}

export type CaptureStatus = 'pending' | 'added' | 'duplicate' | 'rejected-before' | 'not-captured';

export interface CaptureResult {
  status: CaptureStatus;
  message: string;
  /** The entry written (pending or added). */
  entry?: KnowledgeEntry;
  file?: string;
  /** The existing entry or earlier rejection this capture resembles. */
  similarTo?: { id: string; similarity: number; reason?: string };
  warnings: string[];
}

export interface CaptureOptions extends EntryWriteOptions {
  capture: LearningCapture;
  /** Capture even when it resembles an existing entry or an earlier rejection. */
  allowDuplicate?: boolean | undefined;
  /** Similarity from which a capture counts as a duplicate (default 0.8). */
  threshold?: number | undefined;
}

export interface CaptureManyOptions extends Omit<CaptureOptions, 'capture'> {
  /** Captured in order; each is also checked against those captured before it. */
  captures: readonly LearningCapture[];
}

/** Validates capture input against schemas/learning-capture.schema.json. */
export function assertValidCapture(capture: unknown, file = '(capture)'): asserts capture is LearningCapture {
  const issues = validateAgainst('learning-capture', capture);
  if (issues.length > 0) throw new ValidationError('the learning capture is invalid', issues.map((i) => ({ severity: 'error', file, pointer: i.pointer, message: i.message })));
}

/** Whether config lets this outcome be captured, and why not when it does not. */
function captureRefusal(store: Store, capture: LearningCapture): string | undefined {
  const success = capture.outcome === 'success';
  if (success && !store.config.capture.auto_capture_success) return 'capture.auto_capture_success is false: learnings from successful tasks are not captured';
  if (!success && !store.config.capture.auto_capture_failure) return `capture.auto_capture_failure is false: learnings from ${capture.outcome === 'partial' ? 'partially ' : ''}failed tasks are not captured`;
  return undefined;
}

/** The learning a capture proposes. */
function learningFrom(capture: LearningCapture, id: string, createdBy: string, at: string): KnowledgeEntry {
  const { taskId, projectId, outcome, description, whatWorked, whatFailed, rootCause } = capture;
  return {
    id, type: 'learning', title: capture.suggestedTitle, description: capture.suggestedDescription, scope: 'global',
    keywords: capture.suggestedKeywords ?? [], priority: capture.suggestedPriority ?? 'medium',
    source: capture.source ?? (outcome === 'success' ? 'task_success' : 'task_failure'), sourceRef: capture.sourceRef ?? taskId,
    createdAt: at, updatedAt: at, createdBy, enabled: true,
    capture: { taskId, projectId, outcome, description, ...(whatWorked === undefined ? {} : { whatWorked }), ...(whatFailed === undefined ? {} : { whatFailed }), ...(rootCause === undefined ? {} : { rootCause }) },
  };
}

/**
 * Captures a learning from a task outcome: pending with capture.require_approval, a learning
 * otherwise. Refuses (status duplicate / rejected-before) one that resembles an existing entry
 * or an earlier rejection, unless allowDuplicate.
 *
 * @example
 * await captureLearning({ store, capture: { taskId: 'T-9', projectId: 'shop', outcome: 'failure', description: '...', suggestedTitle: 'Retry with backoff', suggestedDescription: '...' } });
 * // → { status: 'pending', entry: { id: 'learn-retry-with-backoff', ... }, file: '.knowledge/knowledge/pending/learn-retry-with-backoff.yaml' }
 */
export async function captureLearning(options: CaptureOptions): Promise<CaptureResult> {
  const { capture, ...rest } = options;
  return (await captureLearnings({ ...rest, captures: [capture] }))[0]!;
}

/**
 * Captures several learnings in one transaction, all or nothing: each as captureLearning would,
 * and also refused (duplicate) when it resembles one captured before it in the same call.
 *
 * @example
 * (await captureLearnings({ store, captures: [a, aReworded] })).map((r) => r.status); // → ['pending', 'duplicate']
 */
export async function captureLearnings(options: CaptureManyOptions): Promise<CaptureResult[]> {
  options.captures.forEach((capture, i) => assertValidCapture(capture, options.captures.length === 1 ? '(capture)' : `(capture ${i + 1})`));
  // The duplicate checks and the writes under one lock: two agents capturing the same learning at once get one entry.
  return writeStore(options.store.root, 'lore capture', (tx) => stageCaptures(tx, options));
}

/**
 * Stages captures into a transaction the caller commits (its write lock held): the checks of
 * captureLearnings, against the store as the transaction leaves it.
 */
export async function stageCaptures(tx: StoreTransaction, options: CaptureManyOptions): Promise<CaptureResult[]> {
  const { store } = options;
  const threshold = options.threshold ?? DEFAULT_SIMILARITY;
  const check = options.allowDuplicate !== true;
  const entries = new SimilarityIndex(check ? (await loadEntries(store)).records.map((r) => r.value) : []);
  const rejections = new SimilarityIndex(check ? (await loadRejections(store.root)).rejections : []);
  let actor: Actor | undefined;
  const kind = store.config.capture.require_approval ? 'pending' : 'learning';
  const taken = new Set<string>();
  const results: CaptureResult[] = [];
  for (const capture of options.captures) {
    const refusal = captureRefusal(store, capture);
    if (refusal !== undefined) {
      results.push({ status: 'not-captured', message: refusal, warnings: [] });
      continue;
    }
    const existing = check ? entries.mostSimilar(capture.suggestedTitle, capture.suggestedDescription, threshold) : undefined;
    if (existing !== undefined) {
      results.push({ status: 'duplicate', similarTo: { id: existing.match.id, similarity: existing.similarity }, message: `not captured: it resembles ${existing.match.id} (similarity ${existing.similarity})`, warnings: [] });
      continue;
    }
    const rejected = check ? rejections.mostSimilar(capture.suggestedTitle, capture.suggestedDescription, threshold) : undefined;
    if (rejected !== undefined) {
      const { match } = rejected;
      results.push({ status: 'rejected-before', similarTo: { id: match.id, similarity: rejected.similarity, reason: match.reason }, message: `not captured: it resembles ${match.id}, rejected by ${match.rejectedBy} on ${match.timestamp.slice(0, 10)}: ${match.reason}`, warnings: [] });
      continue;
    }
    actor ??= await resolveActor(store.root, options);
    const entry = learningFrom(capture, await newEntryId(store.root, 'learning', capture.suggestedTitle, taken, tx), actor.name, timestamp(options.now));
    taken.add(entry.id);
    const written = await putRecord(tx, kind, entry);
    // What this call captured counts as existing for the captures after it.
    if (check) entries.add(entry);
    const message = kind === 'pending' ? `captured ${entry.id}: waiting for review (lore approve ${entry.id} / lore reject ${entry.id} --reason ...)` : `captured ${entry.id} as a learning (capture.require_approval is false)`;
    results.push({ status: kind === 'pending' ? 'pending' : 'added', message, entry, file: written.file, warnings: actor.warning === undefined ? [] : [actor.warning] });
  }
  return results;
}

/** The learnings waiting for review, oldest first. */
export async function listPending(store: Store): Promise<{ records: EntryRecord[]; problems: Problem[] }> {
  const { records, problems } = await loadEntries(store, ['pending']);
  records.sort((a, b) => byText(a.value.createdAt, b.value.createdAt) || byText(a.id, b.id));
  return { records, problems };
}

/**
 * Approves a pending learning: optional edits (as editEntry takes them), approvedBy/approvedAt and updatedAt set,
 * moved to knowledge/learnings/ under the same id.
 *
 * @example
 * await approveLearning({ store, id: 'learn-retry-with-backoff', set: [{ field: 'priority', value: 'high' }] });
 */
export async function approveLearning(options: EntryWriteOptions & { id: string; set?: readonly Assignment[] | FieldValues }): Promise<{ entry: KnowledgeEntry; file: string; removed: string }> {
  const { store } = options;
  // One transaction: the learning appears and the pending file goes together, even across a crash.
  return writeStore(store.root, 'lore approve', async (tx) => {
    const record = await findEntry(store, options.id, ['pending']);
    if ((await kindsHolding(store.root, record.id)).includes('learning')) {
      throw new LoreError('CONFLICT', `cannot approve ${record.id}: a learning with this id already exists`, { hint: `compare them; remove one with lore rm, or reject the pending one` });
    }
    const actor = await resolveActor(store.root, options);
    const at = timestamp(options.now);
    const entry = { ...applyEdits(record.value, options.set ?? []), updatedAt: at, approvedBy: actor.name, approvedAt: at };
    const written = await putRecord(tx, 'learning', entry);
    await removeRecord(tx, 'pending', record.id);
    return { entry, file: written.file, removed: record.file };
  });
}

/**
 * Rejects a pending learning: the rejection (id, title, description, reason, who, when) is
 * appended to log/rejections.ndjson, stamped after any earlier rejection of the same id, then the
 * pending file is deleted.
 *
 * @example
 * await rejectLearning({ store, id: 'learn-retry-with-backoff', reason: 'already covered by rec-use-retries' });
 */
export async function rejectLearning(options: EntryWriteOptions & { id: string; reason: string }): Promise<{ rejection: RejectionEvent; removed: string }> {
  const { store } = options;
  if (options.reason.trim() === '') throw new UsageError('a rejection needs a reason', 'lore reject <id> --reason "why"');
  // One transaction: the rejection is logged and the pending file goes together.
  return writeStore(store.root, 'lore reject', async (tx) => {
    const record = await findEntry(store, options.id, ['pending']);
    const actor = await resolveActor(store.root, options);
    const { id, title, description, capture } = record.value;
    const rejection: RejectionEvent = { id, title, description, reason: options.reason.trim(), rejectedBy: actor.name, ...(capture === undefined ? {} : { taskId: capture.taskId }), timestamp: timestamp(options.now) };
    tx.append(rejectionsLog(store.root), [rejection]);
    await removeRecord(tx, 'pending', record.id);
    return { rejection, removed: record.file };
  });
}

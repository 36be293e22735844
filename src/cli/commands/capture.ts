import { UsageError, ValidationError } from '../../errors.js';
import { assertValidCapture, type CaptureResult, type CaptureStatus } from '../../knowledge/capture.js';
import type { ReviewCaptureItem, ReviewCaptureResult } from '../../knowledge/capture-review.js';
import { MAX_REVIEW_BYTES } from '../../knowledge/review-points.js';
import type { CaptureInput } from '../../ops/knowledge/capture.js';
import type { CaptureReviewInput } from '../../ops/knowledge/capture-review.js';
import type { CaptureTurnInput } from '../../ops/knowledge/capture-turn.js';
import { LOGS } from '../../store/layout.js';
import { parseText } from '../../store/parse.js';
import type { LearningCapture } from '../../types.js';
import { defineOpCommand, type CommandContext, type OptionSpec } from '../command.js';
import { readInputText } from '../_input.js';

/** Flag → capture field. */
const FLAGS: Record<string, keyof LearningCapture> = {
  'task-id': 'taskId', project: 'projectId', outcome: 'outcome', description: 'description', 'what-worked': 'whatWorked', 'what-failed': 'whatFailed',
  'root-cause': 'rootCause', title: 'suggestedTitle', 'suggested-description': 'suggestedDescription', priority: 'suggestedPriority', source: 'source',
};

async function captureInput(ctx: CommandContext, defaultProject: string | undefined): Promise<{ capture: LearningCapture; file: string }> {
  let value: Record<string, unknown> = {};
  let file = '(flags)';
  const path = ctx.string('from-file');
  if (path !== undefined) {
    const input = await readInputText(ctx, path);
    const parsed = parseText(input.text.replace(/^\uFEFF/, ''), input.file);
    if (parsed.value === undefined) throw new ValidationError(`could not read the capture in ${input.file}`, parsed.problems);
    value = { ...(parsed.value as Record<string, unknown>) };
    file = input.file;
  }
  for (const [flag, field] of Object.entries(FLAGS)) if (ctx.string(flag) !== undefined) value[field] = ctx.string(flag);
  if (ctx.strings('keyword').length > 0) value.suggestedKeywords = ctx.strings('keyword');
  if (value.projectId === undefined && defaultProject !== undefined) value.projectId = defaultProject;
  const missing = ['task-id', 'outcome', 'description', 'title', 'suggested-description'].filter((flag) => value[FLAGS[flag]!] === undefined);
  if (path === undefined && missing.length > 0) {
    throw new UsageError(`lore capture needs ${missing.map((f) => `--${f}`).join(', ')} (or --from-file)`, 'see lore capture --help');
  }
  if (value.projectId === undefined) throw new UsageError('lore capture needs --project: config.yaml names no project', 'pass --project P, or set project: in .knowledge/config.yaml');
  assertValidCapture(value, file);
  return { capture: value, file };
}

const OPTIONS: Record<string, OptionSpec> = {
  'task-id': { type: 'string', value: 'T', description: 'the task the learning comes from' },
  project: { type: 'string', value: 'P', description: 'the task\'s project (default: config.yaml project)' },
  outcome: { type: 'string', value: 'O', description: 'success, failure or partial' },
  description: { type: 'string', value: 'TEXT', description: 'what happened in the task' },
  'what-worked': { type: 'string', value: 'TEXT', description: 'what worked' },
  'what-failed': { type: 'string', value: 'TEXT', description: 'what failed' },
  'root-cause': { type: 'string', value: 'TEXT', description: 'the root cause of a failure' },
  title: { type: 'string', value: 'TEXT', description: 'title of the learning' },
  'suggested-description': { type: 'string', value: 'TEXT', description: 'description of the learning' },
  keyword: { type: 'string', multiple: true, value: 'WORD', description: 'keyword of the learning (repeatable)' },
  priority: { type: 'string', value: 'P', description: 'low, medium (default), high or critical' },
  source: { type: 'string', value: 'S', description: 'code_review for review feedback (default: by outcome)' },
  'from-file': { type: 'string', value: 'FILE', description: 'read the capture from a file (schemas/learning-capture.schema.json; - for stdin)' },
  'allow-duplicate': { type: 'boolean', description: 'capture even when it resembles an existing entry or a rejection' },
  threshold: { type: 'number', min: 0, max: 1, value: 'T', description: 'similarity from which a capture is a duplicate (default 0.8)' },
  'from-turn': { type: 'string', value: 'TURN-ID', description: 'capture from a recorded player/coach turn (TURN-{feature}-{task}-T{n})' },
  'from-review': { type: 'string', value: 'FILE', description: 'capture review comments: GitHub\'s JSON or a plain list (- for stdin)' },
};

/** The options each of --from-turn and --from-review takes besides itself. */
const WITH: Record<'from-turn' | 'from-review', readonly string[]> = {
  'from-turn': ['project', 'allow-duplicate', 'threshold'],
  'from-review': ['task-id', 'project', 'allow-duplicate', 'threshold'],
};

/** Refuses options that --from-turn or --from-review does not take (the capture comes from the turn or the review). */
function onlyWith(ctx: CommandContext, source: 'from-turn' | 'from-review'): void {
  const other = Object.keys(OPTIONS).filter((name) => name !== source && !WITH[source].includes(name) && ctx.options[name] !== undefined && ctx.options[name] !== false && !(Array.isArray(ctx.options[name]) && (ctx.options[name] as unknown[]).length === 0));
  if (other.length > 0) throw new UsageError(`--${source} takes the learning from the ${source === 'from-turn' ? 'turn' : 'review'}, so ${other.map((o) => `--${o}`).join(', ')} cannot be used with it`, `it takes ${WITH[source].map((o) => `--${o}`).join(', ')}; see lore capture --help`);
}

/** --allow-duplicate and --threshold, as every capture input takes them. */
function duplicateInput(ctx: CommandContext): { allowDuplicate?: boolean; threshold?: number } {
  const threshold = ctx.number('threshold');
  return { ...(ctx.flag('allow-duplicate') ? { allowDuplicate: true } : {}), ...(threshold === undefined ? {} : { threshold }) };
}

/** A capture refused because it resembles an entry or an earlier rejection (exit 1). */
const refused = (result: CaptureResult): boolean => result.status === 'duplicate' || result.status === 'rejected-before';
const isReview = (output: CaptureResult | ReviewCaptureResult): output is ReviewCaptureResult => 'points' in output;

/** One point of a review, as a line: what happened to it, and where it came from. */
function reviewLine({ ref, result }: ReviewCaptureItem): string {
  if (result.status === 'pending' || result.status === 'added') return `${result.status === 'pending' ? 'captured' : 'added'} ${result.entry!.id} from ${ref}`;
  return `${result.status === 'not-captured' ? 'not captured' : result.status}: ${ref}: ${result.message.replace(/^not captured: /, '')}`;
}

function printReview(output: ReviewCaptureResult, ctx: CommandContext): void {
  for (const item of output.points) ctx.print(reviewLine(item));
  for (const skip of output.skipped) ctx.print(`skipped ${skip.ref}: ${skip.reason}`);
  const statuses: CaptureStatus[] = ['pending', 'added', 'duplicate', 'rejected-before', 'not-captured'];
  const counts = statuses.map((s) => [s, output.points.filter((p) => p.result.status === s).length] as const).filter(([, n]) => n > 0).map(([s, n]) => `${n} ${s}`);
  const points = `${output.points.length} point${output.points.length === 1 ? '' : 's'}${counts.length === 0 ? '' : ` (${counts.join(', ')})`}`;
  const next = output.points.some((p) => p.result.status === 'pending') ? '; review them with lore pending, lore approve ID, lore reject ID --reason ...' : '';
  ctx.print(`${points}, ${output.skipped.length} skipped${next}`);
}

export const command = defineOpCommand<CaptureResult | ReviewCaptureResult>({
  name: 'capture',
  summary: 'capture a learning from a finished task, a player/coach turn or review comments (pending review by default)',
  usage: '--task-id T --outcome success|failure|partial --description ... --title ... --suggested-description ... [options]  |  --from-turn TURN-ID  |  --from-review FILE|-',
  description: [
    'With capture.require_approval (the default) the learning is written to knowledge/pending/<id>.yaml for',
    'lore approve or lore reject; otherwise it becomes a learning at once. Its source is task_success for a',
    'successful task and task_failure for a failed or partial one (--source code_review for review feedback).',
    'capture.auto_capture_success / auto_capture_failure turn capture off per outcome (exit 0, nothing written).',
    'A capture that resembles an existing entry or an earlier rejection (similarity >= --threshold, default',
    '0.8, see lore duplicates) is refused with the id it resembles (exit 1) unless --allow-duplicate.',
    '',
    '--from-turn TURN-ID captures from a recorded player/coach turn: a revise (outcome partial) or escalate',
    '(failure) gives a task_failure learning of the coach\'s reason, the blockers and the acceptance criteria; a',
    'task\'s final approval a task_success learning of its progress. A revise or escalate that names nothing that',
    'failed, or an approval a later turn of the task follows, captures nothing and says why (exit 0).',
    '',
    '--from-review FILE|- captures review comments as code_review learnings, one per distinct point: GitHub\'s',
    'JSON (gh api repos/O/R/pulls/N/comments or /reviews, gh pr view --json comments,reviews) or a plain list',
    '(each paragraph and each list item a point). Replies and points of fewer than three words are skipped;',
    'a point resembling an entry, a rejection or an earlier point is reported, not captured (exit 0). The task',
    'is the pull request the URLs name (owner/repo#N), or --task-id. At most 16 MiB and 1000 points.',
  ].join('\n'),
  options: OPTIONS,
  positionals: [0, 0],
  exits: { 1: 'the learning was refused: it resembles an entry or an earlier rejection (not with --from-review)' },
  examples: [
    'lore capture --task-id TASK-42 --outcome failure --description "retries hammered the API" --root-cause "fixed delay" --title "Retry with exponential backoff" --suggested-description "Use backoff with jitter for 429s." --keyword retry',
    'lore capture --from-file capture.json --json',
    'lore capture --from-turn TURN-FEAT-001-TASK-003-T1',
    'gh api repos/acme/shop/pulls/7/comments | lore capture --from-review -',
  ],
  op: 'learning.capture',
  opFor: (options) => (options['from-turn'] !== undefined ? 'learning.capture_turn' : options['from-review'] !== undefined ? 'learning.capture_review' : undefined),
  async input(ctx): Promise<CaptureInput | CaptureTurnInput | CaptureReviewInput> {
    const [turnId, review, project] = [ctx.string('from-turn'), ctx.string('from-review'), ctx.string('project')];
    if (turnId !== undefined) {
      onlyWith(ctx, 'from-turn');
      return { turnId, ...(project === undefined ? {} : { project }), ...duplicateInput(ctx) };
    }
    if (review !== undefined) {
      onlyWith(ctx, 'from-review');
      const { text, file } = await readInputText(ctx, review, { bytes: MAX_REVIEW_BYTES });
      const taskId = ctx.string('task-id');
      return { text, file, ...(taskId === undefined ? {} : { taskId }), ...(project === undefined ? {} : { projectId: project }), ...duplicateInput(ctx) };
    }
    const { capture } = await captureInput(ctx, (await ctx.openStore()).config.project);
    return { capture, ...duplicateInput(ctx) };
  },
  exit: (output) => (!isReview(output) && refused(output) ? 1 : 0),
  print(result, ctx) {
    if (isReview(result)) printReview(result, ctx);
    else if (refused(result)) {
      // A rejected learning's file is gone: its record is the rejection log's line.
      const where = result.status === 'rejected-before' ? `the rejection is recorded in .knowledge/${LOGS.rejections} (grep ${result.similarTo!.id})` : `lore show ${result.similarTo!.id}`;
      ctx.print(`${ctx.style.yellow(result.status)}: ${result.message}\nhint: ${where}; --allow-duplicate captures it anyway`);
    }
    else ctx.print(result.status === 'not-captured' ? `not captured: ${result.message}` : result.message);
  },
});

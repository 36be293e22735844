import { UsageError, ValidationError } from '../../errors.js';
import { assertValidCapture, type CaptureResult } from '../../knowledge/capture.js';
import type { CaptureInput } from '../../ops/knowledge/capture.js';
import { parseText } from '../../store/parse.js';
import type { LearningCapture } from '../../types.js';
import { defineOpCommand, type CommandContext } from '../command.js';
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

/** A capture refused because it resembles an entry or an earlier rejection (exit 1). */
const refused = (result: CaptureResult): boolean => result.status === 'duplicate' || result.status === 'rejected-before';

export const command = defineOpCommand<CaptureResult>({
  name: 'capture',
  summary: 'capture a learning from a finished task (pending review by default)',
  usage: '--task-id T --outcome success|failure|partial --description ... --title ... --suggested-description ... [options]',
  description: [
    'With capture.require_approval (the default) the learning is written to knowledge/pending/<id>.yaml for',
    'lore approve or lore reject; otherwise it becomes a learning at once. Its source is task_success for a',
    'successful task and task_failure for a failed or partial one (--source code_review for review feedback).',
    'capture.auto_capture_success / auto_capture_failure turn capture off per outcome (exit 0, nothing written).',
    'A capture that resembles an existing entry or an earlier rejection (similarity >= --threshold, default',
    '0.8, see lore duplicates) is refused with the id it resembles (exit 1) unless --allow-duplicate.',
  ].join('\n'),
  options: {
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
  },
  positionals: [0, 0],
  examples: [
    'lore capture --task-id TASK-42 --outcome failure --description "retries hammered the API" --root-cause "fixed delay" --title "Retry with exponential backoff" --suggested-description "Use backoff with jitter for 429s." --keyword retry',
    'lore capture --from-file capture.json --json',
  ],
  op: 'learning.capture',
  async input(ctx): Promise<CaptureInput> {
    const { capture } = await captureInput(ctx, (await ctx.openStore()).config.project);
    const threshold = ctx.number('threshold');
    return { capture, ...(ctx.flag('allow-duplicate') ? { allowDuplicate: true } : {}), ...(threshold === undefined ? {} : { threshold }) };
  },
  exit: (result) => (refused(result) ? 1 : 0),
  print(result, ctx) {
    if (refused(result)) ctx.print(`${ctx.style.yellow(result.status)}: ${result.message}\nhint: lore show ${result.similarTo!.id}; --allow-duplicate captures it anyway`);
    else ctx.print(result.status === 'not-captured' ? `not captured: ${result.message}` : result.message);
  },
});

// Task and plan input for the pre-task check and the agent prompt: JSON (or YAML) text, validated
// against schemas/task-plan.schema.json with every problem located in the file it came from.
import { ValidationError, type Problem } from '../errors.js';
import { validateAgainst, type SchemaIssue } from '../schema/validate.js';
import { locateIssues, parseText, type ParsedText } from '../store/parse.js';
import type { TaskPlanInput } from '../types.js';

/** Text read from a file (or stdin), and the name to report problems under. */
export interface InputText {
  text: string;
  file: string;
}

export type TaskPlanSource = { combined: InputText } | { task: InputText; plan: InputText };

interface Part {
  input: InputText;
  parsed: ParsedText;
  /** The pointer prefix of this part in the combined object ('' for a combined file). */
  prefix: string;
}

function parsePart(input: InputText, prefix: string): Part {
  return { input, parsed: parseText(input.text.replace(/^\uFEFF/, ''), input.file), prefix };
}

function problemsOf(parts: readonly Part[], issues: readonly SchemaIssue[]): Problem[] {
  // Each issue belongs to the part whose prefix its pointer starts with (a missing part: the
  // combined file); each part's issues are located together, in one pass over its text.
  const owner = issues.map((issue) => parts.find((p) => p.prefix !== '' && (issue.pointer === p.prefix || issue.pointer.startsWith(`${p.prefix}/`))) ?? parts[0]!);
  const problems = new Array<Problem>(issues.length);
  for (const part of parts) {
    const strip = (pointer: string): string => (part.prefix !== '' && pointer.startsWith(part.prefix) ? pointer.slice(part.prefix.length) : pointer);
    const mine = issues.map((issue, k) => ({ issue, k })).filter(({ k }) => owner[k] === part);
    const located = locateIssues(part.parsed, part.input.file, mine.map(({ issue }) => ({ ...issue, pointer: strip(issue.pointer), locatePointer: strip(issue.locatePointer) })));
    mine.forEach(({ k }, j) => (problems[k] = located[j]!));
  }
  return problems;
}

/**
 * Parses and validates a task and plan, from one combined file or from two files.
 * Throws a ValidationError listing every problem (file, line, column, field).
 *
 * @example
 * parseTaskPlan({ task: { text: '{"description":"add login"}', file: 'task.json' }, plan: { text: planJson, file: 'plan.json' } });
 */
export function parseTaskPlan(source: TaskPlanSource): TaskPlanInput {
  const parts = 'combined' in source ? [parsePart(source.combined, '')] : [parsePart(source.task, '/task'), parsePart(source.plan, '/plan')];
  const syntax = parts.flatMap((part) => part.parsed.problems.filter((p) => p.severity === 'error'));
  const files = parts.map((part) => part.input.file).join(' and ');
  if (syntax.length > 0) throw new ValidationError(`could not read the task and plan from ${files}`, syntax);
  const value = 'combined' in source ? parts[0]!.parsed.value : { task: parts[0]!.parsed.value, plan: parts[1]!.parsed.value };
  const issues = validateAgainst('task-plan', value);
  if (issues.length > 0) throw new ValidationError(`the task and plan in ${files} are invalid`, problemsOf(parts, issues), { hint: 'the format is schemas/task-plan.schema.json: task { description, type?, projectId?, agentType? }, plan { approach, fileChanges: [{ path, change? }], technologies? }' });
  return value as TaskPlanInput;
}

// Flags and input shared by the knowledge-base commands: the filter flags, the task/plan input,
// --set edits, usage statistics in words.
import { UsageError } from '../errors.js';
import type { FieldValues } from '../knowledge/set-fields.js';
import type { FilterInput } from '../ops/store/list.js';
import { PRIORITIES } from '../priority.js';
import type { KnowledgeScope, KnowledgeSource, KnowledgeType, TaskPlanInput } from '../types.js';
import { readInputText } from './_input.js';
import type { CommandContext, OptionSpec } from './command.js';
import { plural } from './format.js';

export const TYPES: readonly KnowledgeType[] = ['recommendation', 'prohibition', 'learning'];
export const SCOPES: readonly KnowledgeScope[] = ['global', 'project', 'agent_type'];
export const SOURCES: readonly KnowledgeSource[] = ['manual', 'task_success', 'task_failure', 'code_review', 'import'];

/** The filter flags of `list` and `export`. */
export const FILTER_OPTIONS: Record<string, OptionSpec> = {
  type: { type: 'enum', values: TYPES, multiple: true, value: 'TYPE', description: 'recommendation, prohibition or learning (repeatable)' },
  scope: { type: 'enum', values: SCOPES, multiple: true, value: 'SCOPE', description: 'global, project or agent_type (repeatable)' },
  project: { type: 'string', value: 'P', description: 'entries whose projectId is P' },
  'agent-type': { type: 'string', value: 'A', description: 'entries whose agentTypes list A' },
  priority: { type: 'enum', values: PRIORITIES, multiple: true, value: 'P', description: 'low, medium, high or critical (repeatable)' },
  source: { type: 'enum', values: SOURCES, multiple: true, value: 'S', description: 'manual, task_success, task_failure, code_review or import (repeatable)' },
  enabled: { type: 'boolean', description: 'only enabled entries' },
  disabled: { type: 'boolean', description: 'only disabled entries' },
  'valid-at': { type: 'date', value: 'DATE', description: 'entries valid at DATE (validFrom/validUntil)' },
  text: { type: 'string', value: 'TEXT', description: 'entries whose id, title, description, details or keywords contain TEXT' },
};

/** The filter the filter flags describe, as an operation's input takes it (only the criteria given). */
export function filterInput(ctx: CommandContext): FilterInput {
  if (ctx.flag('enabled') && ctx.flag('disabled')) throw new UsageError('--enabled and --disabled exclude each other');
  const filter: FilterInput = {};
  const lists = [['types', 'type'], ['scopes', 'scope'], ['priorities', 'priority'], ['sources', 'source']] as const;
  for (const [field, flag] of lists) if (ctx.strings(flag).length > 0) (filter as Record<string, unknown>)[field] = ctx.strings(flag);
  const texts = [['projectId', 'project'], ['agentType', 'agent-type'], ['validAt', 'valid-at'], ['text', 'text']] as const;
  for (const [field, flag] of texts) if (ctx.string(flag) !== undefined) filter[field] = ctx.string(flag)!;
  if (ctx.flag('enabled') || ctx.flag('disabled')) filter.enabled = ctx.flag('enabled');
  return filter;
}

/** The --task/--plan flags, or one combined object on stdin. */
export const TASK_PLAN_OPTIONS: Record<string, OptionSpec> = {
  task: { type: 'string', value: 'FILE', description: 'the task: { description, type?, projectId?, agentType? } (JSON)' },
  plan: { type: 'string', value: 'FILE', description: 'the plan: { approach, fileChanges: [{ path, change? }], technologies? } (JSON)' },
};

/** Reads and validates the task and plan: --task and --plan, or `{ task, plan }` on stdin. */
export async function readTaskPlan(ctx: CommandContext): Promise<TaskPlanInput> {
  const { parseTaskPlan } = await import('../knowledge/task-input.js');
  const [task, plan] = [ctx.string('task'), ctx.string('plan')];
  if ((task === undefined) !== (plan === undefined)) throw new UsageError('give both --task and --plan, or neither and one { "task": ..., "plan": ... } object on stdin');
  if (task !== undefined && plan !== undefined) return parseTaskPlan({ task: await readInputText(ctx, task), plan: await readInputText(ctx, plan) });
  const combined = await readInputText(ctx, '-');
  if (combined.text.trim() === '') throw new UsageError('no task and plan given: pass --task FILE --plan FILE, or pipe { "task": ..., "plan": ... } to stdin');
  return parseTaskPlan({ combined });
}

/** The --set field=value flags as the field values an operation takes (a later --set of a field wins). */
export async function setInput(ctx: CommandContext): Promise<FieldValues> {
  const { assignmentValue, parseAssignment } = await import('../knowledge/set-fields.js');
  return Object.fromEntries(ctx.strings('set').map(parseAssignment).map((a) => [a.field, assignmentValue(a)]));
}

/** "applied 3 times, 2 helpful, last 2026-01-31" for people. */
export function usageText(stats: { timesApplied: number; timesHelpful: number; lastApplied?: string }): string {
  if (stats.timesApplied === 0) return 'never applied';
  return `applied ${plural(stats.timesApplied, 'time')}, ${stats.timesHelpful} helpful, last ${stats.lastApplied?.slice(0, 10) ?? '?'}`;
}

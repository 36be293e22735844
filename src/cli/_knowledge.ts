// Parsing and output helpers shared by the knowledge-base commands: filter flags, enum and number flags, the task/plan input, warnings about skipped files.
import { UsageError, type Problem } from '../errors.js';
import type { KnowledgeFilter } from '../knowledge/filter.js';
import type { FilterInput } from '../ops/store/list.js';
import { PRIORITIES } from '../priority.js';
import { suggest } from '../schema/suggest.js';
import type { KnowledgeScope, KnowledgeSource, KnowledgeType, TaskPlanInput } from '../types.js';
import { readInputText } from './_input.js';
import type { CommandContext, OptionSpec } from './command.js';
import { plural } from './format.js';

export const TYPES: readonly KnowledgeType[] = ['recommendation', 'prohibition', 'learning'];
export const SCOPES: readonly KnowledgeScope[] = ['global', 'project', 'agent_type'];
export const SOURCES: readonly KnowledgeSource[] = ['manual', 'task_success', 'task_failure', 'code_review', 'import'];

/** Checks a flag value against its allowed values; plural types ("prohibitions") are accepted. */
export function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  const singular = allowed.includes(value.replace(/s$/, '') as T) ? value.replace(/s$/, '') : value;
  if (allowed.includes(singular as T)) return singular as T;
  const hint = suggest(value, allowed);
  throw new UsageError(`--${flag} must be one of ${allowed.join(', ')} (found ${JSON.stringify(value)})`, hint === undefined ? undefined : `did you mean ${hint}?`);
}

/** The values of a repeatable enum flag. */
export function manyOf<T extends string>(ctx: CommandContext, flag: string, allowed: readonly T[]): T[] {
  return ctx.strings(flag).map((value) => oneOf(flag, value, allowed));
}

/** A whole-number flag (undefined when absent). */
export function integerFlag(ctx: CommandContext, flag: string, min = 0): number | undefined {
  const raw = ctx.string(flag);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new UsageError(`--${flag} must be a whole number of at least ${min} (found ${JSON.stringify(raw)})`);
  return Number(raw);
}

/** A number flag between 0 and 1 (undefined when absent). */
export function fractionFlag(ctx: CommandContext, flag: string): number | undefined {
  const raw = ctx.string(flag);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) throw new UsageError(`--${flag} must be a number from 0 to 1 (found ${JSON.stringify(raw)})`);
  return value;
}

/** A date flag (YYYY-MM-DD or an ISO date-time). */
export function dateFlag(ctx: CommandContext, flag: string): Date | undefined {
  const raw = ctx.string(flag);
  if (raw === undefined) return undefined;
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T00:00:00.000Z` : raw);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--${flag} must be a date like 2026-01-31 or 2026-01-31T12:00:00Z (found ${JSON.stringify(raw)})`);
  return date;
}

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

/** The filter the filter flags describe. */
export function filterFromFlags(ctx: CommandContext): KnowledgeFilter {
  if (ctx.flag('enabled') && ctx.flag('disabled')) throw new UsageError('--enabled and --disabled exclude each other');
  const filter: KnowledgeFilter = {
    types: manyOf(ctx, 'type', TYPES),
    scopes: manyOf(ctx, 'scope', SCOPES),
    priorities: manyOf(ctx, 'priority', PRIORITIES),
    sources: manyOf(ctx, 'source', SOURCES),
  };
  const project = ctx.string('project');
  const agentType = ctx.string('agent-type');
  const validAt = dateFlag(ctx, 'valid-at');
  const text = ctx.string('text');
  if (project !== undefined) filter.projectId = project;
  if (agentType !== undefined) filter.agentType = agentType;
  if (ctx.flag('enabled') || ctx.flag('disabled')) filter.enabled = ctx.flag('enabled');
  if (validAt !== undefined) filter.validAt = validAt;
  if (text !== undefined) filter.text = text;
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

/** Warns (stderr) that invalid files were left out, so a result is never silently partial. */
export function warnSkipped(ctx: CommandContext, problems: readonly Problem[]): void {
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length === 0) return;
  const files = [...new Set(errors.map((p) => p.file))];
  ctx.note(ctx.style.yellow(`warning: ${plural(errors.length, 'problem')} in ${files.slice(0, 3).join(', ')}${files.length > 3 ? ', ...' : ''}; invalid files and lines are left out (run "lore validate")`));
}

/** "applied 3 times, 2 helpful, last 2026-01-31" for people. */
export function usageText(stats: { timesApplied: number; timesHelpful: number; lastApplied?: string }): string {
  if (stats.timesApplied === 0) return 'never applied';
  return `applied ${plural(stats.timesApplied, 'time')}, ${stats.timesHelpful} helpful, last ${stats.lastApplied?.slice(0, 10) ?? '?'}`;
}

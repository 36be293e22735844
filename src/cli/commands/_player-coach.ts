// Shared options, parsing and wording for the player/coach commands (roles, gates, mode, prompt
// coach, turn): each is an adapter over its operation in src/ops/player-coach/.
import { UsageError } from '../../errors.js';
import type { Origin } from '../../entities/sources.js';
import { TASK_TYPES } from '../../entities/sources.js';
import type { PruneResult } from '../../turns/retention.js';
import type { CommandContext, OptionSpec } from '../command.js';
import { plural } from '../format.js';

export const TASK_OPTIONS: Record<string, OptionSpec> = {
  'task-type': { type: 'enum', values: TASK_TYPES, value: 'T', description: 'task type: scaffolding, feature, testing, documentation, bugfix' },
  complexity: { type: 'integer', min: 1, max: 10, value: 'N', description: 'task complexity, 1-10' },
};

export const PROJECT_OPTION: Record<string, OptionSpec> = {
  project: { type: 'string', value: 'P', description: "the project (default: config.yaml's project)" },
};

export const TURN_LOG_OPTIONS: Record<string, OptionSpec> = {
  feature: { type: 'string', value: 'F', description: 'the feature (FEAT-XXX)' },
  ref: { type: 'string', value: 'REV', description: 'read the log as committed in REV (what hooks and CI use), not the working tree' },
  ...PROJECT_OPTION,
};

function missing(name: string, command: string): UsageError {
  return new UsageError(`lore ${command} needs --${name}`, `see lore ${command} --help`);
}

/** The value of a required string option, or a usage error naming it. */
export function required(ctx: CommandContext, name: string, command: string): string {
  const value = ctx.string(name);
  if (value === undefined || value === '') throw missing(name, command);
  return value;
}

/** The value of a required integer option, or a usage error naming it. */
export function requiredNumber(ctx: CommandContext, name: string, command: string): number {
  const value = ctx.number(name);
  if (value === undefined) throw missing(name, command);
  return value;
}

/** The task's type and complexity (both required) and the project, as the operations take them. */
export function taskInput(ctx: CommandContext, command: string): { task_type: string; complexity: number; project?: string } {
  const project = ctx.string('project');
  return { task_type: required(ctx, 'task-type', command), complexity: requiredNumber(ctx, 'complexity', command), ...(project === undefined ? {} : { project }) };
}

/** `{ project }` when --project was given, else nothing. */
export function projectInput(ctx: CommandContext): { project?: string } {
  const project = ctx.string('project');
  return project === undefined ? {} : { project };
}

/** The input of turn.latest and turn.list: the feature, and where to read its log. */
export function turnLogInput(ctx: CommandContext, command: string): { feature_id: string; ref?: string; project?: string } {
  const ref = ctx.string('ref');
  return { feature_id: required(ctx, 'feature', command), ...(ref === undefined ? {} : { ref }), ...projectInput(ctx) };
}

/** Where a value came from, in the words the human output uses. */
export function sourceLabel(source: Origin['source']): string {
  return source === 'override' ? 'override file' : source;
}

/** "path (store)", or "built-in fallback" for values compiled into lore. */
export function originText(origin: Origin): string {
  return origin.file === undefined ? 'built-in fallback (lore seed writes it to the store)' : `${origin.file} (${sourceLabel(origin.source)})`;
}

/** The project's override file line of the human output. */
export function overrideText(overrideFile: string | null, project: string): string {
  return overrideFile === null ? `none (no .knowledge/overrides/${project}.yaml)` : `${overrideFile} (override file)`;
}

/** Where a log was read: "feature F of project P" plus "at REV". */
export function logName(log: { feature: string; project: string; ref: string | null }): string {
  return `feature ${log.feature} of project ${log.project}${log.ref === null ? '' : ` at ${log.ref}`}`;
}

/**
 * What retention did, for people; `always` (lore turn prune) also reports when nothing was pruned,
 * and reports a log it refused to rewrite as an error rather than a warning.
 */
export function printPrune(ctx: CommandContext, result: PruneResult, always: boolean): void {
  const limits = `limits: ${result.limits.max_per_feature} per feature, ${result.limits.max_per_project} per project`;
  if (result.removed.length > 0) {
    ctx.print(`${result.dryRun ? 'would prune' : 'pruned'} ${plural(result.removed.length, 'turn')} of project ${result.project} (${result.before} -> ${result.after}; ${limits})`);
    for (const f of result.features.filter((x) => x.removed > 0)) ctx.print(`  ${f.feature}: ${plural(f.removed, 'turn')} of ${f.turns} (completed)`);
  } else if (always && result.refused.length === 0) {
    ctx.print(`nothing to prune in project ${result.project}: ${plural(result.before, 'turn')} in ${plural(result.features.length, 'feature')}; ${limits}`);
  }
  for (const warning of result.warnings) ctx.note(ctx.style.yellow(`warning: ${warning}`));
  for (const refusal of result.refused) {
    const text = `${refusal.message}; none of its turns were pruned (fix or remove the line by hand: lore validate lists every such line)`;
    ctx.note(always ? `${ctx.style.red('error')}: ${text}` : ctx.style.yellow(`warning: ${text}`));
  }
}

// Shared parsing and wording for the player/coach commands (roles, gates, mode, prompt coach, turn).
import { UsageError } from '../../errors.js';
import type { Origin } from '../../entities/sources.js';
import type { CommandContext, OptionSpec } from '../command.js';

export const TASK_OPTIONS: Record<string, OptionSpec> = {
  'task-type': { type: 'string', value: 'T', description: 'task type: scaffolding, feature, testing, documentation, bugfix' },
  complexity: { type: 'string', value: 'N', description: 'task complexity, 1-10' },
};

export const PROJECT_OPTION: Record<string, OptionSpec> = {
  project: { type: 'string', value: 'P', description: "the project (default: config.yaml's project)" },
};

/** The value of a required string option, or a usage error naming it. */
export function required(ctx: CommandContext, name: string, command: string): string {
  const value = ctx.string(name);
  if (value === undefined || value === '') throw new UsageError(`lore ${command} needs --${name}`, `see lore ${command} --help`);
  return value;
}

/** A whole-number option ("--turn 2"); `fallback` when absent and not required. */
export function integer(ctx: CommandContext, name: string, command: string, fallback?: number): number {
  const text = ctx.string(name);
  if (text === undefined && fallback !== undefined) return fallback;
  const value = text === undefined ? required(ctx, name, command) : text;
  if (!/^-?\d+$/.test(value.trim())) throw new UsageError(`--${name} must be a whole number (found "${value}")`, `see lore ${command} --help`);
  return Number(value);
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
export function overrideText(overrideFile: string | undefined, project: string): string {
  return overrideFile === undefined ? `none (no .knowledge/overrides/${project}.yaml)` : `${overrideFile} (override file)`;
}

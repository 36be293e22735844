// Option values, checked and converted once for every command, from the types the command
// declares: integers and numbers within their bounds, enums among their values (a plural read as
// its singular), dates as ISO text. A wrong value is a usage error naming the option and the value.
import { UsageError } from '../errors.js';
import { suggest } from '../schema/suggest.js';
import type { OptionSpec, OptionValue, OptionValues } from './command.js';

/** The options every command takes. */
export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  json: { type: 'boolean', description: 'print the result as JSON' },
  store: { type: 'string', value: 'DIR', description: 'use the store in DIR instead of searching up from the working directory' },
  'no-color': { type: 'boolean', description: 'no colours (also NO_COLOR=1)' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
};

/** The options as node:util parseArgs needs them: every typed option is read as a string. */
export function parseArgsOptions(options: Record<string, OptionSpec>): Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> {
  return Object.fromEntries(Object.entries(options).map(([name, spec]) => [name, {
    type: spec.type === 'boolean' ? 'boolean' : 'string',
    ...(spec.multiple === true ? { multiple: true } : {}),
    ...(spec.short === undefined ? {} : { short: spec.short }),
  }]));
}

function bounds(spec: OptionSpec, whole: boolean): string {
  const kind = whole ? 'a whole number' : 'a number';
  if (spec.min !== undefined && spec.max !== undefined) return `${kind} from ${spec.min} to ${spec.max}`;
  if (spec.min !== undefined) return `${kind} of at least ${spec.min}`;
  if (spec.max !== undefined) return `${kind} of at most ${spec.max}`;
  return kind;
}

/** One value of an option, converted to its type. */
export function convertValue(name: string, spec: OptionSpec, raw: string, label = `--${name}`): string | number {
  switch (spec.type) {
    case 'integer':
    case 'number': {
      const whole = spec.type === 'integer';
      const value = Number(raw);
      const ok = raw.trim() !== '' && (whole ? /^-?\d+$/.test(raw.trim()) : Number.isFinite(value)) && (spec.min === undefined || value >= spec.min) && (spec.max === undefined || value <= spec.max);
      if (!ok) throw new UsageError(`${label} must be ${bounds(spec, whole)} (found ${JSON.stringify(raw)})`);
      return value;
    }
    case 'enum': {
      const allowed = spec.values ?? [];
      if (allowed.includes(raw)) return raw;
      const singular = raw.replace(/s$/, '');
      if (allowed.includes(singular)) return singular;
      const hint = suggest(raw, allowed);
      throw new UsageError(`${label} must be one of ${allowed.join(', ')} (found ${JSON.stringify(raw)})`, hint === undefined ? undefined : `did you mean ${hint}?`);
    }
    case 'date': {
      const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T00:00:00.000Z` : raw);
      if (Number.isNaN(date.getTime())) throw new UsageError(`${label} must be a date like 2026-01-31 or 2026-01-31T12:00:00Z (found ${JSON.stringify(raw)})`);
      return date.toISOString();
    }
    default:
      return raw;
  }
}

/** Every option value converted to its declared type; throws a UsageError for the first wrong one. */
export function convertOptions(options: Record<string, OptionSpec>, raw: Record<string, unknown>): OptionValues {
  const out: OptionValues = {};
  for (const [name, value] of Object.entries(raw)) {
    const spec = options[name];
    if (spec === undefined || spec.type === 'boolean' || value === undefined || typeof value === 'boolean') {
      out[name] = value as OptionValue;
      continue;
    }
    out[name] = (Array.isArray(value) ? (value as string[]).map((v) => convertValue(name, spec, v)) : convertValue(name, spec, value as string)) as OptionValue;
  }
  return out;
}

// Which log a path under `.knowledge/` is, and what makes one of its lines valid: one answer for
// `lore validate`, the readers and the commit guard.
import type { SchemaName } from '../schema/schemas.js';
import { validateAgainst } from '../schema/validate.js';
import { LOGS } from './layout.js';
import { turnLineProblem } from './turn-line.js';

export interface LogKind {
  schema: SchemaName;
  /** For turn logs: the feature the file belongs to. */
  feature?: string;
  /** Why a parsed line cannot be a line of this log, or undefined when it can. */
  lineProblem(value: unknown): string | undefined;
}

/** The schema of each named log's lines, by its path relative to `.knowledge/`. */
export const LOG_SCHEMAS: Readonly<Record<string, SchemaName>> = { [LOGS.dag]: 'dag-line', [LOGS.applications]: 'application-event', [LOGS.rejections]: 'rejection-event' };
/** The schema of a turn log's lines (`turns/<project>/<feature>.ndjson`). */
export const TURN_LOG_SCHEMA: SchemaName = 'turn-state';

/**
 * The log at `path` (relative to `.knowledge/`, with forward slashes), or undefined when it is not
 * a log lore knows.
 *
 * @example
 * logKind('turns/acme/FEAT-1.ndjson')?.feature; // → 'FEAT-1'
 */
export function logKind(path: string): LogKind | undefined {
  const turn = new RegExp(`^${LOGS.turnsDir}/[^/]+/([^/]+)\\.ndjson$`).exec(path);
  if (turn !== null) {
    const feature = turn[1]!;
    return { schema: TURN_LOG_SCHEMA, feature, lineProblem: (value) => turnLineProblem(value, feature) };
  }
  const schema = LOG_SCHEMAS[path];
  if (schema === undefined) return undefined;
  return {
    schema,
    lineProblem: (value) => {
      const issues = validateAgainst(schema, value);
      return issues.length === 0 ? undefined : `is invalid: ${issues.map((i) => i.message).join('; ')}`;
    },
  };
}

// Structured events of the thought DAG. The library only hands them to a callback; the CLI
// writes them as JSON lines (stderr or --log-file) filtered by --log-level.

export type EventLevel = 'error' | 'warn' | 'info' | 'debug';

/** A node line was appended (a new node, or an updated version of one). */
export interface NodeAppendEvent {
  event: 'node_append';
  level: 'info';
  id: string;
  project: string;
  role: string;
  update: boolean;
}

/** The state was rebuilt from the log: at load, or when another process changed the log. */
export interface StateRecomputeEvent {
  event: 'state_recompute';
  level: 'info';
  reason: 'load' | 'log_changed';
  lines: number;
  skipped: number;
  projects: number;
  nodes: number;
  artifacts: number;
  perProject: Record<string, number>;
  ms: number;
}

/** A line of the log was reported and skipped (torn, not JSON, or not a valid line). */
export interface LineSkippedEvent {
  event: 'line_skipped';
  level: 'warn';
  file: string;
  line: number | undefined;
  message: string;
}

/** Two different directories give one project name. */
export interface ProjectCollisionEvent {
  event: 'project_collision';
  level: 'warn';
  project: string;
  contexts: string[];
}

export type DagEvent = NodeAppendEvent | StateRecomputeEvent | LineSkippedEvent | ProjectCollisionEvent;

/** Receives events; must not throw. */
export type DagEventSink = (event: DagEvent) => void;

const RANK: Record<EventLevel | 'silent', number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** The accepted `--log-level` values. */
export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Whether an event of `level` passes the threshold `threshold`. */
export function levelEnabled(level: EventLevel, threshold: LogLevel): boolean {
  return RANK[level] <= RANK[threshold];
}

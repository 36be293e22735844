// The thought log replayed into per-project state. Identity is (project, id), so two projects
// may use the same id; the latest line per identity wins by (updatedAt or createdAt, then line
// order), never the first, so an update such as a critic adding a child is what queries see.
import type { Problem } from '../errors.js';
import { replayLog } from '../log/ndjson.js';
import { validateAgainst } from '../schema/validate.js';
import { isNode, isTombstone, lineTime, ROLES, VERDICTS, type DagLine } from './line.js';
import { ProjectState } from './state.js';
import { byText } from '../text-order.js';

export { isNode, isTombstone, lineTime, type DagLine };

/** Every project's state. */
export class DagState {
  readonly projects = new Map<string, ProjectState>();
  /** Ids whose latest line is a tombstone, as `project\0id`, with the tombstone's time: deleted on purpose, not missing. */
  readonly deleted = new Map<string, number>();
  private seq = 0;

  /** Whether the latest line of `id` in `project` deletes it. */
  isDeleted(project: string, id: string): boolean {
    return this.deleted.has(`${project}\u0000${id}`);
  }

  /** The time (ms) of the latest line of `key` (`project\0id`): a node, an artifact or a tombstone; undefined when there is none. */
  latestTime(key: string): number | undefined {
    const at = key.indexOf('\u0000');
    const state = this.projects.get(key.slice(0, at));
    const id = key.slice(at + 1);
    const line = state?.nodes.get(id) ?? (state?.artifacts.get(id) as DagLine | undefined);
    return line === undefined ? this.deleted.get(key) : lineTime(line);
  }

  /** The state of a project; an empty one (not kept) when the project has no lines. */
  project(name: string): ProjectState {
    return this.projects.get(name) ?? new ProjectState(name);
  }

  /** Applies one line: adds or replaces a node or artifact, or deletes one. */
  apply(line: DagLine): void {
    let state = this.projects.get(line.project);
    const key = `${line.project}\u0000${line.id}`;
    if (isTombstone(line)) {
      this.deleted.set(key, lineTime(line));
      state?.remove(line.id);
      if (state?.nodes.size === 0 && state.artifacts.size === 0) this.projects.delete(line.project);
      return;
    }
    this.deleted.delete(key);
    if (state === undefined) this.projects.set(line.project, (state = new ProjectState(line.project)));
    if (isNode(line)) state.putNode(line, this.seq++);
    else state.putArtifact(line);
  }

  /** Node and artifact counts, in total and per project. */
  counts(): { projects: number; nodes: number; artifacts: number; perProject: Record<string, number> } {
    let nodes = 0;
    let artifacts = 0;
    const perProject: Record<string, number> = {};
    for (const [name, state] of [...this.projects].sort(([a], [b]) => byText(a, b))) {
      nodes += state.nodes.size;
      artifacts += state.artifacts.size;
      perProject[name] = state.nodes.size;
    }
    return { projects: this.projects.size, nodes, artifacts, perProject };
  }
}

export interface LoadResult {
  state: DagState;
  /** Lines in the log, valid or not. */
  lines: number;
  /** Lines that were reported and skipped (torn, not JSON, not a valid dag line). */
  problems: Problem[];
  ms: number;
}

const strings = (v: unknown): boolean => Array.isArray(v) && v.every((s) => typeof s === 'string');
const optional = (v: unknown, check: (v: unknown) => boolean): boolean => v === undefined || check(v);
const isString = (v: unknown): boolean => typeof v === 'string';

/**
 * Whether a line holds what the state relies on (field types, role and verdict), checked without
 * the schema: validating every line against it would cost a third of a replay. `lore validate`
 * (the pre-commit hook, CI) checks every line against the schema; a line that fails here is checked
 * against the schema too, so it is skipped only when the schema rejects it, with its message.
 */
function loadable(v: Record<string, unknown>): boolean {
  if (!isString(v.id) || !isString(v.project) || !isString(v.createdAt)) return false;
  if (v.deleted !== undefined) return v.deleted === true;
  if (v.role === undefined) return isString(v.name) && isString(v.path);
  return (ROLES as readonly unknown[]).includes(v.role) && isString(v.thought) && isString(v.projectContext)
    && strings(v.parents) && strings(v.children) && strings(v.tags) && optional(v.summarizedSegment, strings)
    && optional(v.branchLabel, isString) && optional(v.updatedAt, isString) && optional(v.target, isString)
    && optional(v.verdict, (x) => (VERDICTS as readonly unknown[]).includes(x)) && optional(v.artifacts, Array.isArray);
}

/** Why a line cannot be loaded, or undefined when it can. */
function whyNotLoadable(value: unknown): string | undefined {
  if (loadable(value as Record<string, unknown>)) return undefined;
  const issues = validateAgainst('dag-line', value);
  return issues.length === 0 ? undefined : `is not a valid thought-log line (${issues.map((i) => i.message).join('; ')})`;
}

/** Streams the log into per-project state; bad lines are reported and skipped. */
export async function loadDagState(file: string, displayPath: string): Promise<LoadResult> {
  const started = performance.now();
  const result = await replayLog<DagLine>(file, { displayPath, keyOf: (line) => `${line.project}\u0000${line.id}`, timeOf: lineTime, validate: whyNotLoadable });
  const state = new DagState();
  for (const { value } of result.records.values()) state.apply(value);
  for (const [key, line] of result.deleted) state.deleted.set(key, lineTime(line.value));
  return { state, lines: result.lines, problems: result.problems, ms: performance.now() - started };
}

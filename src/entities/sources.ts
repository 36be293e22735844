// What every resolver shares: where a value came from (store, override file, built-in fallback),
// the fallback tables, the project an operation is for, and strict reading of store records:
// an invalid record is an error that names its file and line, never a silent fallback.
import { basename } from 'node:path';
import { UsageError, ValidationError } from '../errors.js';
import { suggest } from '../schema/suggest.js';
import { assertValidId, slugify } from '../store/ids.js';
import type { Store } from '../store/open.js';
import { readRecord, readRecords, type StoreRecord } from '../store/read.js';
import type { RecordKindName } from '../store/layout.js';
import type { GateProfile, ImplementationMode, ProjectOverrides, RoleConstraints, TaskType } from '../types.js';
import { DEFAULT_GATES, DEFAULT_MODES, DEFAULT_ROLES } from './defaults.js';

/** The repository's name as a project id: "My Repo" → "my-repo". */
export function projectIdFor(root: string): string {
  return slugify(basename(root)) || 'project';
}

/** Where a resolved value came from. */
export type ValueSource = 'store' | 'override' | 'fallback';

/** A source and, for store records and override files, the file (relative to the store root). */
export interface Origin {
  source: ValueSource;
  file?: string;
}

/** The built-in tables resolvers fall back to; tests pass empty ones to see degradation. */
export interface Fallbacks {
  roles: readonly RoleConstraints[];
  gates: readonly GateProfile[];
  modes: readonly ImplementationMode[];
}

export const BUILT_IN_FALLBACKS: Fallbacks = { roles: DEFAULT_ROLES, gates: DEFAULT_GATES, modes: DEFAULT_MODES };

/** Options every player/coach resolver takes. */
export interface RuntimeOptions {
  store: Store;
  /** The project whose override file applies (default: config.yaml's project, else the folder name). */
  project?: string | undefined;
  /** Default: the seeded tables (src/entities/defaults.ts). */
  fallbacks?: Fallbacks;
}

/** The task types of the gate-profile schema, in its order. */
export const TASK_TYPES: readonly TaskType[] = ['scaffolding', 'feature', 'testing', 'documentation', 'bugfix'];

/**
 * The project an operation is for: the given one, config.yaml's project, or the store folder's name.
 *
 * @example
 * projectOf(await openStore({ cwd }), undefined); // → 'my-repo' (config.yaml's project)
 */
export function projectOf(store: Store, project?: string): string {
  const id = project ?? store.config.project ?? projectIdFor(store.root);
  assertValidId(id, 'project');
  return id;
}

/** Checks a complexity is an integer within 1-10; `where` says which profiles or modes exist. */
export function checkComplexity(complexity: number, where: string): void {
  if (!Number.isInteger(complexity) || complexity < 1 || complexity > 10) {
    throw new UsageError(`complexity ${complexity} is outside 1-10: complexity is a whole number from 1 to 10`, where);
  }
}

const FIX_SEEDED = 'fix the file (lore validate lists every problem), or delete it to use the built-in default';

/** Throws unless the task type is one of TASK_TYPES; `known` adds what exists to the hint. */
export function checkTaskType(taskType: string, known?: string): void {
  if ((TASK_TYPES as readonly string[]).includes(taskType)) return;
  const close = suggest(taskType, TASK_TYPES);
  const hint = [close === undefined ? undefined : `did you mean ${close}?`, known].filter((x): x is string => x !== undefined).join(' ');
  throw new UsageError(`unknown task type "${taskType}": the task types are ${TASK_TYPES.join(', ')}`, hint === '' ? undefined : hint);
}

/** One store record by id; undefined when missing, a ValidationError naming file and line when invalid. */
export async function readValidRecord<T>(store: Store, kind: RecordKindName, id: string, hint = FIX_SEEDED): Promise<StoreRecord<T> | undefined> {
  const result = await readRecord<T>(store.root, kind, id, store.config.limits);
  if (result === undefined) return undefined;
  if (result.record === undefined) {
    const file = result.problems[0]?.file ?? id;
    throw new ValidationError(`could not use ${file}: it is invalid`, result.problems, { hint });
  }
  return result.record;
}

/** Every record of a kind; any invalid file is a ValidationError (resolution would be ambiguous). */
export async function readValidRecords<T>(store: Store, kind: RecordKindName): Promise<StoreRecord<T>[]> {
  const result = await readRecords<T>(store.root, { kinds: [kind], limits: store.config.limits });
  const errors = result.problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    throw new ValidationError(`could not use ${errors[0]!.file}: it is invalid`, errors, { hint: FIX_SEEDED });
  }
  return result.records;
}

/** A project's override file, or undefined when it has none; a malformed file is an error naming file, line and field. */
export async function loadOverrides(store: Store, project: string): Promise<StoreRecord<ProjectOverrides> | undefined> {
  return readValidRecord<ProjectOverrides>(store, 'override', project, 'fix the override file (lore validate lists every problem); it extends the defaults for this project only');
}

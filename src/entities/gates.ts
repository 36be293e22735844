// Quality-gate profiles as a session sees them: the store's profile for the task type whose
// complexity_range holds the complexity (built-in profiles fill what the store lacks), with the
// project's overrides replacing just the fields they name.
import { LoreError, ValidationError } from '../errors.js';
import { validateAgainst } from '../schema/validate.js';
import type { StoreRecord } from '../store/read.js';
import type { GateOverride, GateProfile, ProjectOverrides } from '../types.js';
import { BUILT_IN_FALLBACKS, checkComplexity, checkTaskType, loadOverrides, projectOf, readValidRecords, type Origin, type RuntimeOptions, type ValueSource } from './sources.js';
import { byText } from '../text-order.js';

/** The fields of a profile an override may replace, in schema order. */
export const GATE_FIELDS = ['arch_review_required', 'arch_review_threshold', 'coverage_required', 'coverage_threshold', 'tests_required', 'tests_must_pass'] as const;
export type GateField = (typeof GATE_FIELDS)[number];

/** A profile with where it came from. */
export interface SourcedProfile {
  profile: GateProfile;
  origin: Origin;
}

export interface ResolvedGate {
  task_type: string;
  complexity: number;
  project: string;
  /** The profile after overrides: the thresholds a session must use. */
  profile: GateProfile;
  /** Where the profile came from (store file or built-in fallback). */
  origin: Origin;
  /** The project's override file, when it has one. */
  overrideFile?: string;
  /** Where each field present on the profile came from. */
  fields: Partial<Record<GateField, ValueSource>>;
}

const overlaps = (a: readonly [number, number], b: readonly [number, number]): boolean => a[0] <= b[1] && b[0] <= a[1];

/**
 * Every profile in effect: the store's, plus each built-in profile whose range no store profile of
 * its task type overlaps (so a store that widened 4-6 to 4-10 does not also get the built-in 7-10).
 */
export async function gateProfiles(options: RuntimeOptions): Promise<SourcedProfile[]> {
  const stored = (await readValidRecords<GateProfile>(options.store, 'gate')).map((r) => ({ profile: r.value, origin: { source: 'store', file: r.file } as Origin }));
  const builtIn = (options.fallbacks ?? BUILT_IN_FALLBACKS).gates
    .filter((g) => !stored.some((s) => s.profile.task_type === g.task_type && overlaps(s.profile.complexity_range, g.complexity_range)))
    .map((profile) => ({ profile, origin: { source: 'fallback' } as Origin }));
  return [...stored, ...builtIn].sort((a, b) => byText(a.profile.task_type, b.profile.task_type) || a.profile.complexity_range[0] - b.profile.complexity_range[0]);
}

/** "documentation 1-10; feature 1-3, 4-6, 7-10; ...": which task types and ranges exist. */
export function describeProfiles(profiles: readonly SourcedProfile[]): string {
  const byType = new Map<string, string[]>();
  for (const { profile } of profiles) byType.set(profile.task_type, [...(byType.get(profile.task_type) ?? []), profile.complexity_range.join('-')]);
  return byType.size === 0 ? 'no gate profiles exist (the store has none and there are no built-in ones)' : `task types and ranges: ${[...byType].map(([type, ranges]) => `${type} ${ranges.join(', ')}`).join('; ')}`;
}

function pickProfile(profiles: readonly SourcedProfile[], taskType: string, complexity: number): SourcedProfile {
  const known = describeProfiles(profiles);
  const ofType = profiles.filter((p) => p.profile.task_type === taskType);
  checkTaskType(taskType, known);
  if (ofType.length === 0) {
    throw new LoreError('NOT_FOUND', `task type ${taskType} has no quality-gate profile: none is seeded and the store has none, and lore does not guess thresholds`, {
      hint: `add .knowledge/gates/${taskType}-1-10.yaml (id QG-${taskType}-1-10) with the thresholds you want, or use another task type; ${known}`,
    });
  }
  checkComplexity(complexity, known);
  const found = ofType.find((p) => p.profile.complexity_range[0] <= complexity && complexity <= p.profile.complexity_range[1]);
  if (found === undefined) {
    throw new LoreError('NOT_FOUND', `no ${taskType} profile covers complexity ${complexity}`, { hint: known });
  }
  return found;
}

/**
 * Resolves the quality gates of a task: the profile of its type whose range holds the complexity,
 * with the project's overrides for that exact range applied field by field.
 *
 * @example
 * const gate = await resolveGateConfig({ store, taskType: 'feature', complexity: 5, project: 'acme' });
 * gate.profile.coverage_threshold; // → 0.85 when acme's override raises it, else 0.8
 */
export async function resolveGateConfig(options: RuntimeOptions & { taskType: string; complexity: number }): Promise<ResolvedGate> {
  const project = projectOf(options.store, options.project);
  const { profile: base, origin } = pickProfile(await gateProfiles(options), options.taskType, options.complexity);
  const overrides = await loadOverrides(options.store, project);
  const { profile, fields } = applyOverrides(base, origin, overrides, project);
  return {
    task_type: base.task_type,
    complexity: options.complexity,
    project,
    profile,
    origin,
    ...(overrides === undefined ? {} : { overrideFile: overrides.file }),
    fields,
  };
}

/** A profile with the project's overrides for its exact range applied, and where each field came from. */
function applyOverrides(base: GateProfile, origin: Origin, overrides: StoreRecord<ProjectOverrides> | undefined, project: string): { profile: GateProfile; fields: Partial<Record<GateField, ValueSource>> } {
  const fields: Partial<Record<GateField, ValueSource>> = {};
  for (const field of GATE_FIELDS) if (base[field] !== undefined) fields[field] = origin.source;
  const matching: GateOverride[] = (overrides?.value.quality_gate_configs?.[base.task_type]?.overrides ?? [])
    .filter((o) => o.complexity_range[0] === base.complexity_range[0] && o.complexity_range[1] === base.complexity_range[1]);
  const profile: GateProfile = { ...base };
  for (const override of matching) {
    for (const field of GATE_FIELDS) {
      if (override[field] === undefined) continue;
      (profile as unknown as Record<string, unknown>)[field] = override[field];
      fields[field] = 'override';
    }
  }
  if (matching.length > 0) {
    // An override can switch a gate on without giving its threshold; that profile cannot be used.
    const issues = validateAgainst('gate-profile', profile);
    if (issues.length > 0) {
      throw new ValidationError(`${overrides!.file} makes ${base.id} invalid for project ${project}`, issues.map((i) => ({ severity: 'error' as const, file: overrides!.file, message: i.message })), { hint: 'give the threshold together with the gate it switches on' });
    }
  }
  return { profile, fields };
}

/** One profile of a project's list: the profile after overrides, its origin and each field's source. */
export interface ListedGate {
  profile: GateProfile;
  origin: Origin;
  fields: Partial<Record<GateField, ValueSource>>;
}

/**
 * Every quality-gate profile in effect for a project, by task type and range, each with the
 * project's overrides applied as resolveGateConfig applies them.
 *
 * @example
 * (await listGateProfiles({ store, project: 'acme' })).profiles.find((g) => g.profile.id === 'QG-feature-4-6')?.fields.coverage_threshold; // → 'override'
 */
export async function listGateProfiles(options: RuntimeOptions): Promise<{ project: string; overrideFile?: string; profiles: ListedGate[] }> {
  const project = projectOf(options.store, options.project);
  const overrides = await loadOverrides(options.store, project);
  const profiles = (await gateProfiles(options)).map(({ profile, origin }) => ({ ...applyOverrides(profile, origin, overrides, project), origin }));
  return { project, ...(overrides === undefined ? {} : { overrideFile: overrides.file }), profiles };
}

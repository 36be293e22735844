// Role constraints as a session sees them: the store record ROLE-<role> (or the built-in
// fallback), extended by the project's override file. Additions extend, never replace, and
// never repeat an item that is already there.
import { LoreError, UsageError } from '../errors.js';
import { suggest } from '../schema/suggest.js';
import type { PathConstraint, Role, RoleConstraints, RoleOverride } from '../types.js';
import { BUILT_IN_FALLBACKS, loadOverrides, projectOf, readValidRecord, type Origin, type RuntimeOptions, type ValueSource } from './sources.js';

/** The roles of the role-constraints schema. */
export const ROLES: readonly Role[] = ['coach', 'player'];

/** The four lists of a role, in the order people read them. */
export const ROLE_LISTS = ['must_do', 'must_not_do', 'ask_before', 'escalate_when'] as const;
export type RoleList = (typeof ROLE_LISTS)[number];

/** One item of a resolved list and where it came from. */
export interface RoleItem {
  value: string | PathConstraint;
  source: ValueSource;
  file?: string;
}

export interface ResolvedRole {
  role: Role;
  project: string;
  /** The merged constraints, what a session must follow. */
  constraints: RoleConstraints;
  /** Where the base record came from (store file or built-in fallback). */
  origin: Origin;
  /** The project's override file, when it has one (even if it adds nothing to this role). */
  overrideFile?: string;
  /** Every item of every list with its source. */
  items: Record<RoleList, RoleItem[]>;
}

/** The text of a list item (path constraints carry globs besides their text). */
export function itemText(item: string | PathConstraint): string {
  return typeof item === 'string' ? item : item.text;
}

function withAdditions(base: RoleItem[], additions: ReadonlyArray<string | PathConstraint> | undefined, file: string): RoleItem[] {
  const items = [...base];
  const seen = new Set(base.map((item) => itemText(item.value).trim()));
  for (const value of additions ?? []) {
    const text = itemText(value).trim();
    if (seen.has(text)) continue;
    seen.add(text);
    items.push({ value, source: 'override', file });
  }
  return items;
}

/** Throws a usage error naming the roles unless `role` is one of them. */
export function checkRole(role: string): asserts role is Role {
  if ((ROLES as readonly string[]).includes(role)) return;
  const hint = suggest(role, ROLES);
  throw new UsageError(`unknown role "${role}": the roles are ${ROLES.join(', ')}`, hint === undefined ? undefined : `did you mean ${hint}?`);
}

/**
 * Resolves a role's constraints for a project: store record or fallback, plus the override file's
 * additions. Throws for a role that does not exist, and NOT_FOUND when neither the store nor the
 * fallbacks hold it.
 *
 * @example
 * const coach = await resolveRoleConstraints({ store: await openStore({ cwd }), role: 'coach', project: 'acme' });
 * coach.constraints.must_do; // → ['Validate against acceptance criteria', ..., 'Verify OPG registration compliance']
 */
export async function resolveRoleConstraints(options: RuntimeOptions & { role: string }): Promise<ResolvedRole> {
  const { store } = options;
  checkRole(options.role);
  const role = options.role;
  const project = projectOf(store, options.project);
  const stored = await readValidRecord<RoleConstraints>(store, 'role', `ROLE-${role}`);
  const fallback = (options.fallbacks ?? BUILT_IN_FALLBACKS).roles.find((r) => r.role === role);
  const base = stored?.value ?? fallback;
  if (base === undefined) {
    throw new LoreError('NOT_FOUND', `no constraints for role ${role}: the store has no ROLE-${role} and there is no built-in fallback`, { hint: 'run "lore seed" to write the defaults' });
  }
  const origin: Origin = stored === undefined ? { source: 'fallback' } : { source: 'store', file: stored.file };
  const overrides = await loadOverrides(store, project);
  const additions: RoleOverride = overrides?.value.role_constraints?.[role] ?? {};
  const items = {} as Record<RoleList, RoleItem[]>;
  for (const list of ROLE_LISTS) {
    const own: RoleItem[] = base[list].map((value) => ({ value, ...origin }));
    items[list] = overrides === undefined ? own : withAdditions(own, additions[`${list}_additions`], overrides.file);
  }
  const constraints: RoleConstraints = {
    id: base.id,
    role,
    must_do: items.must_do.map((i) => i.value as string),
    must_not_do: items.must_not_do.map((i) => i.value),
    ask_before: items.ask_before.map((i) => i.value as string),
    escalate_when: items.escalate_when.map((i) => i.value as string),
  };
  return { role, project, constraints, origin, ...(overrides === undefined ? {} : { overrideFile: overrides.file }), items };
}

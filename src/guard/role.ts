// The role guard: when the committer's role is known, the path globs on its must_not_do
// constraints become rules (e.g. the coach must not change src/**).
import { git } from '../git/exec.js';
import type { ChangedFile } from '../git/diff.js';
import { compileGlob } from '../match/glob.js';
import type { StoreRecord } from '../store/read.js';
import { readAtRef } from '../git/objects.js';
import { replayLogText } from '../log/ndjson.js';
import { isValidId } from '../store/ids.js';
import { KNOWLEDGE_DIR, LOGS } from '../store/layout.js';
import { latestTurn } from '../turns/order.js';
import type { PathConstraint, ProjectOverrides, RoleConstraints, TurnState } from '../types.js';
import { fingerprint, type Finding } from './scan.js';

export interface KnownRole {
  role: string;
  /** Where it came from: LORE_ROLE, git config lore.role, or the turn log. */
  source: string;
}

/** The committer's role from LORE_ROLE or `git config lore.role`, if set. */
export async function roleFromConfig(where: { cwd: string; env: NodeJS.ProcessEnv }): Promise<KnownRole | undefined> {
  const fromEnv = where.env.LORE_ROLE?.trim();
  if (fromEnv) return { role: fromEnv, source: 'LORE_ROLE' };
  try {
    const fromGit = (await git(['config', '--get', 'lore.role'], where)).trim();
    if (fromGit !== '') return { role: fromGit, source: 'git config lore.role' };
  } catch {
    // not set
  }
  return undefined;
}

/** The current feature: `git config lore.feature`, or the last segment of the branch name. */
async function currentFeature(where: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string | undefined> {
  for (const args of [['config', '--get', 'lore.feature'], ['symbolic-ref', '--short', '-q', 'HEAD']]) {
    try {
      const value = (await git(args, where)).trim().split('/').pop() ?? '';
      if (value !== '') return value;
    } catch {
      // not set / detached HEAD
    }
  }
  return undefined;
}

/**
 * The role whose move it is, from the latest turn committed at HEAD (never the working tree): after
 * a `revise` verdict the player holds the next turn. `approve` and `escalate` name no role.
 */
export async function roleFromTurns(where: { cwd: string; env: NodeJS.ProcessEnv }, project: string | undefined): Promise<KnownRole | undefined> {
  const feature = await currentFeature(where);
  if (project === undefined || feature === undefined || !isValidId(project) || !isValidId(feature)) return undefined;
  const path = `${KNOWLEDGE_DIR}/${LOGS.turnsDir}/${project}/${feature}.ndjson`;
  const text = await readAtRef(where, 'HEAD', path);
  if (text === undefined) return undefined;
  // Only the fields that order turns are needed; a line without them is skipped.
  const replay = replayLogText<TurnState>(text.toString('utf8'), {
    validate: (v) => {
      const t = v as Partial<TurnState> & { completed?: boolean };
      return t.completed === true || (Number.isInteger(t.turn_number) && typeof t.timestamp === 'string' && typeof t.coach_decision === 'string') ? undefined : 'is not a turn';
    },
  });
  const turns = [...replay.records.values()].map((l) => l.value).filter((t) => (t as { completed?: boolean }).completed !== true);
  const latest = latestTurn(turns);
  if (latest?.coach_decision !== 'revise') return undefined;
  return { role: 'player', source: `the turn log at HEAD (${latest.id}: revise)` };
}

export interface RoleRule extends PathConstraint {
  /** The file the constraint was read from. */
  file: string;
}

/** The path constraints binding `role`: its role record and the project's override additions, from every version given. */
export function roleRules(role: string, project: string | undefined, records: readonly StoreRecord[]): RoleRule[] {
  const rules = new Map<string, RoleRule>();
  const add = (items: ReadonlyArray<string | PathConstraint> | undefined, file: string): void => {
    for (const item of items ?? []) {
      if (typeof item !== 'string') rules.set(JSON.stringify(item), { ...item, file });
    }
  };
  for (const record of records) {
    if (record.kind === 'role' && (record.value as RoleConstraints).role === role) add((record.value as RoleConstraints).must_not_do, record.file);
    if (record.kind === 'override' && record.id === project) {
      add((record.value as ProjectOverrides).role_constraints?.[role as 'player' | 'coach']?.must_not_do_additions, record.file);
    }
  }
  return [...rules.values()];
}

/** Findings for changed files that the role must not touch. */
export function roleFindings(known: KnownRole, rules: readonly RoleRule[], files: readonly ChangedFile[], commit?: string): Finding[] {
  const findings: Finding[] = [];
  for (const rule of rules) {
    const globs = rule.paths.map((glob) => compileGlob(glob));
    for (const file of files) {
      if (!globs.some((g) => g.test(file.path))) continue;
      const entryId = `ROLE-${known.role}`;
      findings.push({
        entryId, title: `The ${known.role} must not: ${rule.text}`, priority: 'critical', origin: 'committed', ruleFile: rule.file,
        kind: 'role', matcher: rule.paths.join(', '), path: file.path, text: file.path, secret: false,
        fingerprint: fingerprint(entryId, file.path, rule.text), ...(commit === undefined ? {} : { commit }),
      });
    }
  }
  return findings;
}

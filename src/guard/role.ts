// The role guard: when the committer's role is known, the path globs on its must_not_do
// constraints become rules (e.g. the coach must not change src/**).
import { git, gitExitCode } from '../git/exec.js';
import type { ChangedFile } from './added-lines.js';
import { compileGlob } from '../match/glob.js';
import type { StoreRecord } from '../store/read.js';
import { readObjects } from '../git/objects.js';
import { isValidId } from '../store/ids.js';
import { KNOWLEDGE_DIR, LOGS } from '../store/layout.js';
import { latestTurn } from '../turns/order.js';
import type { PathConstraint, ProjectOverrides, RoleConstraints, TurnState } from '../types.js';
import { CONFIG_ARGS } from './hook-git.js';
import { fingerprint, type Finding } from './scan.js';

export interface KnownRole {
  role: string;
  /** Where it came from: LORE_ROLE, git config lore.role, or the turn log. */
  source: string;
}

/** What the role guard needs from git, gathered at once (in parallel with the rest of a check). */
export interface GitContext {
  /** From LORE_ROLE or `git config lore.role`. */
  configured?: KnownRole;
  /** `git config lore.feature`, or the last segment of the branch name. */
  feature?: string;
  /** Whether HEAD has a turn logs folder, when the check already asked git (undefined: not known). */
  turnsAtHead?: boolean;
}

/** Reads lore.* git config (one git process); `branch` is the full name of the branch checked out. */
export async function readGitContext(where: { cwd: string; env: NodeJS.ProcessEnv }, branch: string | undefined): Promise<GitContext> {
  // No lore.* setting (git exits 1): nothing to learn. Any other failure fails the check: a role
  // that could not be read must not turn the role guard off.
  const config = await git(CONFIG_ARGS, where).catch((error: unknown) => {
    if (gitExitCode(error) === 1) return '';
    throw error;
  });
  // -z: "key\nvalue\0" per setting, so no value can pose as another setting.
  const settings = new Map(config.split('\0').filter(Boolean).map((entry) => [entry.slice(0, entry.indexOf('\n')), entry.slice(entry.indexOf('\n') + 1).trim()]));
  const fromEnv = where.env.LORE_ROLE?.trim();
  const fromGit = settings.get('lore.role');
  const configured = fromEnv ? { role: fromEnv, source: 'LORE_ROLE' } : fromGit ? { role: fromGit, source: 'git config lore.role' } : undefined;
  const feature = settings.get('lore.feature') || branch?.split('/').pop() || undefined;
  return { ...(configured === undefined ? {} : { configured }), ...(feature === undefined ? {} : { feature }) };
}

/**
 * The committer's role: LORE_ROLE, then git config lore.role, then the latest turn committed at
 * HEAD for the current feature (never the working tree): after a `revise` verdict the player holds
 * the next turn. `approve` and `escalate` name no role.
 */
export async function resolveRole(where: { cwd: string; env: NodeJS.ProcessEnv }, context: GitContext, project: string | undefined): Promise<KnownRole | undefined> {
  if (context.configured !== undefined) return context.configured;
  const { feature } = context;
  if (context.turnsAtHead === false || project === undefined || feature === undefined || !isValidId(project) || !isValidId(feature)) return undefined;
  // Both are ids (no "/", no "..", no ":"): the name is this one file at HEAD.
  const [text] = await readObjects(where, [`HEAD:${KNOWLEDGE_DIR}/${LOGS.turnsDir}/${project}/${feature}.ndjson`]);
  if (text === undefined) return undefined;
  // Only the fields that order turns are needed; a line without them is skipped.
  // The log engine loads only when a turn log decides the role.
  const { replayLogText } = await import('../log/ndjson.js');
  const replay = replayLogText<TurnState>(text, {
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

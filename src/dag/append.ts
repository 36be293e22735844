// What an append writes: the checks on a new actor or critic node and the lines that record it.
// Pure: it reads the project's state and returns lines, so the caller can run it under the log's
// lock after refreshing the state (a critic's target update then never loses another child). Lines
// carry the time of the write; the log engine's version rule (Dag.write) moves a line after the
// latest version of its id when that one is later.
import { randomBytes } from 'node:crypto';
import { LoreError } from '../errors.js';
import { validateAgainst } from '../schema/validate.js';
import type { ArtifactRef, DagNode, DagRole, Verdict } from '../types.js';
import { artifactRef, type ArtifactInput } from './artifacts.js';
import { distinctLocations, isLocated, normaliseContext } from './project-name.js';
import { ROLES, VERDICTS, type DagLine } from './line.js';
import type { ProjectState } from './state.js';

export { ROLES, VERDICTS };

/** A new thought, as an agent gives it; lore sets project, createdAt and children. */
export interface AppendInput {
  /** Generated when missing. */
  id?: string;
  /** The directory the thought is about; the project name derives from it. */
  projectContext: string;
  thought: string;
  /** Default 'actor'. Summaries are written by summarize(). */
  role?: DagRole;
  parents?: string[];
  /** At least one for actor nodes. */
  tags?: string[];
  /** File paths, or artifact references. */
  artifacts?: Array<string | ArtifactInput>;
  branchLabel?: string;
  /** Critic nodes: the node reviewed. */
  target?: string;
  verdict?: Verdict;
  verdictReason?: string;
  verdictReferences?: string[];
}

export interface AppendPlan {
  lines: DagLine[];
  node: DagNode;
  artifacts: ArtifactRef[];
  /** The reviewed node with the critic added to its children (critic nodes only). */
  target?: DagNode;
  warnings: string[];
}

function usage(message: string, hint?: string): LoreError {
  return new LoreError('USAGE', message, hint === undefined ? {} : { hint });
}

/** Throws NOT_FOUND for an id that is not a node of the project. */
export function notFound(id: string, state: ProjectState, what = 'node'): LoreError {
  return new LoreError('NOT_FOUND', `no ${what} ${JSON.stringify(id)} in project ${state.name}`, {
    hint: `lore dag heads --project ${state.name} lists the latest nodes; --project picks another project`,
  });
}

/** A fresh random id (12 hex digits) unused in the project. */
export function newId(state: ProjectState): string {
  for (;;) {
    const id = randomBytes(6).toString('hex');
    if (!state.nodes.has(id) && !state.artifacts.has(id)) return id;
  }
}

function checkRole(input: AppendInput): DagRole {
  const role = input.role ?? 'actor';
  if (!ROLES.includes(role)) throw usage(`role must be one of ${ROLES.join(', ')} (found ${JSON.stringify(role)})`);
  if (role === 'summary') throw usage('summary nodes are written by summarize, not append', 'lore dag summarize --branch B --text "..."');
  if (input.verdict !== undefined && !VERDICTS.includes(input.verdict)) {
    throw usage(`verdict must be one of ${VERDICTS.join(', ')} (found ${JSON.stringify(input.verdict)})`);
  }
  if (role === 'actor' && (input.target !== undefined || input.verdict !== undefined)) {
    throw usage('only critic nodes have a target and a verdict', 'lore dag critic --target ID --verdict V reviews a node');
  }
  if (role === 'critic' && (input.target === undefined || input.verdict === undefined)) {
    throw usage('a critic node needs a target and a verdict', 'lore dag critic --target ID --verdict approved|needs_revision|reject');
  }
  return role;
}

/** The parents of the new node: existing nodes, no repeats; a critic's target comes first. */
function checkParents(input: AppendInput, state: ProjectState): string[] {
  const parents = [...new Set([...(input.target === undefined ? [] : [input.target]), ...(input.parents ?? [])])];
  for (const id of parents) if (!state.nodes.has(id)) throw notFound(id, state, id === input.target ? 'target node' : 'parent node');
  return parents;
}

function checkNode(node: DagNode): void {
  const issues = validateAgainst('dag-line', node);
  if (issues.length > 0) throw usage(`the node is not valid: ${issues.map((i) => i.message).join('; ')}`);
}

/** The warning for a projectContext that is a second directory with this project's name. */
export function collisionWarning(state: ProjectState, context: string): string | undefined {
  if (!isLocated(context)) return undefined;
  const locations = distinctLocations([...state.contexts(), context]);
  if (locations.length < 2 || !locations.includes(normaliseContext(context))) return undefined;
  return `project name collision: ${locations.map((l) => JSON.stringify(l)).join(' and ')} ${locations.length === 2 ? 'both' : 'all'} give the project name "${state.name}"; their thoughts share one project`;
}

/** Checks a new actor or critic node against the project's state and returns the lines to append. */
export function planAppend(input: AppendInput, state: ProjectState, now: number): AppendPlan {
  const role = checkRole(input);
  if (typeof input.thought !== 'string' || input.thought.trim() === '') throw usage('the thought is empty');
  const tags = input.tags ?? [];
  if (role === 'actor' && tags.length === 0) throw usage('an actor thought needs at least one tag', 'add --tag requirement|task|risk|design|...');
  const id = input.id ?? newId(state);
  if (state.nodes.has(id) || state.artifacts.has(id)) throw new LoreError('CONFLICT', `project ${state.name} already has a node or artifact ${JSON.stringify(id)}`, { hint: 'leave the id out and lore generates one' });
  const parents = checkParents(input, state);
  const createdAt = new Date(now).toISOString();
  const artifacts = (input.artifacts ?? []).map((a) => artifactRef(state.name, a));
  const node: DagNode = {
    id, project: state.name, projectContext: input.projectContext, thought: input.thought, role,
    ...(input.verdict === undefined ? {} : { verdict: input.verdict }),
    ...(input.verdictReason === undefined ? {} : { verdictReason: input.verdictReason }),
    ...(input.verdictReferences === undefined ? {} : { verdictReferences: input.verdictReferences }),
    ...(input.target === undefined ? {} : { target: input.target }),
    parents, children: [], tags,
    ...(artifacts.length === 0 ? {} : { artifacts }),
    ...(input.branchLabel === undefined ? {} : { branchLabel: input.branchLabel }),
    createdAt,
  };
  checkNode(node);
  const lines: DagLine[] = [node, ...artifacts.map((a) => ({ ...a, createdAt }))];
  let target: DagNode | undefined;
  if (role === 'critic') {
    const old = state.nodes.get(input.target!)!;
    // Stamped `now` here; the log's version rule moves it after the old version when that is later.
    target = { ...old, children: [...new Set([...old.children, id])], updatedAt: createdAt };
    lines.push(target);
  }
  const warning = collisionWarning(state, input.projectContext);
  return { lines, node, artifacts, ...(target === undefined ? {} : { target }), warnings: warning === undefined ? [] : [warning] };
}

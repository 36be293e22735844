// Read-only views of one project: branches, resume, the plan export. Each works from the
// indexes of ProjectState and walks at most one first-parent line.
import { LoreError } from '../errors.js';
import type { ArtifactRef, DagNode } from '../types.js';
import type { ProjectState } from './state.js';

/** How many nodes resume walks back by default. */
export const DEFAULT_WINDOW = 20;

/** A head of the DAG: the latest node of a line of thought. */
export interface BranchHead {
  branchId: string;
  /** The branchLabel of the nearest labelled node on the head's first-parent line. */
  label?: string;
  head: DagNode;
  /** First-parent steps from the head back to a root. */
  depth: number;
}

/** The heads with their labels and depths, oldest first. */
export function branches(state: ProjectState): BranchHead[] {
  return state.heads().map((head) => {
    const info = state.lineInfo(head);
    const label = info.labelled?.branchLabel;
    return { branchId: head.id, ...(label === undefined ? {} : { label }), head, depth: info.depth };
  });
}

/**
 * The node a branch reference names: a node id, or a branchLabel. A label resolves to the newest
 * head whose line carries it, or to the labelled node itself when nothing follows it.
 */
export function resolveBranch(state: ProjectState, idOrLabel: string): DagNode {
  const byId = state.nodes.get(idOrLabel);
  if (byId !== undefined) return byId;
  const labelled = state.labelled(idOrLabel);
  if (labelled.length > 0) {
    const labelNode = labelled[labelled.length - 1]!;
    const heads = state.heads().filter((h) => state.lineInfo(h).labelled === labelNode);
    return heads[heads.length - 1] ?? labelNode;
  }
  const labels = [...new Set(branches(state).flatMap((b) => (b.label === undefined ? [] : [b.label])))];
  throw new LoreError('BRANCH_NOT_FOUND', `no branch ${JSON.stringify(idOrLabel)} in project ${state.name}: it is neither a node id nor a branch label`, {
    hint: labels.length === 0 ? `lore dag branches --project ${state.name} lists the branches` : `branch labels: ${labels.join(', ')}`,
  });
}

export interface ResumeResult {
  /** The node the walk started from. */
  branch: string;
  window: number;
  /** Covering summaries (oldest first), then the walked nodes from oldest to newest. */
  nodes: DagNode[];
  /** The first node beyond the window, whose covering summaries were prepended; null when the walk reached a root. */
  stoppedAt: string | null;
  /** The thoughts of `nodes`, one per line. */
  text: string;
}

/** Walks first parents back from a branch up to `window` nodes and prepends the summaries covering where it stopped. */
export function resume(state: ProjectState, idOrLabel: string, window = DEFAULT_WINDOW): ResumeResult {
  if (!Number.isInteger(window) || window < 1) throw new LoreError('USAGE', `the resume window must be a whole number of at least 1 (found ${window})`);
  const start = resolveBranch(state, idOrLabel);
  const path: DagNode[] = [];
  const seen = new Set<string>();
  let current: DagNode | undefined = start;
  while (current !== undefined && path.length < window && !seen.has(current.id)) {
    seen.add(current.id);
    path.unshift(current);
    current = state.firstParent(current);
  }
  const stopped = current !== undefined && !seen.has(current.id) ? current : undefined;
  const nodes = [...(stopped === undefined ? [] : state.summariesCovering(stopped.id)), ...path];
  return { branch: start.id, window, nodes, stoppedAt: stopped?.id ?? null, text: nodes.map((n) => n.thought).join('\n') };
}

/** One node in the plan view. */
export interface PlanItem {
  id: string;
  thought: string;
  tags: string[];
  branchLabel?: string;
  verdict?: string;
  parents: string[];
  /** The nodes whose parents include it. */
  children: string[];
  artifacts: Array<Pick<ArtifactRef, 'name' | 'path' | 'uri'>>;
}

/** The plan view of the project's nodes, oldest first, optionally only those with a tag. */
export function exportPlan(state: ProjectState, options: { tag?: string } = {}): PlanItem[] {
  const nodes = state.sortByTime([...state.nodes.values()].filter((n) => options.tag === undefined || n.tags.includes(options.tag)));
  return nodes.map((n) => ({
    id: n.id,
    thought: n.thought,
    tags: n.tags,
    ...(n.branchLabel === undefined ? {} : { branchLabel: n.branchLabel }),
    ...(n.verdict === undefined ? {} : { verdict: n.verdict }),
    parents: n.parents,
    children: state.children(n.id).map((c) => c.id),
    artifacts: (n.artifacts ?? []).map((a) => ({ name: a.name, path: a.path, ...(a.uri === undefined ? {} : { uri: a.uri }) })),
  }));
}

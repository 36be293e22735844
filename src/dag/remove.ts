// Deletion: tombstone lines, never a rewrite of the log. A node other nodes depend on (its
// children) is kept unless the caller cascades, which deletes every descendant too.
import { LoreError } from '../errors.js';
import type { DagNode, DagTombstone } from '../types.js';
import { notFound } from './append.js';
import type { DagLine } from './replay.js';
import type { ProjectState } from './state.js';

export interface RemovalPlan {
  lines: DagLine[];
  /** The deleted nodes: the node and, with cascade, its descendants. */
  deleted: string[];
  /** Kept nodes whose recorded children named a deleted node (a new version drops them). */
  updated: string[];
  /** Summaries whose segment includes a deleted node; they are kept. */
  affectedSummaries: string[];
}

function descendants(state: ProjectState, root: DagNode): DagNode[] {
  const found = new Map<string, DagNode>([[root.id, root]]);
  const queue = [root];
  while (queue.length > 0) {
    for (const child of state.children(queue.shift()!.id)) {
      if (!found.has(child.id)) {
        found.set(child.id, child);
        queue.push(child);
      }
    }
  }
  return [...found.values()];
}

/** The lines that delete `id` (and, with cascade, its descendants), at `now` (Dag.write stamps them after older versions); refuses when others depend on it. */
export function planRemoval(state: ProjectState, id: string, options: { cascade?: boolean }, now: number): RemovalPlan {
  const node = state.nodes.get(id);
  if (node === undefined) throw notFound(id, state);
  const dependents = state.children(id);
  if (dependents.length > 0 && options.cascade !== true) {
    throw new LoreError('CONFLICT', `node ${id} of project ${state.name} has ${dependents.length} dependent node(s): ${dependents.map((d) => d.id).join(', ')}`, {
      hint: `--cascade deletes ${id} and everything that follows from it`,
    });
  }
  const doomed = descendants(state, node);
  const gone = new Set(doomed.map((n) => n.id));
  const at = new Date(now).toISOString();
  const tombstones: DagTombstone[] = doomed.map((n) => ({ id: n.id, project: state.name, deleted: true, createdAt: at }));
  const updates: DagNode[] = [];
  for (const kept of new Set(doomed.flatMap((n) => n.parents))) {
    const parent = state.nodes.get(kept);
    if (parent === undefined || gone.has(kept) || !parent.children.some((c) => gone.has(c))) continue;
    updates.push({ ...parent, children: parent.children.filter((c) => !gone.has(c)), updatedAt: at });
  }
  const affected = new Set(doomed.flatMap((n) => state.summariesCovering(n.id).map((s) => s.id)));
  return { lines: [...tombstones, ...updates], deleted: [...gone], updated: updates.map((u) => u.id), affectedSummaries: [...affected].filter((s) => !gone.has(s)) };
}

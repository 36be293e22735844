// One line of log/knowledge_graph.ndjson, and the words a node may use: what the writers
// (append.ts) and the reader (replay.ts) agree on.
import type { ArtifactRef, DagNode, DagRole, DagTombstone, Verdict } from '../types.js';
import { timeOf } from './state.js';

/** The roles a node may have. */
export const ROLES: readonly DagRole[] = ['actor', 'critic', 'summary'];
/** The verdicts a critic may give. */
export const VERDICTS: readonly Verdict[] = ['approved', 'needs_revision', 'reject'];

/** One line of log/knowledge_graph.ndjson: a node (it has a role), an artifact, or a tombstone. */
export type DagLine = DagNode | (ArtifactRef & { createdAt: string }) | DagTombstone;

/** Whether a line is a tombstone. */
export function isTombstone(line: DagLine): line is DagTombstone {
  return (line as DagTombstone).deleted === true;
}

/** Whether a line is a node (nodes have a role; artifacts do not). */
export function isNode(line: DagLine): line is DagNode {
  return typeof (line as DagNode).role === 'string';
}

/** The time that orders the versions of one node or artifact. */
export function lineTime(line: DagLine): number {
  return timeOf((line as DagNode).updatedAt ?? line.createdAt);
}

// Summaries of a branch: a summary node covers the nodes of a line of thought that no summary
// covers yet, so that resume can stand in for what lies beyond its window.
import { LoreError } from '../errors.js';
import type { DagNode } from '../types.js';
import { newId } from './append.js';
import { resolveBranch } from './queries.js';
import type { ProjectState } from './state.js';

/** The fewest nodes a summary may cover. */
export const MIN_SUMMARY_NODES = 2;

export interface SummarizeInput {
  /** A node id or branch label: the segment ends at this node. */
  branch: string;
  text: string;
  /** Generated when missing. */
  id?: string;
  /** Default MIN_SUMMARY_NODES. */
  minNodes?: number;
}

/** The first-parent line ending at `tip`, oldest first (a cycle stops the walk). */
export function lineTo(state: ProjectState, tip: DagNode): DagNode[] {
  const line: DagNode[] = [];
  const seen = new Set<string>();
  for (let n: DagNode | undefined = tip; n !== undefined && !seen.has(n.id); n = state.firstParent(n)) {
    seen.add(n.id);
    line.unshift(n);
  }
  return line;
}

/** The segment a new summary of `branch` covers: the nodes of its line after the last summarised one. */
export function summarySegment(state: ProjectState, input: SummarizeInput): { tip: DagNode; segment: DagNode[] } {
  const tip = resolveBranch(state, input.branch);
  if (tip.role === 'summary') throw new LoreError('BRANCH_NOT_FOUND', `${JSON.stringify(input.branch)} is a summary node, not a branch of project ${state.name}`);
  const line = lineTo(state, tip);
  let last = -1;
  line.forEach((node, i) => {
    if (state.isSummarised(node.id)) last = i;
  });
  const segment = line.slice(last + 1);
  if (segment.length === 0) {
    throw new LoreError('ALREADY_SUMMARIZED', `the branch ${JSON.stringify(input.branch)} of project ${state.name} is already summarised up to ${tip.id}`, {
      hint: `summaries covering ${tip.id}: ${state.summariesCovering(tip.id).map((s) => s.id).join(', ')}`,
    });
  }
  const min = input.minNodes ?? MIN_SUMMARY_NODES;
  if (segment.length < min) {
    throw new LoreError('INSUFFICIENT_NODES', `the branch ${JSON.stringify(input.branch)} of project ${state.name} has ${segment.length} unsummarised node(s); a summary needs at least ${min}`);
  }
  return { tip, segment };
}

/** The summary node of a new summary of `input.branch`; throws the spec's codes when none can be made. */
export function planSummary(state: ProjectState, input: SummarizeInput, now: number): DagNode {
  if (typeof input.text !== 'string' || input.text.trim() === '') throw new LoreError('USAGE', 'the summary text is empty', { hint: 'pass --text "what happened in this segment"' });
  const { tip, segment } = summarySegment(state, input);
  const id = input.id ?? newId(state);
  if (state.nodes.has(id)) throw new LoreError('CONFLICT', `project ${state.name} already has a node ${JSON.stringify(id)}`);
  return {
    id,
    project: state.name,
    projectContext: tip.projectContext,
    thought: input.text,
    role: 'summary',
    parents: [],
    children: [],
    tags: ['summary'],
    createdAt: new Date(now).toISOString(),
    summarizedSegment: segment.map((n) => n.id),
  };
}

// One project's thought DAG in memory, with the indexes every query uses: children by parent,
// heads, branch labels, summaries by covered node, and the projectContexts seen. They are built
// as lines are applied (at load and after each append), so no query walks the whole project.
// Summary nodes stand beside the DAG: they are reached through summarizedSegment, never through
// parents, and are never heads.
import type { ArtifactRef, DagNode } from '../types.js';
import { normaliseContext } from './project-name.js';

/** Where a node sits on its first-parent line. */
export interface LineInfo {
  /** First-parent steps to a root (a root has depth 0). */
  depth: number;
  /** The nearest node on the first-parent line (itself included) that carries a branchLabel. */
  labelled: DagNode | undefined;
}

function bucket<K, V>(map: Map<K, Set<V>>, key: K): Set<V> {
  let set = map.get(key);
  if (set === undefined) map.set(key, (set = new Set()));
  return set;
}

function unbucket<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  set?.delete(value);
  if (set?.size === 0) map.delete(key);
}

/** Milliseconds of an ISO time; -Infinity when it is missing or unreadable (sorts first). */
export function timeOf(iso: string | undefined): number {
  const time = iso === undefined ? NaN : Date.parse(iso);
  return Number.isNaN(time) ? -Infinity : time;
}

/** The nodes and indexes of one project. */
export class ProjectState {
  readonly nodes = new Map<string, DagNode>();
  readonly artifacts = new Map<string, ArtifactRef>();
  private readonly childIndex = new Map<string, Set<string>>();
  private readonly headIds = new Set<string>();
  private readonly labelIndex = new Map<string, Set<string>>();
  private readonly coverIndex = new Map<string, Set<string>>();
  private readonly contextCounts = new Map<string, number>();
  /** Order of first appearance: breaks ties between equal createdAt times. */
  private readonly seq = new Map<string, number>();
  private lineMemo = new Map<string, LineInfo>();

  constructor(readonly name: string) {}

  /** Adds a node, or replaces the older version of the same id. */
  putNode(node: DagNode, seq: number): void {
    const old = this.nodes.get(node.id);
    if (old !== undefined) this.unlink(old);
    this.nodes.set(node.id, node);
    if (!this.seq.has(node.id)) this.seq.set(node.id, seq);
    this.link(node);
  }

  /** Adds or replaces an artifact line. */
  putArtifact(artifact: ArtifactRef): void {
    this.artifacts.set(artifact.id, artifact);
  }

  /** Applies a tombstone: the node or artifact with this id is gone. */
  remove(id: string): void {
    const node = this.nodes.get(id);
    if (node !== undefined) {
      this.unlink(node);
      this.nodes.delete(id);
      this.headIds.delete(id);
      this.seq.delete(id);
    }
    this.artifacts.delete(id);
  }

  private link(node: DagNode): void {
    this.lineMemo.clear();
    const context = normaliseContext(node.projectContext);
    this.contextCounts.set(context, (this.contextCounts.get(context) ?? 0) + 1);
    if (node.branchLabel !== undefined) bucket(this.labelIndex, node.branchLabel).add(node.id);
    if (node.role === 'summary') {
      for (const id of node.summarizedSegment ?? []) bucket(this.coverIndex, id).add(node.id);
      return;
    }
    for (const parent of node.parents) {
      bucket(this.childIndex, parent).add(node.id);
      this.headIds.delete(parent);
    }
    if (!this.childIndex.has(node.id)) this.headIds.add(node.id);
  }

  private unlink(node: DagNode): void {
    this.lineMemo.clear();
    const context = normaliseContext(node.projectContext);
    const count = (this.contextCounts.get(context) ?? 1) - 1;
    if (count === 0) this.contextCounts.delete(context);
    else this.contextCounts.set(context, count);
    if (node.branchLabel !== undefined) unbucket(this.labelIndex, node.branchLabel, node.id);
    if (node.role === 'summary') {
      for (const id of node.summarizedSegment ?? []) unbucket(this.coverIndex, id, node.id);
      return;
    }
    for (const parent of node.parents) {
      unbucket(this.childIndex, parent, node.id);
      const kept = this.nodes.get(parent);
      if (!this.childIndex.has(parent) && kept !== undefined && kept.role !== 'summary') this.headIds.add(parent);
    }
  }

  /** Sorts nodes by createdAt, then by order of first appearance in the log. */
  sortByTime(nodes: DagNode[]): DagNode[] {
    return nodes.sort((a, b) => timeOf(a.createdAt) - timeOf(b.createdAt) || (this.seq.get(a.id) ?? 0) - (this.seq.get(b.id) ?? 0));
  }

  private pick(ids: Iterable<string> | undefined): DagNode[] {
    const out: DagNode[] = [];
    for (const id of ids ?? []) {
      const node = this.nodes.get(id);
      if (node !== undefined) out.push(node);
    }
    return this.sortByTime(out);
  }

  /** The nodes whose parents include `id`, oldest first. */
  children(id: string): DagNode[] {
    return this.pick(this.childIndex.get(id));
  }

  /** The nodes no node names as a parent (summaries excepted), oldest first. */
  heads(): DagNode[] {
    return this.pick(this.headIds);
  }

  /** The nodes carrying this branchLabel, oldest first. */
  labelled(label: string): DagNode[] {
    return this.pick(this.labelIndex.get(label));
  }

  /** The summary nodes whose summarizedSegment includes `id`, oldest first. */
  summariesCovering(id: string): DagNode[] {
    return this.pick(this.coverIndex.get(id));
  }

  /** Whether some summary covers `id`. */
  isSummarised(id: string): boolean {
    return this.coverIndex.has(id);
  }

  /** The first parent of a node, when it is present. */
  firstParent(node: DagNode): DagNode | undefined {
    return node.parents[0] === undefined ? undefined : this.nodes.get(node.parents[0]);
  }

  /** The distinct projectContexts of the project's nodes, normalised and sorted. */
  contexts(): string[] {
    return [...this.contextCounts.keys()].sort();
  }

  /** Depth and branch label of a node, memoised until the next change (a cycle stops the walk). */
  lineInfo(node: DagNode): LineInfo {
    const walked: DagNode[] = [];
    const seen = new Set<string>();
    let current: DagNode | undefined = node;
    let base: LineInfo = { depth: -1, labelled: undefined };
    while (current !== undefined && !seen.has(current.id)) {
      const memo = this.lineMemo.get(current.id);
      if (memo !== undefined) {
        base = memo;
        break;
      }
      seen.add(current.id);
      walked.push(current);
      current = this.firstParent(current);
    }
    for (let i = walked.length - 1; i >= 0; i--) {
      const at = walked[i]!;
      base = { depth: base.depth + 1, labelled: at.branchLabel !== undefined ? at : base.labelled };
      this.lineMemo.set(at.id, base);
    }
    return this.lineMemo.get(node.id)!;
  }
}

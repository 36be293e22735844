// Queries over the graph's indexes: relationships by any of (from, to, type), the neighbourhood
// of entities to a depth in either direction, and shortest paths. Breadth-first walks touch only
// the entities they reach, never the whole graph.
import type { Entity, GraphMemory, Relationship } from '../types.js';
import type { GraphView } from './_view.js';

export interface RelationFilter {
  from?: string;
  to?: string;
  type?: string;
}

export type Direction = 'both' | 'out' | 'in';

export interface NeighbourhoodOptions {
  /** Steps from the named entities (default 1; 0 gives the entities alone). */
  depth?: number;
  /** Follow outgoing relationships, incoming ones, or both (the default). */
  direction?: Direction;
}

/** A part of the graph: the entities reached, nearest first, and every relationship among them. */
export interface Neighbourhood extends GraphMemory {
  /** Steps from the nearest named entity, by entity name. */
  distances: Map<string, number>;
  /** Names asked for that are not in the graph. */
  missing: string[];
}

export interface PathOptions {
  /** Follow relationships only from → to (default: either way). */
  directed?: boolean;
}

/** A chain of relationships: relationships[i] links entities[i] and entities[i + 1], in either direction. */
export interface GraphPath {
  entities: string[];
  relationships: Relationship[];
}

/** Relationships matching every given field. */
export function findRelations(graph: GraphView, filter: RelationFilter): Relationship[] {
  const { from, to, type } = filter;
  let candidates: Iterable<Readonly<Relationship>>;
  if (from !== undefined) candidates = graph.outgoing(from);
  else if (to !== undefined) candidates = graph.incoming(to);
  else if (type !== undefined) candidates = [...graph.relationshipKeysOfType(type)].map((key) => graph.relationshipByKey(key)!);
  else candidates = graph.relationships();
  const out: Relationship[] = [];
  for (const rel of candidates) {
    if ((from === undefined || rel.from === from) && (to === undefined || rel.to === to) && (type === undefined || rel.type === type)) out.push(rel);
  }
  return out;
}

/** The relationships to follow from an entity, with the entity each one leads to. */
function steps(graph: GraphView, name: string, direction: Direction): Array<[Relationship, string]> {
  const out: Array<[Relationship, string]> = [];
  if (direction !== 'in') for (const rel of graph.outgoing(name)) out.push([rel, rel.to]);
  if (direction !== 'out') for (const rel of graph.incoming(name)) out.push([rel, rel.from]);
  return out;
}

/** Entities within `depth` steps of `names`, nearest first, with the relationships among them. */
export function neighbourhood(graph: GraphView, names: readonly string[], options: NeighbourhoodOptions = {}): Neighbourhood {
  const depth = options.depth ?? 1;
  const direction = options.direction ?? 'both';
  const distances = new Map<string, number>();
  const missing: string[] = [];
  let frontier: string[] = [];
  for (const name of names) {
    if (graph.findEntityByName(name) === undefined) missing.push(name);
    else if (!distances.has(name)) {
      distances.set(name, 0);
      frontier.push(name);
    }
  }
  for (let step = 1; step <= depth && frontier.length > 0; step++) {
    const next: string[] = [];
    for (const name of frontier) {
      for (const [, other] of steps(graph, name, direction)) {
        if (distances.has(other)) continue;
        distances.set(other, step);
        next.push(other);
      }
    }
    frontier = next;
  }
  const entities: Entity[] = [...distances.keys()].map((name) => graph.findEntityByName(name)!);
  const relationships: Relationship[] = [];
  for (const name of distances.keys()) {
    for (const rel of graph.outgoing(name)) if (distances.has(rel.to)) relationships.push(rel);
  }
  return { entities, relationships, distances, missing };
}

/** A shortest path from one entity to another; undefined when either is missing or nothing connects them. */
export function shortestPath(graph: GraphView, from: string, to: string, options: PathOptions = {}): GraphPath | undefined {
  if (graph.findEntityByName(from) === undefined || graph.findEntityByName(to) === undefined) return undefined;
  const via = new Map<string, { previous: string; rel: Relationship } | null>([[from, null]]);
  let frontier = [from];
  while (frontier.length > 0 && !via.has(to)) {
    const next: string[] = [];
    for (const name of frontier) {
      for (const [rel, other] of steps(graph, name, options.directed === true ? 'out' : 'both')) {
        if (via.has(other)) continue;
        via.set(other, { previous: name, rel });
        next.push(other);
      }
    }
    frontier = next;
  }
  if (!via.has(to)) return undefined;
  const entities = [to];
  const relationships: Relationship[] = [];
  for (let at = via.get(to); at != null; at = via.get(at.previous)) {
    entities.unshift(at.previous);
    relationships.unshift(at.rel);
  }
  return { entities, relationships };
}

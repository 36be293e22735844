// What the queries and the update read and change of a graph: ContextGraph (model.ts) has these
// methods, and query.ts and apply.ts ask for no more, so neither needs model.ts (which uses them).
import type { Entity, EntityUpdate, Relationship, RelationshipUpdate } from '../types.js';

/** A graph as the queries read it. */
export interface GraphView {
  findEntityByName(name: string): Readonly<Entity> | undefined;
  outgoing(name: string): Relationship[];
  incoming(name: string): Relationship[];
  relationshipKeysOfType(type: string): ReadonlySet<string>;
  relationshipByKey(key: string): Relationship | undefined;
  relationships(): IterableIterator<Readonly<Relationship>>;
}

/** A graph as an update changes it. */
export interface GraphEditor extends GraphView {
  mergeCheckedEntity(update: EntityUpdate): 'added' | 'updated';
  mergeCheckedRelationship(update: RelationshipUpdate): 'added' | 'updated' | undefined;
  removeEntity(name: string): { entity: Entity; relationships: Relationship[] } | undefined;
  removeRelationship(from: string, to: string, type: string): boolean;
  /** Receives each warning (a relationship ignored because an end is missing). */
  onWarning: ((message: string) => void) | undefined;
}

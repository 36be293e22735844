// The context graph in memory: entities by name, relationships by (from, to, type), and the
// indexes the queries use (outgoing, incoming, by type, by tag), kept in step by every change.
// No operation can leave a relationship pointing at a missing entity.
import { isDeepStrictEqual } from 'node:util';
import { ValidationError } from '../errors.js';
import type { Entity, EntityUpdate, GraphMemory, GraphUpdate, Relationship, RelationshipUpdate } from '../types.js';
import { applyGraphUpdate, type ApplyOptions, type ApplyResult } from './apply.js';
import { checkUpdate, singleEntryProblems } from './check-update.js';
import { describeRelationship, mergeEntity, mergeRelationship, relationshipKey } from './merge.js';
import { findRelations, neighbourhood, shortestPath, type GraphPath, type Neighbourhood, type NeighbourhoodOptions, type PathOptions, type RelationFilter } from './query.js';

export interface GraphOptions {
  /** Receives each warning (a relationship ignored because an end is missing). */
  onWarning?: (message: string) => void;
}

export type EntityChange = 'added' | 'updated';

function addTo<K, V>(index: Map<K, Set<V>>, key: K, value: V): void {
  let set = index.get(key);
  if (set === undefined) index.set(key, (set = new Set()));
  set.add(value);
}

function removeFrom<K, V>(index: Map<K, Set<V>>, key: K, value: V): void {
  const set = index.get(key);
  if (set === undefined) return;
  set.delete(value);
  if (set.size === 0) index.delete(key);
}

/**
 * A context graph with the merge rules of the system-context spec.
 *
 * @example
 * const graph = new ContextGraph({ onWarning: console.warn });
 * graph.addOrUpdateEntity({ name: 'api', type: 'service' });            // 'added'
 * graph.addOrUpdateEntity({ name: 'db', type: 'data_store' });
 * graph.addOrUpdateRelationship({ from: 'api', to: 'db', type: 'reads_from' }); // true
 * graph.addOrUpdateRelationship({ from: 'api', to: 'queue', type: 'sends_to' }); // false, warns
 */
export class ContextGraph {
  private readonly entityMap = new Map<string, Entity>();
  private readonly relationshipMap = new Map<string, Relationship>();
  /** name → keys of its outgoing relationships, in insertion order. */
  private readonly outIndex = new Map<string, Set<string>>();
  private readonly inIndex = new Map<string, Set<string>>();
  private readonly typeIndex = new Map<string, Set<string>>();
  private readonly tagIndex = new Map<string, Set<string>>();
  private readonly relTypeIndex = new Map<string, Set<string>>();
  /** Entities whose stored form (the entity and the relationships it owns) changed since the last save. */
  private readonly changed = new Set<string>();
  onWarning: ((message: string) => void) | undefined;

  constructor(options: GraphOptions = {}) {
    this.onWarning = options.onWarning;
  }

  /** Adds an entity, or merges an update into the entity of that name; throws ValidationError on invalid input. */
  addOrUpdateEntity(update: EntityUpdate): EntityChange {
    const problems = checkUpdate({ entities: [update] }, (name) => this.entityMap.has(name));
    if (problems.length > 0) throw new ValidationError(`invalid entity: ${singleEntryProblems(problems, 'entities').map((p) => p.message).join('; ')}`, singleEntryProblems(problems, 'entities'));
    return this.mergeCheckedEntity(update);
  }

  /** Adds a relationship or merges its properties; false (with a warning) when an end does not exist. */
  addOrUpdateRelationship(update: RelationshipUpdate): boolean {
    const problems = checkUpdate({ relationships: [update] }, () => true);
    if (problems.length > 0) throw new ValidationError(`invalid relationship: ${singleEntryProblems(problems, 'relationships').map((p) => p.message).join('; ')}`, singleEntryProblems(problems, 'relationships'));
    return this.mergeCheckedRelationship(update) !== undefined;
  }

  /** Removes an entity and every relationship from or to it; undefined when there is no such entity. */
  removeEntity(name: string): { entity: Entity; relationships: Relationship[] } | undefined {
    const entity = this.entityMap.get(name);
    if (entity === undefined) return undefined;
    const keys = new Set([...(this.outIndex.get(name) ?? []), ...(this.inIndex.get(name) ?? [])]);
    const relationships = [...keys].map((key) => this.dropRelationship(key)!);
    this.entityMap.delete(name);
    removeFrom(this.typeIndex, entity.type, name);
    for (const tag of entity.tags) removeFrom(this.tagIndex, tag, name);
    this.changed.add(name);
    return { entity, relationships };
  }

  /** Removes one relationship; false when there was none. */
  removeRelationship(from: string, to: string, type: string): boolean {
    return this.dropRelationship(relationshipKey(from, to, type)) !== undefined;
  }

  /** Applies a structured update (entities, then relationships, then removals); see apply.ts. */
  applyUpdate(payload: GraphUpdate | unknown, options: ApplyOptions = {}): ApplyResult {
    return applyGraphUpdate(this, payload, options);
  }

  /** Merges an entity update that was already checked (a new entity has a type). */
  mergeCheckedEntity(update: EntityUpdate): EntityChange {
    const existing = this.entityMap.get(update.name);
    const next = mergeEntity(existing, update);
    if (existing !== undefined && isDeepStrictEqual(existing, next)) return 'updated';
    if (existing !== undefined) {
      removeFrom(this.typeIndex, existing.type, existing.name);
      for (const tag of existing.tags) removeFrom(this.tagIndex, tag, existing.name);
    }
    this.entityMap.set(next.name, next);
    addTo(this.typeIndex, next.type, next.name);
    for (const tag of next.tags) addTo(this.tagIndex, tag, next.name);
    this.changed.add(next.name);
    return existing === undefined ? 'added' : 'updated';
  }

  /** Merges a checked relationship; undefined (and a warning) when an end is missing. */
  mergeCheckedRelationship(update: RelationshipUpdate): EntityChange | undefined {
    const missing = [['from', update.from], ['to', update.to]].filter(([, name]) => !this.entityMap.has(name!));
    if (missing.length > 0) {
      const ends = missing.map(([end, name]) => `${end} entity ${JSON.stringify(name)}`).join(' and the ');
      this.onWarning?.(`relationship ${describeRelationship(update)} ignored: the ${ends} ${missing.length === 1 ? 'does' : 'do'} not exist`);
      return undefined;
    }
    const key = relationshipKey(update.from, update.to, update.type);
    const existing = this.relationshipMap.get(key);
    const next = mergeRelationship(existing, update);
    if (existing !== undefined && isDeepStrictEqual(existing, next)) return 'updated';
    this.relationshipMap.set(key, next);
    if (existing === undefined) {
      addTo(this.outIndex, next.from, key);
      addTo(this.inIndex, next.to, key);
      addTo(this.relTypeIndex, next.type, key);
    }
    this.changed.add(next.from);
    return existing === undefined ? 'added' : 'updated';
  }

  private dropRelationship(key: string): Relationship | undefined {
    const rel = this.relationshipMap.get(key);
    if (rel === undefined) return undefined;
    this.relationshipMap.delete(key);
    removeFrom(this.outIndex, rel.from, key);
    removeFrom(this.inIndex, rel.to, key);
    removeFrom(this.relTypeIndex, rel.type, key);
    this.changed.add(rel.from);
    return rel;
  }

  // ---------------------------------------------------------------- queries

  /** The entity of that name (do not mutate it: changes go through the methods above). */
  findEntityByName(name: string): Readonly<Entity> | undefined {
    return this.entityMap.get(name);
  }

  /** The relationships matching every given field, through the smallest index. */
  findRelations(filter: RelationFilter = {}): Relationship[] {
    return findRelations(this, filter);
  }

  /** Entities of a type, in insertion order. */
  entitiesByType(type: string): Entity[] {
    return [...(this.typeIndex.get(type) ?? [])].map((name) => this.entityMap.get(name)!);
  }

  /** Entities carrying a tag, in insertion order. */
  entitiesByTag(tag: string): Entity[] {
    return [...(this.tagIndex.get(tag) ?? [])].map((name) => this.entityMap.get(name)!);
  }

  /** Entities within `depth` steps of the named ones (both directions by default), with the relationships among them. */
  neighbours(names: string | readonly string[], options: NeighbourhoodOptions = {}): Neighbourhood {
    return neighbourhood(this, typeof names === 'string' ? [names] : names, options);
  }

  /** A shortest chain of relationships between two entities (either direction unless `directed`). */
  shortestPath(from: string, to: string, options: PathOptions = {}): GraphPath | undefined {
    return shortestPath(this, from, to, options);
  }

  /** Relationships from an entity (the ones its file owns), in insertion order. */
  outgoing(name: string): Relationship[] {
    return [...(this.outIndex.get(name) ?? [])].map((key) => this.relationshipMap.get(key)!);
  }

  /** Relationships to an entity. */
  incoming(name: string): Relationship[] {
    return [...(this.inIndex.get(name) ?? [])].map((key) => this.relationshipMap.get(key)!);
  }

  /** Keys of the relationships of a type (for findRelations). */
  relationshipKeysOfType(type: string): ReadonlySet<string> {
    return this.relTypeIndex.get(type) ?? new Set();
  }

  /** A relationship by key (see relationshipKey). */
  relationshipByKey(key: string): Relationship | undefined {
    return this.relationshipMap.get(key);
  }

  /** Every entity, in insertion order. */
  entities(): IterableIterator<Readonly<Entity>> {
    return this.entityMap.values();
  }

  /** Every relationship, in insertion order. */
  relationships(): IterableIterator<Readonly<Relationship>> {
    return this.relationshipMap.values();
  }

  get entityCount(): number {
    return this.entityMap.size;
  }

  get relationshipCount(): number {
    return this.relationshipMap.size;
  }

  /** The whole graph as plain data: `{ entities, relationships }`. */
  toJSON(): GraphMemory {
    return { entities: [...this.entityMap.values()], relationships: [...this.relationshipMap.values()] };
  }

  // ---------------------------------------------------------------- persistence bookkeeping

  /** Names of the entities whose stored form changed (or which were removed) since the last save. */
  pendingChanges(): string[] {
    return [...this.changed];
  }

  /** Marks everything saved (back-ends call this after a successful save). */
  clearChanges(): void {
    this.changed.clear();
  }
}

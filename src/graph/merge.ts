// The merge rules of the context graph, as pure functions: what an entity or a relationship
// becomes when an update meets what is already there (DESIGN.md §2 "Context graph").
import type { Entity, EntityUpdate, JsonValue, Relationship, RelationshipUpdate } from '../types.js';

/** Properties merged key by key, new values winning; `remove` keys dropped. Never mutates its inputs. */
export function mergeProperties(old: Readonly<Record<string, JsonValue>>, added: Readonly<Record<string, JsonValue>> | undefined, remove: readonly string[] = []): Record<string, JsonValue> {
  // Spread, not Object.assign: a key "__proto__" from JSON stays an own property, never a prototype.
  const out: Record<string, JsonValue> = { ...old, ...added };
  for (const key of remove) delete out[key];
  return out;
}

/** Tags unioned in first-seen order, `remove` dropped. */
export function mergeTags(old: readonly string[], added: readonly string[] = [], remove: readonly string[] = []): string[] {
  const dropped = new Set(remove);
  return [...new Set([...old, ...added])].filter((tag) => !dropped.has(tag));
}

/**
 * The entity an update produces. A new entity needs a type (the caller checks). On an existing
 * entity a given type or description overwrites (an empty description too), an omitted one
 * keeps the old value; tags are unioned and properties merged, removed only when asked.
 *
 * @example
 * mergeEntity({ name: 'api', type: 'service', description: 'old', tags: ['a'], properties: { x: 1 } },
 *   { name: 'api', tags: ['b'], properties: { y: 2 } });
 * // → { name: 'api', type: 'service', description: 'old', tags: ['a', 'b'], properties: { x: 1, y: 2 } }
 */
export function mergeEntity(existing: Readonly<Entity> | undefined, update: EntityUpdate): Entity {
  return {
    name: update.name,
    type: update.type ?? existing?.type ?? '',
    description: update.description ?? existing?.description ?? '',
    tags: mergeTags(existing?.tags ?? [], update.tags, update.removeTags),
    properties: mergeProperties(existing?.properties ?? {}, update.properties, update.removeProperties),
  };
}

/** The relationship an update produces: an existing triplet gets its properties merged. */
export function mergeRelationship(existing: Readonly<Relationship> | undefined, update: RelationshipUpdate): Relationship {
  return { from: update.from, to: update.to, type: update.type, properties: mergeProperties(existing?.properties ?? {}, update.properties) };
}

/** The one key of a (from, to, type) triplet; length-prefixed, so no name can forge a separator. */
export function relationshipKey(from: string, to: string, type: string): string {
  return `${from.length}:${from}${to.length}:${to}${type}`;
}

/** `"api" -reads_from-> "db"`, the way messages name a relationship. */
export function describeRelationship(rel: { from: string; to: string; type: string }): string {
  return `${JSON.stringify(rel.from)} -${rel.type}-> ${JSON.stringify(rel.to)}`;
}

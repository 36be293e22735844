// Fitting a part of the graph into a token budget: entities are kept nearest first (in the order
// of the view), each bringing its relationships to the entities kept before it, until the next one
// would not fit. The prompt text (serialize-text.ts) and the JSON answers of the operations both
// cut this way, so what an agent is given is always a prefix of what it asked for.
import { UsageError } from '../errors.js';
import type { Entity, GraphMemory, Relationship } from '../types.js';
import { toMemoryFile } from './memory-file.js';

/** The cost of one entity and of one relationship (in whatever unit `fits` counts). */
export interface Costs {
  entity(entity: Readonly<Entity>): number;
  relationship(rel: Readonly<Relationship>): number;
}

/**
 * The longest prefix of the view's entities that fits, with the relationships among them:
 * `fits(e, r, cost)` says whether e entities and r relationships costing `cost` in all fit.
 */
export function fitNearestFirst(view: GraphMemory, costs: Costs, fits: (entities: number, relationships: number, cost: number) => boolean): GraphMemory {
  const order = new Map(view.entities.map((e, i) => [e.name, i]));
  // A relationship comes with the later of its two ends, so it is shown only once both are.
  const owned = new Map<string, Relationship[]>();
  for (const rel of view.relationships) {
    const owner = order.get(rel.from)! >= order.get(rel.to)! ? rel.from : rel.to;
    owned.set(owner, [...(owned.get(owner) ?? []), rel]);
  }
  const entities: Entity[] = [];
  const relationships: Relationship[] = [];
  let used = 0;
  for (const entity of view.entities) {
    const rels = owned.get(entity.name) ?? [];
    const cost = costs.entity(entity) + rels.reduce((sum, rel) => sum + costs.relationship(rel), 0);
    if (!fits(entities.length + 1, relationships.length + rels.length, used + cost)) break;
    used += cost;
    entities.push(entity);
    relationships.push(...rels);
  }
  return { entities, relationships };
}

/** What a budget cut: the budget, and how many entities and relationships are shown of how many. */
export interface Truncation {
  budget: number;
  entities: { shown: number; total: number };
  relationships: { shown: number; total: number };
}

/** A view as JSON (the memory-file form), whole or cut to a budget. */
export interface FittedJson {
  entities: ReturnType<typeof toMemoryFile>['entities'];
  relationships: ReturnType<typeof toMemoryFile>['relationships'];
  /** Present only when the budget cut the view. */
  truncated?: Truncation;
}

const jsonLength = (value: unknown): number => JSON.stringify(value).length;

/**
 * The view in its memory-file form, cut nearest first so that its compact JSON (with the
 * `truncated` note the cut adds) is at most `budget` tokens (characters / 4, as estimateTokens counts).
 * Throws USAGE when the budget cannot hold even an empty answer.
 *
 * @example
 * const answer = fitJson(graph.neighbours('api', { depth: 2 }), 1000);
 * if (answer.truncated) console.log(`${answer.truncated.entities.shown} of ${answer.truncated.entities.total} entities`);
 */
export function fitJson(view: GraphMemory, budget: number): FittedJson {
  const whole = toMemoryFile(view);
  const chars = budget * 4;
  if (jsonLength(whole) <= chars) return whole;
  const total = { entities: view.entities.length, relationships: view.relationships.length };
  // The note with every count at its largest: the frame's length never grows past this.
  const note = (e: number, r: number): Truncation => ({ budget, entities: { shown: e, total: total.entities }, relationships: { shown: r, total: total.relationships } });
  const frame = jsonLength({ entities: [], relationships: [], truncated: note(total.entities, total.relationships) });
  if (frame > chars) throw new UsageError(`a budget of ${budget} tokens cannot hold even an empty answer (about ${Math.ceil(frame / 4)} tokens)`, 'give a larger budget');
  const commas = (n: number): number => Math.max(0, n - 1);
  const kept = fitNearestFirst(view, { entity: jsonLength, relationship: jsonLength }, (e, r, cost) => frame + cost + commas(e) + commas(r) <= chars);
  return { ...toMemoryFile(kept), truncated: note(kept.entities.length, kept.relationships.length) };
}

// Applying one structured update (an agent's analysis output) to the graph: checked whole first,
// so an invalid payload changes nothing; then entities, relationships, removals, in that order.
import { ValidationError } from '../errors.js';
import type { GraphUpdate, RelationshipKey } from '../types.js';
import { checkUpdate, UPDATE_SOURCE } from './check-update.js';
import { describeRelationship, relationshipKey } from './merge.js';
import type { GraphEditor } from './_view.js';

export interface ApplyOptions {
  /** Where the payload came from, for problems (a file path, `<stdin>`); default `<update>`. */
  source?: string;
}

export interface ChangeList {
  entities: string[];
  relationships: RelationshipKey[];
}

/** An entry that was valid but changed nothing, and why. */
export interface IgnoredEntry {
  /** The entry, as `relationships[2]` or `remove.entities[0]`. */
  entry: string;
  reason: string;
}

/** What an update did. */
export interface ApplyResult {
  added: ChangeList;
  updated: ChangeList;
  removed: ChangeList;
  ignored: IgnoredEntry[];
  warnings: string[];
}

const key = (rel: RelationshipKey): RelationshipKey => ({ from: rel.from, to: rel.to, type: rel.type });
const emptyList = (): ChangeList => ({ entities: [], relationships: [] });

function applyEntities(graph: GraphEditor, update: GraphUpdate, result: ApplyResult): void {
  const added = new Set<string>();
  const updated = new Set<string>();
  for (const entity of update.entities ?? []) {
    if (graph.mergeCheckedEntity(entity) === 'added') added.add(entity.name);
    else if (!added.has(entity.name)) updated.add(entity.name);
  }
  result.added.entities.push(...added);
  result.updated.entities.push(...updated);
}

function applyRelationships(graph: GraphEditor, update: GraphUpdate, result: ApplyResult): void {
  // A triplet named twice is listed once, as what its first entry did.
  const seen = new Set<string>();
  update.relationships?.forEach((rel, index) => {
    const id = relationshipKey(rel.from, rel.to, rel.type);
    const change = graph.mergeCheckedRelationship(rel);
    if (change === undefined) {
      const ends = [rel.from, rel.to].filter((name) => graph.findEntityByName(name) === undefined).map((name) => `entity ${JSON.stringify(name)}`);
      result.ignored.push({ entry: `relationships[${index}]`, reason: `${describeRelationship(rel)}: ${ends.join(' and ')} ${ends.length === 1 ? 'does' : 'do'} not exist` });
      return;
    }
    if (seen.has(id)) return;
    seen.add(id);
    (change === 'added' ? result.added : result.updated).relationships.push(key(rel));
  });
}

function applyRemovals(graph: GraphEditor, update: GraphUpdate, result: ApplyResult): void {
  update.remove?.relationships?.forEach((rel, index) => {
    if (graph.removeRelationship(rel.from, rel.to, rel.type)) result.removed.relationships.push(key(rel));
    else result.ignored.push({ entry: `remove.relationships[${index}]`, reason: `there is no relationship ${describeRelationship(rel)}` });
  });
  update.remove?.entities?.forEach((name, index) => {
    const removed = graph.removeEntity(name);
    if (removed === undefined) {
      result.ignored.push({ entry: `remove.entities[${index}]`, reason: `there is no entity named ${JSON.stringify(name)}` });
      return;
    }
    result.removed.entities.push(name);
    result.removed.relationships.push(...removed.relationships.map(key));
  });
}

/**
 * Applies `{ entities, relationships, remove }` to the graph. Throws ValidationError (nothing
 * applied) when an entry is invalid, naming each by index and field. Relationships whose ends
 * do not exist are ignored with a warning; they may name entities added by the same payload.
 *
 * @example
 * const result = graph.applyUpdate({
 *   entities: [{ name: 'billing', type: 'service', tags: ['payments'] }],
 *   relationships: [{ from: 'billing', to: 'db', type: 'writes_to' }],
 * });
 * // result.added.entities → ['billing']; result.ignored → [] when 'db' exists
 */
export function applyGraphUpdate(graph: GraphEditor, payload: unknown, options: ApplyOptions = {}): ApplyResult {
  const source = options.source ?? UPDATE_SOURCE;
  const problems = checkUpdate(payload, (name) => graph.findEntityByName(name) !== undefined, source);
  if (problems.length > 0) {
    throw new ValidationError(`the graph update ${source === UPDATE_SOURCE ? '' : `in ${source} `}is invalid (${problems.length} problem${problems.length === 1 ? '' : 's'}); nothing was applied`, problems);
  }
  const update = payload as GraphUpdate;
  const result: ApplyResult = { added: emptyList(), updated: emptyList(), removed: emptyList(), ignored: [], warnings: [] };
  const previous = graph.onWarning;
  graph.onWarning = (message) => {
    result.warnings.push(message);
    previous?.(message);
  };
  try {
    applyEntities(graph, update, result);
    applyRelationships(graph, update, result);
    applyRemovals(graph, update, result);
  } finally {
    graph.onWarning = previous;
  }
  return result;
}

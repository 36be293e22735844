// Checks a graph update before anything is applied, so an invalid payload changes nothing and
// every invalid entry is named by its index and field: `entities[3].type is required ...`.
import type { Problem } from '../errors.js';
import { validateAgainst } from '../schema/validate.js';
import type { EntityUpdate, GraphUpdate } from '../types.js';

/** Where problems of an update without a file are said to be. */
export const UPDATE_SOURCE = '<update>';

function problem(file: string, pointer: string, message: string): Problem {
  return { severity: 'error', file, pointer, message };
}

/** Entries that name the same value to add and to remove are contradictions, not updates. */
function contradictions(entity: EntityUpdate, index: number, file: string): Problem[] {
  const problems: Problem[] = [];
  const tags = new Set(entity.tags ?? []);
  entity.removeTags?.forEach((tag, j) => {
    if (tags.has(tag)) problems.push(problem(file, `/entities/${index}/removeTags/${j}`, `entities[${index}].removeTags[${j}] ${JSON.stringify(tag)} is also in tags: an entry either adds a tag or removes it`));
  });
  const keys = new Set(Object.keys(entity.properties ?? {}));
  entity.removeProperties?.forEach((key, j) => {
    if (keys.has(key)) problems.push(problem(file, `/entities/${index}/removeProperties/${j}`, `entities[${index}].removeProperties[${j}] ${JSON.stringify(key)} is also in properties: an entry either sets a property or removes it`));
  });
  return problems;
}

/**
 * Every problem of an update against the graph it would be applied to: schema violations first
 * (the payload's shape), then entries that would leave an entity without a type, and
 * contradictions. `exists` tells whether the graph already holds an entity.
 *
 * @example
 * checkUpdate({ entities: [{ name: 'queue' }] }, (name) => graph.findEntityByName(name) !== undefined);
 * // → [{ severity: 'error', file: '<update>', pointer: '/entities/0/type', message: 'entities[0].type is required: ...' }]
 */
export function checkUpdate(payload: unknown, exists: (name: string) => boolean, file = UPDATE_SOURCE): Problem[] {
  const issues = validateAgainst('graph-update', payload);
  if (issues.length > 0) return issues.map((issue) => problem(file, issue.pointer, issue.message));
  const update = payload as GraphUpdate;
  const problems: Problem[] = [];
  // Entities are applied in order, so an earlier entry of the same payload may create the entity.
  const created = new Set<string>();
  update.entities?.forEach((entity, index) => {
    if (entity.type === undefined && !exists(entity.name) && !created.has(entity.name)) {
      problems.push(problem(file, `/entities/${index}/type`, `entities[${index}].type is required: there is no entity named ${JSON.stringify(entity.name)}, so this entry adds one, and a new entity needs a type`));
    } else {
      created.add(entity.name);
    }
    problems.push(...contradictions(entity, index, file));
  });
  return problems;
}

/** Rewords the problems of a one-entry payload for a single call: `entities[0].type` → `type`. */
export function singleEntryProblems(problems: readonly Problem[], list: 'entities' | 'relationships'): Problem[] {
  const prefix = `${list}[0]`;
  return problems.map((p) => ({
    ...p,
    ...(p.pointer === undefined ? {} : { pointer: p.pointer.replace(`/${list}/0`, '') }),
    message: p.message.replaceAll(`${prefix}.`, '').replaceAll(` in ${prefix}`, '').replaceAll(prefix, list === 'entities' ? 'the entity' : 'the relationship'),
  }));
}

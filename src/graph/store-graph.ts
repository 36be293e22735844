// The graph in the store: one file per entity, `.knowledge/graph/entities/<slug>.yaml`, holding the
// entity and the relationships it owns (from = it). Saving writes only the files of entities
// that changed, through writeRecord (canonical, atomic) and deleteRecord.
import { ValidationError, type Problem } from '../errors.js';
import { readRecordsCached } from '../indexer/record-cache.js';
import { checkAcrossRecords } from '../store/check.js';
import { DEFAULT_LIMITS } from '../store/config-defaults.js';
import { readRecords, type StoreRecord } from '../store/read.js';
import type { Entity, GraphEntityRecord, LimitsConfig, Relationship } from '../types.js';
import type { LoadedGraph } from './memory-file.js';
import { ContextGraph, type GraphOptions } from './model.js';

export interface StoreGraphOptions extends GraphOptions {
  limits?: LimitsConfig;
  /** Read through the record cache in `.knowledge/.cache/` (default true). */
  cache?: boolean;
}

/** A saved file and what happened to it. */
export interface SavedFile {
  file: string;
  status: 'created' | 'updated' | 'unchanged' | 'deleted';
}

/** The record of an entity: empty fields left out, its outgoing relationships in order. */
export function toEntityRecord(entity: Readonly<Entity>, outgoing: readonly Relationship[]): GraphEntityRecord {
  const record: GraphEntityRecord = { name: entity.name, type: entity.type };
  if (entity.description !== '') record.description = entity.description;
  if (entity.tags.length > 0) record.tags = [...entity.tags];
  if (Object.keys(entity.properties).length > 0) record.properties = entity.properties;
  if (outgoing.length > 0) {
    record.relationships = outgoing.map((rel) => (Object.keys(rel.properties).length > 0 ? { to: rel.to, type: rel.type, properties: rel.properties } : { to: rel.to, type: rel.type }));
  }
  return record;
}

/**
 * Loads the graph from the store's entity files. Invalid files (or two files for one name) throw
 * ValidationError (exit 1); relationships to missing entities are ignored with a warning.
 *
 * @example
 * const { graph, warnings } = await loadStoreGraph(store.root, { limits: store.config.limits });
 */
export async function loadStoreGraph(root: string, options: StoreGraphOptions = {}): Promise<LoadedGraph> {
  const read = { kinds: ['entity'] as const, limits: options.limits ?? DEFAULT_LIMITS };
  const result = options.cache === false ? await readRecords<GraphEntityRecord>(root, read) : await readRecordsCached<GraphEntityRecord>(root, read);
  const problems = [...result.problems, ...checkAcrossRecords(result.records as StoreRecord[])];
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    throw new ValidationError(`the context graph in .knowledge/graph/entities/ is invalid (${errors.length} problem${errors.length === 1 ? '' : 's'})`, errors, { hint: 'fix the files, then run "lore validate"' });
  }
  const graph = new ContextGraph(options);
  for (const { value } of result.records) graph.mergeCheckedEntity({ name: value.name, type: value.type, ...(value.description === undefined ? {} : { description: value.description }), tags: value.tags ?? [], properties: value.properties ?? {} });
  // Dangling relationships are already among the warnings (checkAcrossRecords): load them quietly.
  const quiet = graph.onWarning;
  graph.onWarning = undefined;
  for (const { value } of result.records) {
    for (const rel of value.relationships ?? []) graph.mergeCheckedRelationship({ from: value.name, to: rel.to, type: rel.type, properties: rel.properties ?? {} });
  }
  graph.onWarning = quiet;
  graph.clearChanges();
  return { graph, warnings: problems.filter((p): p is Problem => p.severity === 'warning') };
}

/** Writes the files of the entities that changed since the graph was loaded; deletes those of removed entities. */
export async function saveStoreGraph(root: string, graph: ContextGraph, onProgress?: (done: number, total: number, what: string) => void): Promise<SavedFile[]> {
  const saved: SavedFile[] = [];
  const pending = graph.pendingChanges();
  // The writer (and its YAML library) is loaded here, on saving: reading the graph never loads it.
  const { deleteRecord, writeRecord } = await import('../store/write.js');
  for (const [k, name] of pending.entries()) {
    onProgress?.(k + 1, pending.length, 'writing entity files');
    const entity = graph.findEntityByName(name);
    if (entity === undefined) {
      const file = await deleteRecord(root, 'entity', name);
      if (file !== undefined) saved.push({ file, status: 'deleted' });
    } else {
      saved.push(await writeRecord(root, 'entity', toEntityRecord(entity, graph.outgoing(name))));
    }
  }
  graph.clearChanges();
  return saved;
}

// The graph in one JSON file, `{ "entities": [...], "relationships": [...] }` (--memory-file,
// default context.json). A missing file loads as an empty graph; any other read error, invalid
// JSON or invalid content is an error, and a failed flow never replaces the file.
import { lstat, realpath } from 'node:fs/promises';
import { isErrno, LoreError, ValidationError, type Problem } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { readRegularFile } from '../fs/read-text.js';
import { validateAgainst } from '../schema/validate.js';
import type { EntityInput, GraphMemory, GraphMemoryFile, RelationshipInput } from '../types.js';
import { decodeUtf8, decodeUtf8OrThrow } from '../fs/utf8.js';
import { parseJson, parseJsonText, withPositions } from '../store/json-text.js';
import { describeRelationship, relationshipKey } from './merge.js';
import { ContextGraph, type GraphOptions } from './model.js';

/** A graph read from a file or the store, with the warnings found on the way. */
export interface LoadedGraph {
  graph: ContextGraph;
  /** Relationships ignored because an end is missing, and the like. */
  warnings: Problem[];
}

function duplicates(data: GraphMemoryFile, file: string): Problem[] {
  const problems: Problem[] = [];
  const names = new Map<string, number>();
  data.entities.forEach((entity, index) => {
    const first = names.get(entity.name);
    if (first !== undefined) problems.push({ severity: 'error', file, pointer: `/entities/${index}/name`, message: `entities[${index}].name ${JSON.stringify(entity.name)} is also the name of entities[${first}]: names must be unique` });
    else names.set(entity.name, index);
  });
  const triplets = new Map<string, number>();
  data.relationships.forEach((rel, index) => {
    const key = relationshipKey(rel.from, rel.to, rel.type);
    const first = triplets.get(key);
    if (first !== undefined) problems.push({ severity: 'error', file, pointer: `/relationships/${index}`, message: `relationships[${index}] repeats relationships[${first}] (${describeRelationship(rel)}): merge their properties into one` });
    else triplets.set(key, index);
  });
  return problems;
}

/**
 * Builds a graph from memory-file text; throws ValidationError (with line and column) when it is
 * not a valid graph. Relationships to missing entities are left out and listed as warnings.
 *
 * @example
 * const { graph, warnings } = parseMemoryFile('{"entities": [], "relationships": []}', 'context.json');
 */
export function parseMemoryFile(text: string, file: string, options: GraphOptions = {}): LoadedGraph {
  const value = parseJson(text, file, 'a JSON object {"entities": [...], "relationships": [...]}');
  const issues = validateAgainst('graph-memory', value);
  const problems = issues.length > 0 ? issues.map((i): Problem => ({ severity: 'error', file, pointer: i.pointer, message: i.message })) : duplicates(value as GraphMemoryFile, file);
  if (problems.length > 0) throw new ValidationError(`${file} is not a valid context graph (${problems.length} problem${problems.length === 1 ? '' : 's'})`, withPositions(problems, text));
  const data = value as GraphMemoryFile;
  const graph = new ContextGraph(options);
  for (const entity of data.entities) graph.mergeCheckedEntity(entity);
  const warnings: Problem[] = [];
  data.relationships.forEach((rel, index) => {
    if (graph.mergeCheckedRelationship(rel) !== undefined) return;
    const end = graph.findEntityByName(rel.from) === undefined ? 'from' : 'to';
    warnings.push({ severity: 'warning', file, pointer: `/relationships/${index}/${end}`, message: `relationship ${describeRelationship(rel)} points at an entity that does not exist; it is ignored` });
  });
  graph.clearChanges();
  return { graph, warnings: withPositions(warnings, text) };
}

/**
 * Loads a memory file. A file that does not exist gives an empty graph (unless `mustExist`);
 * any other read error throws LoreError IO (exit 2); invalid JSON or content throws ValidationError (exit 1).
 *
 * @example
 * const { graph } = await loadMemoryFile('context.json');
 */
export async function loadMemoryFile(path: string, options: GraphOptions & { display?: string; mustExist?: boolean } = {}): Promise<LoadedGraph & { exists: boolean }> {
  const file = options.display ?? path;
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path);
  } catch (error) {
    if (isErrno(error, 'ENOENT') && options.mustExist !== true) return { graph: new ContextGraph(options), warnings: [], exists: false };
    if (isErrno(error, 'ENOENT')) throw new LoreError('NOT_FOUND', `${file} does not exist`, { cause: error });
    throw new LoreError('IO', `could not read the context graph ${file}: ${(error as Error).message}`, { cause: error });
  }
  return { ...parseMemoryFile(decodeUtf8OrThrow(bytes, file), file, options), exists: true };
}

/** The memory-file form of a graph or part of it: every field present, in the schema's order. */
export function toMemoryFile(view: GraphMemory): GraphMemoryFile {
  return {
    entities: view.entities.map((e): EntityInput => ({ name: e.name, type: e.type, description: e.description, tags: e.tags, properties: e.properties })),
    relationships: view.relationships.map((r): RelationshipInput => ({ from: r.from, to: r.to, type: r.type, properties: r.properties })),
  };
}

/** The text of a memory file: two-space JSON and a trailing newline. */
export function memoryFileText(view: GraphMemory): string {
  try {
    return `${JSON.stringify(toMemoryFile(view), null, 2)}\n`;
  } catch (error) {
    throw new LoreError('INVALID_RECORD', `the context graph cannot be written as JSON: ${(error as Error).message}`, { cause: error });
  }
}

/** Saving replaces the file a symbolic link points at, not the link. */
async function target(path: string): Promise<string> {
  try {
    return (await lstat(path)).isSymbolicLink() ? await realpath(path) : path;
  } catch {
    return path;
  }
}

/**
 * Whether a file's bytes are a memory file lore may replace: empty, or one JSON object with
 * "entities" or "relationships" (what loadMemoryFile reads, valid or not). Anything else, an MCP
 * memory JSONL file included, is someone else's file.
 */
export function isMemoryFileContent(bytes: Uint8Array): boolean {
  const decoded = decodeUtf8(bytes);
  if (!('text' in decoded)) return false;
  const text = decoded.text.replace(/^\uFEFF/, '');
  if (!/\S/.test(text)) return true;
  const parsed = parseJsonText(text, '', { maxDepth: Number.POSITIVE_INFINITY });
  const value = parsed.value as Record<string, unknown> | undefined;
  return value !== null && typeof value === 'object' && !Array.isArray(value) && ('entities' in value || 'relationships' in value);
}

/**
 * Saves the graph to a memory file atomically (temp file, fsync, rename): the text is complete
 * before the file is touched, and a crash leaves the old file or the new one. An unchanged
 * file is not rewritten. An existing file that is not a memory file is refused (CONFLICT)
 * unless `force`, so a mistyped path never replaces someone's data.
 *
 * @example
 * await saveMemoryFile('context.json', graph); // → 'updated'
 */
export async function saveMemoryFile(path: string, graph: ContextGraph, options: { display?: string; force?: boolean } = {}): Promise<'created' | 'updated' | 'unchanged'> {
  const file = options.display ?? path;
  const text = memoryFileText(graph.toJSON());
  const real = await target(path);
  let existing: Buffer | undefined;
  try {
    existing = await readRegularFile(real);
  } catch (error) {
    if (!isErrno(error, 'ENOENT')) throw new LoreError('IO', `could not save the context graph to ${file}: ${(error as Error).message}`, { cause: error });
  }
  if (existing !== undefined && options.force !== true && !isMemoryFileContent(existing)) {
    throw new LoreError('CONFLICT', `${file} is not a memory file (one JSON object with "entities" and "relationships"), so it was not replaced`, { hint: 'pass --force to replace it anyway, or choose another path' });
  }
  const same = existing !== undefined && existing.equals(Buffer.from(text));
  if (!same) {
    try {
      await writeFileAtomic(real, text);
    } catch (error) {
      throw new LoreError('IO', `could not save the context graph to ${file}: ${(error as Error).message}; the file was left as it was`, { cause: error });
    }
  }
  graph.clearChanges();
  return existing === undefined ? 'created' : same ? 'unchanged' : 'updated';
}

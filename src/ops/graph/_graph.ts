// What the graph operations share: the back-end an input names (`memoryFile`, else the store,
// else context.json), the loaded graph kept in the workspace between calls, changes through the
// back-end (which holds the write lock and saves all or nothing), and the errors for names the
// graph does not hold.
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { LoreError, ValidationError, type Problem } from '../../errors.js';
import { DEFAULT_MEMORY_FILE, memoryFileBackend, storeBackend, type GraphBackend } from '../../graph/backend.js';
import type { LoadedGraph } from '../../graph/memory-file.js';
import type { ContextGraph } from '../../graph/model.js';
import type { SavedFile } from '../../graph/store-graph.js';
import { suggest } from '../../schema/suggest.js';
import { withPositions } from '../../store/json-text.js';
import { KINDS, knowledgeDir } from '../../store/layout.js';
import type { Workspace } from '../../workspace/workspace.js';
import type { OpContext } from '../_define.js';
import { inputPath } from '../_paths.js';

/** What an answer that could hold the whole graph is cut to when the input names no budget (tokens). */
export const DEFAULT_BUDGET = 4000;

/** How many entities graph.find lists when the input names no limit. */
export const DEFAULT_LIMIT = 50;

/** The input field every graph operation takes. */
export interface GraphInput {
  /** A memory file (resolved against the working directory) instead of the store. */
  memoryFile?: string;
}

/** The back-end an input names: its memory file, else the store, else context.json outside a store. */
export async function graphBackend(ctx: OpContext, memoryFile: string | undefined): Promise<GraphBackend> {
  const { ws } = ctx;
  if (memoryFile !== undefined) {
    await inputPath(ctx, memoryFile, 'memoryFile');
    return memoryFileBackend(ws.cwd, memoryFile);
  }
  try {
    return storeBackend(await ws.store());
  } catch (error) {
    if (error instanceof LoreError && error.code === 'STORE_NOT_FOUND' && ws.storeDir === undefined) return memoryFileBackend(ws.cwd, DEFAULT_MEMORY_FILE);
    throw error;
  }
}

/** The files and folders a change of the graph writes. */
async function written(backend: GraphBackend): Promise<string[]> {
  if (backend.kind === 'store') return [join(knowledgeDir(backend.path), KINDS.entity.dir)];
  // A memory file may be a link: saving replaces the file it points at, which the link's stamp does not show.
  return [backend.path, await realpath(backend.path).catch(() => backend.path)];
}

/** The files and folders a back-end's graph is read from (the store's limits too): a change to one means reading it again. */
async function sources(backend: GraphBackend): Promise<string[]> {
  return [...await written(backend), ...(backend.kind === 'store' ? [join(knowledgeDir(backend.path), 'config.yaml')] : [])];
}

const cacheKey = (backend: GraphBackend): string => `graph:${backend.kind}:${backend.path}`;

/** A problem as one line (and its code frame), for notes. */
export function problemText(problem: Problem): string {
  const where = [problem.file, problem.line, problem.column].filter((part) => part !== undefined).join(':');
  const lines = [`${where}: ${problem.severity}: ${problem.message}`];
  if (problem.frame !== undefined) lines.push(problem.frame.replace(/^/gm, '  '));
  return lines.join('\n');
}

/** Notes the warnings of a load (relationships to missing entities). */
export function noteWarnings(ctx: OpContext, loaded: LoadedGraph): void {
  for (const warning of loaded.warnings) ctx.note(problemText(warning));
}

/**
 * The graph of an input's back-end, for reading: loaded once and kept in the workspace until a
 * file it was read from changes, so a long-lived server does not read every entity per call.
 * Callers must not change it (changes go through `change`).
 */
export async function readGraph(ctx: OpContext, memoryFile: string | undefined): Promise<{ backend: GraphBackend; graph: ContextGraph }> {
  const backend = await graphBackend(ctx, memoryFile);
  const loaded = await readLoaded(ctx.ws, backend);
  noteWarnings(ctx, loaded);
  return { backend, graph: loaded.graph };
}

/** The remembered graph of a back-end (see readGraph). */
export function readLoaded(ws: Workspace, backend: GraphBackend): Promise<LoadedGraph> {
  return ws.remember(cacheKey(backend), () => sources(backend), () => backend.load());
}

/**
 * Runs a change on the back-end: load, change, save, under its lock; nothing is saved when `fn`
 * throws. The remembered graph is dropped, so the next read sees the change.
 */
export async function change<T>(ctx: OpContext, backend: GraphBackend, fn: (graph: ContextGraph) => T): Promise<{ result: T; saved: SavedFile[] }> {
  try {
    const { result, saved, loaded } = await backend.update((loaded) => fn(loaded.graph), ctx.progress);
    noteWarnings(ctx, loaded);
    return { result, saved };
  } finally {
    ctx.ws.invalidate(await written(backend));
  }
}

/** NOT_FOUND (exit 2) for a name the graph does not hold, with a "did you mean". */
export function unknownEntity(graph: ContextGraph, name: string, where: GraphBackend): LoreError {
  const hint = suggest(name, [...graph.entities()].map((e) => e.name));
  return new LoreError('NOT_FOUND', `no entity named ${JSON.stringify(name)} in the context graph (${where.location})`, { hint: hint === undefined ? 'lore graph find lists the entities' : `did you mean ${JSON.stringify(hint)}?` });
}

/** Throws unless every name is an entity of the graph. */
export function requireEntities(graph: ContextGraph, names: readonly string[], where: GraphBackend): void {
  for (const name of names) if (graph.findEntityByName(name) === undefined) throw unknownEntity(graph, name, where);
}

/** Runs `run`; problems it reports in `source` get their line and column in `text`. */
export async function locateIn<T>(text: string, source: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ValidationError) || !error.problems.some((p) => p.file === source && p.line === undefined)) throw error;
    const ours = withPositions(error.problems.filter((p) => p.file === source), text);
    const problems = [...ours, ...error.problems.filter((p) => p.file !== source)];
    throw new ValidationError(error.message, problems, { cause: error.cause, ...(error.hint === undefined ? {} : { hint: error.hint }) });
  }
}

/** Where a back-end's changes went, as the outputs name it. */
export interface BackendRef {
  kind: GraphBackend['kind'];
  location: string;
}

/** The back-end as outputs name it. */
export const backendRef = (backend: GraphBackend): BackendRef => ({ kind: backend.kind, location: backend.location });

// What the `lore graph ...` commands share: the --memory-file option, opening the back-end,
// parsing k=v properties and integers, and reporting changes.
import { LoreError, UsageError, ValidationError } from '../../errors.js';
import { withPositions } from '../../store/json-text.js';
import type { ApplyResult } from '../../graph/apply.js';
import { resolveGraphBackend, type GraphBackend } from '../../graph/backend.js';
import type { LoadedGraph } from '../../graph/memory-file.js';
import type { ContextGraph } from '../../graph/model.js';
import type { SavedFile } from '../../graph/store-graph.js';
import { suggest } from '../../schema/suggest.js';
import type { JsonValue } from '../../types.js';
import type { CommandContext, OptionSpec } from '../command.js';
import { formatProblem, plural } from '../format.js';

/** `--memory-file PATH`, taken by every graph command. */
export const MEMORY_FILE_OPTION: Record<string, OptionSpec> = {
  'memory-file': { type: 'string', value: 'PATH', description: 'use the graph in this JSON file instead of the store (outside a store the default is context.json)' },
};

/** The back-end the command works on (see graph/backend.ts). */
export function openBackend(ctx: CommandContext): Promise<GraphBackend> {
  return resolveGraphBackend({ cwd: ctx.cwd, store: ctx.storeDir, memoryFile: ctx.string('memory-file') });
}

/** Prints load warnings (relationships to missing entities) on stderr. */
export function noteWarnings(ctx: CommandContext, loaded: LoadedGraph): void {
  for (const warning of loaded.warnings) ctx.note(formatProblem(warning, ctx.style));
}

/** Loads the graph for a read-only command. */
export async function loadGraph(ctx: CommandContext): Promise<{ backend: GraphBackend; graph: ContextGraph }> {
  const backend = await openBackend(ctx);
  const loaded = await backend.load();
  noteWarnings(ctx, loaded);
  return { backend, graph: loaded.graph };
}

/** `--prop key=value ...`: the value is JSON when it parses as JSON (5, true, ["a"]), a string otherwise. */
export function parseProps(items: readonly string[]): Record<string, JsonValue> {
  const props: Record<string, JsonValue> = {};
  for (const item of items) {
    const at = item.indexOf('=');
    if (at <= 0) throw new UsageError(`--prop ${JSON.stringify(item)} is not key=value`, 'e.g. --prop owner=team-a --prop port=8080');
    const raw = item.slice(at + 1);
    let value: JsonValue;
    try {
      value = JSON.parse(raw) as JsonValue;
    } catch {
      value = raw;
    }
    props[item.slice(0, at)] = value;
  }
  return props;
}

/** A whole number option (`--depth`, `--budget`) at least `min`, or its default. */
export function intOption(ctx: CommandContext, name: string, fallback: number | undefined, min: number): number | undefined {
  const raw = ctx.string(name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new UsageError(`--${name} must be a whole number of at least ${min} (found ${JSON.stringify(raw)})`);
  return Number(raw);
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

/** Runs a change on the back-end (load, change, save; nothing saved when it throws) and notes load warnings. */
export async function change<T>(backend: GraphBackend, ctx: CommandContext, fn: (graph: ContextGraph) => T): Promise<{ result: T; saved: SavedFile[] }> {
  const { result, saved, loaded } = await backend.update((loaded) => fn(loaded.graph));
  noteWarnings(ctx, loaded);
  return { result, saved };
}

/** `wrote .knowledge/graph/entities/api.yaml` lines for the files a change touched (unchanged ones left out). */
export function savedLines(saved: readonly SavedFile[]): string[] {
  return saved.filter((s) => s.status !== 'unchanged').map((s) => `${s.status === 'deleted' ? 'deleted' : 'wrote'} ${s.file}`);
}

const count = (list: { entities: string[]; relationships: unknown[] }): string => `${plural(list.entities.length, 'entity', 'entities')}, ${plural(list.relationships.length, 'relationship')}`;

/** The summary of an applied update: one line of counts, ignored entries as warnings, files written. */
export function reportApply(ctx: CommandContext, backend: GraphBackend, result: ApplyResult, saved: readonly SavedFile[]): void {
  if (ctx.json) {
    ctx.printJson({ backend: { kind: backend.kind, location: backend.location }, ...result, saved });
    return;
  }
  for (const ignored of result.ignored) ctx.note(`${ctx.style.yellow('warning')}: ${ignored.entry} ignored: ${ignored.reason}`);
  ctx.print(`added ${count(result.added)}; updated ${count(result.updated)}; removed ${count(result.removed)}; ignored ${plural(result.ignored.length, 'entry', 'entries')}`);
  for (const line of savedLines(saved)) ctx.print(line);
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

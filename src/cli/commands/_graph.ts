// What the `lore graph ...` commands share: the --memory-file option as the operations' input,
// parsing k=v properties, where the graph is for messages, and reporting changes.
import { UsageError } from '../../errors.js';
import type { SavedFile } from '../../graph/store-graph.js';
import type { ApplyOutput } from '../../ops/graph/_apply.js';
import type { JsonValue } from '../../types.js';
import type { CommandContext, OptionSpec } from '../command.js';
import { plural } from '../format.js';

/** `--memory-file PATH`, taken by every graph command. */
export const MEMORY_FILE_OPTION: Record<string, OptionSpec> = {
  'memory-file': { type: 'string', value: 'PATH', description: 'use the graph in this JSON file instead of the store (outside a store the default is context.json)' },
};

/** `{ memoryFile }` when --memory-file is given: the input field every graph operation takes. */
export function memoryFileInput(ctx: CommandContext): { memoryFile?: string } {
  const file = ctx.string('memory-file');
  return file === undefined ? {} : { memoryFile: file };
}

/** Where the graph of this run is, as messages name it: the store's entity folder or the memory file. */
export async function graphLocation(ctx: CommandContext): Promise<string> {
  const { graphBackend } = await import('../../ops/graph/_graph.js');
  return (await graphBackend({ ws: ctx.workspace, note: ctx.note, progress: ctx.progress }, ctx.string('memory-file'))).location;
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
    // Defined, not assigned: --prop __proto__=... is a property like any other.
    Object.defineProperty(props, item.slice(0, at), { value, enumerable: true, writable: true, configurable: true });
  }
  return props;
}

/** `wrote .knowledge/graph/entities/api.yaml` lines for the files a change touched (unchanged ones left out). */
export function savedLines(saved: readonly SavedFile[]): string[] {
  return saved.filter((s) => s.status !== 'unchanged').map((s) => `${s.status === 'deleted' ? 'deleted' : 'wrote'} ${s.file}`);
}

const count = (list: { entities: string[]; relationships: unknown[] }): string => `${plural(list.entities.length, 'entity', 'entities')}, ${plural(list.relationships.length, 'relationship')}`;

/** The summary of an applied update: ignored entries as warnings, one line of counts, files written. */
export function printApply(output: ApplyOutput, ctx: CommandContext): void {
  for (const ignored of output.ignored) ctx.note(`${ctx.style.yellow('warning')}: ${ignored.entry} ignored: ${ignored.reason}`);
  ctx.print(`added ${count(output.added)}; updated ${count(output.updated)}; removed ${count(output.removed)}; ignored ${plural(output.ignored.length, 'entry', 'entries')}`);
  for (const line of savedLines(output.saved)) ctx.print(line);
}

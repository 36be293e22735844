// What the `lore dag` commands share: the --project/--log-level/--log-file options, opening the
// DAG with an event sink, and the one-line rendering of a node for people.
import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { Dag } from '../../dag/dag.js';
import { levelEnabled, LOG_LEVELS, type DagEventSink, type LogLevel } from '../../dag/events.js';
import type { DagNode } from '../../types.js';
import { defineCommand, type CommandContext, type CommandSpec, type OptionSpec } from '../command.js';
import { formatProblem, table } from '../format.js';

/** Options every `lore dag` command takes. */
export const DAG_OPTIONS: Record<string, OptionSpec> = {
  project: { type: 'string', value: 'NAME', description: 'work on this project instead of the current one' },
  'log-level': { type: 'string', value: 'LEVEL', description: `structured events to write as JSON lines: ${LOG_LEVELS.join(', ')} (default silent)` },
  'log-file': { type: 'string', value: 'FILE', description: 'append the structured events to FILE instead of stderr' },
};

function eventSink(ctx: CommandContext): DagEventSink {
  const level = (ctx.string('log-level') ?? 'silent') as LogLevel;
  if (!LOG_LEVELS.includes(level)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')} (found ${JSON.stringify(level)})`);
  const file = ctx.string('log-file');
  return (event) => {
    if (!levelEnabled(event.level, level)) return;
    const line = JSON.stringify({ time: new Date().toISOString(), ...event });
    if (file === undefined) ctx.note(line);
    else appendFileSync(resolve(ctx.cwd, file), `${line}\n`);
  };
}

/** Opens the store's DAG; lines of the log that were skipped are reported on stderr. */
export async function openDag(ctx: CommandContext): Promise<Dag> {
  const onEvent = eventSink(ctx);
  const store = await ctx.openStore();
  const dag = await Dag.open({ root: store.root, onEvent, ...(store.config.project === undefined ? {} : { defaultProject: store.config.project }) });
  for (const problem of dag.problems) ctx.note(formatProblem({ ...problem, severity: 'warning' }, ctx.style));
  return dag;
}

/** The --project option, when given. */
export function projectOption(ctx: CommandContext): { project?: string } {
  const project = ctx.string('project');
  return project === undefined ? {} : { project };
}

/** What a node says, in one line: `critic needs_revision: the reason`. */
export function describe(node: DagNode): string {
  const kind = node.role === 'critic' && node.verdict !== undefined ? `critic ${node.verdict}` : node.role;
  const tags = node.tags.length === 0 || node.role === 'summary' ? '' : ` [${node.tags.join(', ')}]`;
  const label = node.branchLabel === undefined ? '' : ` (${node.branchLabel})`;
  return `${kind}${label}: ${node.thought.replace(/\s+/g, ' ')}${tags}`;
}

/** Prints nodes one per line (id, then what it says), or `empty` when there are none. */
export function printNodes(ctx: CommandContext, nodes: readonly DagNode[], empty: string): void {
  if (nodes.length === 0) ctx.print(empty);
  else ctx.print(table(nodes.map((n) => [n.id, describe(n)]), ctx.columns));
}

/** `lore dag children ID` and `lore dag parents ID`: a node's neighbours on one side. */
export function relativesCommand(side: 'children' | 'parents', text: { summary: string; description: string; empty: (id: string) => string }): CommandSpec {
  return defineCommand({
    name: `dag ${side}`,
    summary: text.summary,
    usage: '<id> [options]',
    description: text.description,
    options: { ...DAG_OPTIONS },
    positionals: [1, 1],
    examples: [`lore dag ${side} 1f2e3d4c5b6a`, `lore dag ${side} 1f2e3d4c5b6a --json`],
    async run(ctx) {
      const dag = await openDag(ctx);
      const id = ctx.args[0]!;
      const nodes = side === 'children' ? dag.children(id, projectOption(ctx)) : dag.parents(id, projectOption(ctx));
      if (ctx.json) {
        ctx.printJson(nodes);
        return;
      }
      printNodes(ctx, nodes, text.empty(id));
    },
  });
}

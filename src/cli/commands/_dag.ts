// What the `lore dag` commands share: the --project/--log-level/--log-file options, where the
// DAG's events go, and the one-line rendering of a node for people.
import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { levelEnabled, LOG_LEVELS, type LogLevel } from '../../dag/events.js';
import { listenToDag } from '../../ops/dag/_dag.js';
import type { DagNode } from '../../types.js';
import { defineOpCommand, type CommandContext, type CommandSpec, type OptionSpec } from '../command.js';
import { table } from '../format.js';

/** Options every `lore dag` command takes. */
export const DAG_OPTIONS: Record<string, OptionSpec> = {
  project: { type: 'string', value: 'NAME', description: 'work on this project instead of the current one' },
  'log-level': { type: 'enum', values: LOG_LEVELS, value: 'LEVEL', description: `structured events to write as JSON lines: ${LOG_LEVELS.join(', ')} (default silent)` },
  'log-file': { type: 'string', value: 'FILE', description: 'append the structured events to FILE instead of stderr' },
};

/** Sends the DAG's events of this run, at --log-level and above, to stderr or --log-file. */
function listen(ctx: CommandContext): void {
  const level = (ctx.string('log-level') ?? 'silent') as LogLevel;
  const file = ctx.string('log-file');
  listenToDag(ctx.workspace, (event) => {
    if (!levelEnabled(event.level, level)) return;
    const line = JSON.stringify({ time: new Date().toISOString(), ...event });
    if (file === undefined) ctx.note(line);
    else appendFileSync(resolve(ctx.cwd, file), `${line}\n`);
  });
}

/** The input every dag command starts from (`project` of --project), with its events routed. */
export function dagInput(ctx: CommandContext): { project?: string } {
  listen(ctx);
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
  return defineOpCommand<DagNode[]>({
    name: `dag ${side}`,
    summary: text.summary,
    usage: '<id> [options]',
    description: text.description,
    options: { ...DAG_OPTIONS },
    positionals: [1, 1],
    examples: [`lore dag ${side} 1f2e3d4c5b6a`, `lore dag ${side} 1f2e3d4c5b6a --json`],
    op: `dag.${side}`,
    input: (ctx) => ({ id: ctx.args[0]!, ...dagInput(ctx) }),
    print(nodes, ctx) {
      printNodes(ctx, nodes, text.empty(ctx.args[0]!));
    },
  }) as CommandSpec;
}

// Every command and where its module is: modules load only when their command runs, so
// `lore hook pre-commit` never loads the daemon, the web UI or the MCP SDK.
import type { CommandSpec } from './command.js';

export interface CommandEntry {
  name: string;
  summary: string;
  group: string;
  load: () => Promise<{ command: CommandSpec }>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'init', group: 'Store', summary: 'scaffold .knowledge/ in this git repository', load: () => import('./commands/init.js') },
  { name: 'seed', group: 'Store', summary: 'write the default roles, gate profiles and modes', load: () => import('./commands/seed.js') },
  { name: 'validate', group: 'Store', summary: 'check every file of the store against its schema and rules', load: () => import('./commands/validate.js') },
  { name: 'status', group: 'Store', summary: "summarise the store: records per kind, logs, validity", load: () => import('./commands/status.js') },
  { name: 'list', group: 'Store', summary: 'list records, optionally of one kind', load: () => import('./commands/list.js') },
  { name: 'show', group: 'Store', summary: 'show one record by id', load: () => import('./commands/show.js') },

  // Knowledge base (issue 3): add entries below this line.

  // Player/coach runtime (issue 4): add entries below this line.

  // Context graph (issue 5): add entries below this line.

  // Thought DAG (issue 6): add entries below this line.
  { name: 'dag append', group: 'Thought DAG', summary: 'append a thought to the DAG of its project', load: () => import('./commands/dag-append.js') },
  { name: 'dag critic', group: 'Thought DAG', summary: "review a node: append a critic's verdict", load: () => import('./commands/dag-critic.js') },
  { name: 'dag get', group: 'Thought DAG', summary: 'show one node of the DAG', load: () => import('./commands/dag-get.js') },
  { name: 'dag children', group: 'Thought DAG', summary: 'list the nodes whose parents include a node', load: () => import('./commands/dag-children.js') },
  { name: 'dag heads', group: 'Thought DAG', summary: 'list the latest nodes: those no node names as a parent', load: () => import('./commands/dag-heads.js') },
  { name: 'dag branches', group: 'Thought DAG', summary: 'list the branches: each head with its label and depth', load: () => import('./commands/dag-branches.js') },
  { name: 'dag resume', group: 'Thought DAG', summary: 'the context to resume a branch: its last nodes and summaries', load: () => import('./commands/dag-resume.js') },
  { name: 'dag export', group: 'Thought DAG', summary: 'the plan view of a project, optionally of one tag', load: () => import('./commands/dag-export.js') },
  { name: 'dag projects', group: 'Thought DAG', summary: 'list the projects of the thought log, and name collisions', load: () => import('./commands/dag-projects.js') },
  { name: 'dag switch', group: 'Thought DAG', summary: 'make a project the current one', load: () => import('./commands/dag-switch.js') },
  { name: 'dag migrate', group: 'Thought DAG', summary: 'move kg.<project>.json files of the older tool into the log', load: () => import('./commands/dag-migrate.js') },
  { name: 'dag summarize', group: 'Thought DAG', summary: 'append a summary of the unsummarised nodes of a branch', load: () => import('./commands/dag-summarize.js') },
  { name: 'dag rm', group: 'Thought DAG', summary: 'delete a node (tombstones; --cascade for what follows)', load: () => import('./commands/dag-rm.js') },

  // Commit guard (issue 7): add entries below this line.
];

/** Finds the command named by the first one or two arguments. */
export function findCommand(args: readonly string[]): { entry: CommandEntry; rest: string[] } | undefined {
  const two = `${args[0]} ${args[1]}`;
  const byTwo = COMMANDS.find((c) => c.name === two);
  if (byTwo !== undefined) return { entry: byTwo, rest: args.slice(2) };
  const byOne = COMMANDS.find((c) => c.name === args[0]);
  return byOne === undefined ? undefined : { entry: byOne, rest: args.slice(1) };
}

/** The subcommands of a group name (`graph` → `graph add-entity`, ...). */
export function subcommands(group: string): CommandEntry[] {
  return COMMANDS.filter((c) => c.name.startsWith(`${group} `));
}

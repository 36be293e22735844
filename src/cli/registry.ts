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
  { name: 'add', group: 'Knowledge', summary: 'add a recommendation, prohibition or learning', load: () => import('./commands/add.js') },
  { name: 'edit', group: 'Knowledge', summary: 'change fields of a knowledge entry', load: () => import('./commands/edit.js') },
  { name: 'enable', group: 'Knowledge', summary: 'enable a knowledge entry', load: () => import('./commands/enable.js') },
  { name: 'disable', group: 'Knowledge', summary: 'disable a knowledge entry', load: () => import('./commands/disable.js') },
  { name: 'rm', group: 'Knowledge', summary: 'remove a knowledge entry (deletes its file)', load: () => import('./commands/rm.js') },
  { name: 'query', group: 'Knowledge', summary: 'the knowledge relevant to a task, ranked, with a token-budgeted summary', load: () => import('./commands/query.js') },
  { name: 'check-plan', group: 'Knowledge', summary: 'check a task plan against the knowledge base before the task starts', load: () => import('./commands/check-plan.js') },
  { name: 'prompt agent', group: 'Knowledge', summary: 'the knowledge-augmented prompt for an agent about to start a task', load: () => import('./commands/prompt-agent.js') },
  { name: 'capture', group: 'Knowledge', summary: 'capture a learning from a finished task (pending review by default)', load: () => import('./commands/capture.js') },
  { name: 'pending', group: 'Knowledge', summary: 'list the captured learnings waiting for review', load: () => import('./commands/pending.js') },
  { name: 'approve', group: 'Knowledge', summary: 'approve a pending learning into knowledge/learnings/', load: () => import('./commands/approve.js') },
  { name: 'reject', group: 'Knowledge', summary: 'reject a pending learning, recording why', load: () => import('./commands/reject.js') },
  { name: 'duplicates', group: 'Knowledge', summary: 'find duplicate and similar entries', load: () => import('./commands/duplicates.js') },
  { name: 'applied', group: 'Knowledge', summary: 'record that an entry was applied to a task (and whether it helped)', load: () => import('./commands/applied.js') },
  { name: 'export', group: 'Knowledge', summary: 'write entries, with their usage statistics, as JSON or NDJSON', load: () => import('./commands/export.js') },
  { name: 'import', group: 'Knowledge', summary: 'import entries from an export (JSON array or NDJSON)', load: () => import('./commands/import.js') },
  { name: 'prune', group: 'Knowledge', summary: 'delete old, rarely applied, low-priority entries (a dry run unless --yes)', load: () => import('./commands/prune.js') },

  // Player/coach runtime (issue 4): add entries below this line.

  // Context graph (issue 5): add entries below this line.

  // Thought DAG (issue 6): add entries below this line.

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

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
  { name: 'pack list', group: 'Store', summary: 'list the starter packs of prohibitions, with their rules', load: () => import('./commands/pack-list.js') },
  { name: 'pack add', group: 'Store', summary: "add a starter pack's prohibitions that are missing from the store", load: () => import('./commands/pack-add.js') },
  { name: 'extends add', group: 'Store', summary: 'extend this store with an org-wide knowledge source (a git repository)', load: () => import('./commands/extends-add.js') },
  { name: 'extends list', group: 'Store', summary: "list config.yaml's org-wide knowledge sources and their pins", load: () => import('./commands/extends-list.js') },
  { name: 'extends rm', group: 'Store', summary: "remove an org-wide knowledge source from config.yaml's extends", load: () => import('./commands/extends-rm.js') },
  { name: 'sync', group: 'Store', summary: "fetch config.yaml's extends sources and pin them in .knowledge/extends.lock", load: () => import('./commands/sync.js') },
  { name: 'doctor', group: 'Store', summary: 'find (and with --fix remove) what crashes left in the store', load: () => import('./commands/doctor.js') },
  { name: 'status', group: 'Store', summary: "summarise the store: records per kind, logs, validity", load: () => import('./commands/status.js') },
  { name: 'changes', group: 'Store', summary: 'what your pull request will show of .knowledge/: uncommitted changes and the diff against the default branch', load: () => import('./commands/changes.js') },
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
  { name: 'capture', group: 'Knowledge', summary: 'capture a learning from a finished task, a player/coach turn or review comments (pending review by default)', load: () => import('./commands/capture.js') },
  { name: 'pending', group: 'Knowledge', summary: 'list the captured learnings waiting for review', load: () => import('./commands/pending.js') },
  { name: 'approve', group: 'Knowledge', summary: 'approve a pending learning into knowledge/learnings/', load: () => import('./commands/approve.js') },
  { name: 'reject', group: 'Knowledge', summary: 'reject a pending learning, recording why', load: () => import('./commands/reject.js') },
  { name: 'duplicates', group: 'Knowledge', summary: 'find duplicate and similar entries', load: () => import('./commands/duplicates.js') },
  { name: 'applied', group: 'Knowledge', summary: 'record that an entry was applied to a task (and whether it helped)', load: () => import('./commands/applied.js') },
  { name: 'export', group: 'Knowledge', summary: 'write entries as JSON or NDJSON, or the rule files coding agents read (--to)', load: () => import('./commands/export.js') },
  { name: 'import', group: 'Knowledge', summary: 'import entries from an export (JSON array or NDJSON)', load: () => import('./commands/import.js') },
  { name: 'prune', group: 'Knowledge', summary: 'delete old, rarely applied, low-priority entries (a dry run unless --yes)', load: () => import('./commands/prune.js') },

  // Player/coach runtime (issue 4): add entries below this line.
  { name: 'roles show', group: 'Player/coach', summary: "show a role's constraints for a project, and where each came from", load: () => import('./commands/roles-show.js') },
  { name: 'gates show', group: 'Player/coach', summary: 'show the quality gates of a task type and complexity', load: () => import('./commands/gates-show.js') },
  { name: 'gates list', group: 'Player/coach', summary: 'list every quality-gate profile in effect for a project', load: () => import('./commands/gates-list.js') },
  { name: 'gates check', group: 'Player/coach', summary: "check measured results against the task's quality gates", load: () => import('./commands/gates-check.js') },
  { name: 'mode suggest', group: 'Player/coach', summary: 'suggest an implementation mode for a task (advisory only)', load: () => import('./commands/mode-suggest.js') },
  { name: 'mode list', group: 'Player/coach', summary: 'list the implementation modes and the complexities they suit', load: () => import('./commands/mode-list.js') },
  { name: 'prompt coach', group: 'Player/coach', summary: "print the coach's prompt for a turn: role, quality gates, previous turn", load: () => import('./commands/prompt-coach.js') },
  { name: 'turn record', group: 'Player/coach', summary: "record a player/coach turn in its feature's turn log", load: () => import('./commands/turn-record.js') },
  { name: 'turn latest', group: 'Player/coach', summary: 'show the latest turn of a feature', load: () => import('./commands/turn-latest.js') },
  { name: 'turn list', group: 'Player/coach', summary: 'list the turns of a feature', load: () => import('./commands/turn-list.js') },
  { name: 'turn features', group: 'Player/coach', summary: 'list the features of a project that have a turn log, latest activity first', load: () => import('./commands/turn-features.js') },
  { name: 'turn complete', group: 'Player/coach', summary: 'mark a feature completed, so its turns may be pruned', load: () => import('./commands/turn-complete.js') },
  { name: 'turn prune', group: 'Player/coach', summary: 'apply the turn retention limits to a project', load: () => import('./commands/turn-prune.js') },

  // Context graph (issue 5): add entries below this line.
  { name: 'graph apply', group: 'Context graph', summary: 'apply a structured update (entities, relationships, removals)', load: () => import('./commands/graph-apply.js') },
  { name: 'graph add-entity', group: 'Context graph', summary: 'add an entity, or update the one of that name', load: () => import('./commands/graph-add-entity.js') },
  { name: 'graph relate', group: 'Context graph', summary: 'add a typed relationship FROM -TYPE-> TO, or merge its properties', load: () => import('./commands/graph-relate.js') },
  { name: 'graph rm-entity', group: 'Context graph', summary: 'remove an entity and every relationship from or to it', load: () => import('./commands/graph-rm-entity.js') },
  { name: 'graph unrelate', group: 'Context graph', summary: 'remove the relationship FROM -TYPE-> TO', load: () => import('./commands/graph-unrelate.js') },
  { name: 'graph show', group: 'Context graph', summary: 'show the graph or a neighbourhood as text, JSON, Mermaid or DOT', load: () => import('./commands/graph-show.js') },
  { name: 'graph find', group: 'Context graph', summary: 'find entities by type, tag, or relationship to another entity', load: () => import('./commands/graph-find.js') },
  { name: 'graph path', group: 'Context graph', summary: 'the shortest chain of relationships between two entities', load: () => import('./commands/graph-path.js') },
  { name: 'graph context', group: 'Context graph', summary: 'the graph as prompt text, whole or around entities, within a token budget', load: () => import('./commands/graph-context.js') },
  { name: 'graph import', group: 'Context graph', summary: 'merge a memory file or MCP-memory JSONL into the graph', load: () => import('./commands/graph-import.js') },
  { name: 'graph export', group: 'Context graph', summary: "write the store's graph as one memory file (JSON)", load: () => import('./commands/graph-export.js') },

  // Thought DAG (issue 6): add entries below this line.
  { name: 'dag append', group: 'Thought DAG', summary: 'append a thought to the DAG of its project', load: () => import('./commands/dag-append.js') },
  { name: 'dag critic', group: 'Thought DAG', summary: "review a node: append a critic's verdict", load: () => import('./commands/dag-critic.js') },
  { name: 'dag get', group: 'Thought DAG', summary: 'show one node of the DAG', load: () => import('./commands/dag-get.js') },
  { name: 'dag children', group: 'Thought DAG', summary: 'list the nodes whose parents include a node', load: () => import('./commands/dag-children.js') },
  { name: 'dag parents', group: 'Thought DAG', summary: 'list the parents of a node', load: () => import('./commands/dag-parents.js') },
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
  { name: 'check', group: 'Commit guard', summary: 'check a change against the prohibitions: staged, a range of commits, or files', load: () => import('./commands/check.js') },
  { name: 'test', group: 'Commit guard', summary: "run the prohibitions' rule tests", load: () => import('./commands/test.js') },
  { name: 'diff', group: 'Commit guard', summary: 'summarise what changed in .knowledge/ between two refs, riskiest first (for PRs)', load: () => import('./commands/diff.js') },
  { name: 'hook install', group: 'Commit guard', summary: "install lore's pre-commit hook where git provably runs it, keeping any existing hook", load: () => import('./commands/hook-install.js') },
  { name: 'hook uninstall', group: 'Commit guard', summary: "remove lore's pre-commit hook and restore the hook it chained", load: () => import('./commands/hook-uninstall.js') },
  { name: 'hook status', group: 'Commit guard', summary: 'say which hook manager runs lore on a commit, and prove it by a dry run', load: () => import('./commands/hook-status.js') },
  { name: 'hook pre-commit', group: 'Commit guard', summary: 'the pre-commit hook: check the staged change, block on critical prohibitions', load: () => import('./commands/hook-pre-commit.js') },

  // Agents (issue 12): add entries below this line.
  { name: 'prime', group: 'Agents', summary: 'what an agent must know at the start of a session, within a token budget', load: () => import('./commands/prime.js') },
  { name: 'mcp', group: 'Agents', summary: 'serve the operations as MCP tools over stdio (for agents)', load: () => import('./commands/mcp.js') },
  { name: 'serve', group: 'Agents', summary: 'run the daemon: the live index, the HTTP API and the web UI', load: () => import('./commands/serve.js') },

  // The terminal (issue 14).
  { name: 'completion', group: 'Shell', summary: 'print the shell completion script for bash, zsh or fish', load: () => import('./commands/completion.js') },
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

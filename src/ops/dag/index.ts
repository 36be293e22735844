// The thought DAG's operations: append thoughts and critics' reviews, read the DAG of a project,
// summarise, delete, and manage projects.
import type { OpEntry } from '../_define.js';

export const DAG_OPS: readonly OpEntry[] = [
  { name: 'dag.append', summary: 'append a thought (an actor node) to the thought DAG of the project its projectContext names', readOnly: false, load: () => import('./append.js') },
  { name: 'dag.critic', summary: "review a node of the thought DAG: append a critic's verdict (approved, needs_revision, reject)", readOnly: false, load: () => import('./critic.js') },
  { name: 'dag.get', summary: 'get one node of the thought DAG by id, as its latest version records it', readOnly: true, load: () => import('./get.js') },
  { name: 'dag.children', summary: 'list the nodes that name a node as a parent (its critics included), oldest first', readOnly: true, load: () => import('./children.js') },
  { name: 'dag.parents', summary: 'list the parents of a node of the thought DAG, in its own order', readOnly: true, load: () => import('./parents.js') },
  { name: 'dag.heads', summary: 'list the latest nodes of a project: those no node names as a parent', readOnly: true, load: () => import('./heads.js') },
  { name: 'dag.branches', summary: 'list the branches of a project: each head with its branch label and depth', readOnly: true, load: () => import('./branches.js') },
  { name: 'dag.resume', summary: 'the context to resume a branch: its last nodes, after the summaries of what lies beyond', readOnly: true, load: () => import('./resume.js') },
  { name: 'dag.export', summary: 'the plan view of a project: every node (optionally of one tag, or only the first limit) with its parents, children and artifacts', readOnly: true, load: () => import('./export.js') },
  { name: 'dag.projects', summary: 'list the projects of the thought log with their counts, the current one, and name collisions', readOnly: true, load: () => import('./projects.js') },
  { name: 'dag.switch', summary: 'make a project the current one of the thought DAG (what calls without a project work on)', readOnly: false, load: () => import('./switch.js') },
  { name: 'dag.migrate', summary: 'move the kg.<project>.json files of the older tool in a folder into the thought log', readOnly: false, load: () => import('./migrate.js') },
  { name: 'dag.summarize', summary: 'append a summary of the unsummarised nodes of a branch, which resume shows in their place', readOnly: false, load: () => import('./summarize.js') },
  { name: 'dag.remove', summary: 'delete a node of the thought DAG with tombstones (cascade: with what follows from it)', readOnly: false, load: () => import('./remove.js') },
];

// The knowledge base's operations: manage entries, query and check plans, curate learnings,
// record usage, move knowledge in and out.
import type { OpEntry } from '../_define.js';

export const KNOWLEDGE_OPS: readonly OpEntry[] = [
  { name: 'entry.add', summary: 'add a recommendation, prohibition or learning (one new file; nothing is written when it is invalid)', readOnly: false, load: () => import('./add.js') },
  { name: 'entry.edit', summary: 'change fields of a knowledge entry (pending learnings included); null removes a field', readOnly: false, load: () => import('./edit.js') },
  { name: 'entry.enable', summary: 'enable a knowledge entry, so that it applies again', readOnly: false, load: () => import('./enable.js') },
  { name: 'entry.disable', summary: 'disable a knowledge entry: kept, but never applied by queries, plan checks or the commit guard', readOnly: false, load: () => import('./disable.js') },
  { name: 'entry.remove', summary: 'remove a knowledge entry (deletes its file; git keeps its history)', readOnly: false, load: () => import('./remove.js') },
  { name: 'knowledge.query', summary: 'the knowledge relevant to a task: ranked recommendations, prohibitions and learnings, with a token-budgeted summary', readOnly: true, load: () => import('./query.js') },
  { name: 'plan.check', summary: 'check a task plan before starting it: blocking and warning prohibitions, relevant recommendations and learnings, canProceed', readOnly: true, load: () => import('./check.js') },
  { name: 'prompt.agent', summary: 'the knowledge-augmented prompt for an agent about to start a task: task, plan, blockers, warnings, recommendations, learnings', readOnly: true, load: () => import('./prompt-agent.js') },
  { name: 'learning.capture', summary: 'capture a learning from a finished task (pending review by default); refused when it resembles an entry or an earlier rejection', readOnly: false, load: () => import('./capture.js') },
  { name: 'learning.capture_turn', summary: "capture a learning from a recorded player/coach turn: a revise or escalate of source task_failure, a task's final approval of source task_success (pending review by default)", readOnly: false, load: () => import('./capture-turn.js') },
  { name: 'learning.capture_review', summary: "capture learnings of source code_review from review comments (GitHub's JSON or a plain list), one per distinct point, each refused when it resembles an entry, a rejection or an earlier point", readOnly: false, load: () => import('./capture-review.js') },
  { name: 'learning.pending', summary: 'list the captured learnings waiting for review, oldest first; on request with the existing entries each resembles', readOnly: true, load: () => import('./pending.js') },
  { name: 'learning.approve', summary: 'approve a pending learning into the learnings, optionally changing fields on the way', readOnly: false, load: () => import('./approve.js') },
  { name: 'learning.reject', summary: 'reject a pending learning, recording why, so that the same learning is recognised if it is captured again', readOnly: false, load: () => import('./reject.js') },
  { name: 'knowledge.duplicates', summary: 'find pairs of duplicate or similar knowledge entries, most similar first', readOnly: true, load: () => import('./duplicates.js') },
  { name: 'usage.record', summary: 'record that a knowledge entry was applied to a task, and whether it helped', readOnly: false, load: () => import('./applied.js') },
  { name: 'knowledge.export', summary: 'the recommendations, prohibitions and learnings that pass a filter, with their usage statistics, sorted by id', readOnly: true, load: () => import('./export.js') },
  { name: 'knowledge.import', summary: 'import entries from the text of an export (JSON array or NDJSON): all of them, or nothing when one is invalid', readOnly: false, load: () => import('./import.js') },
  { name: 'knowledge.prune', summary: 'list (or, with dryRun false, delete) old, rarely applied, low-priority entries, as the retention settings say', readOnly: false, load: () => import('./prune.js') },
];

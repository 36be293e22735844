// The player/coach operations: role constraints, quality gates, mode advice, the coach's prompt
// and the turn logs. Inputs use the records' field names (snake_case: task_type, feature_id, ...).
import type { OpEntry } from '../_define.js';

export const PLAYER_COACH_OPS: readonly OpEntry[] = [
  { name: 'roles.show', summary: "show a role's constraints (coach or player) for a project, each item with where it came from", readOnly: true, load: () => import('./roles-show.js') },
  { name: 'gates.show', summary: 'show the quality-gate thresholds of a task type and complexity for a project, each with where it came from', readOnly: true, load: () => import('./gates-show.js') },
  { name: 'gates.list', summary: 'list every quality-gate profile in effect for a project, each value with where it came from', readOnly: true, load: () => import('./gates-list.js') },
  { name: 'gates.check', summary: "check measured results (coverage, architecture review score, test counts) against the task's quality gates", readOnly: true, load: () => import('./gates-check.js') },
  { name: 'mode.suggest', summary: "suggest an implementation mode (direct, task_work, autobuild) for a task's complexity; advice only", readOnly: true, load: () => import('./mode-suggest.js') },
  { name: 'mode.list', summary: 'list the implementation modes in effect, each with where it came from', readOnly: true, load: () => import('./mode-list.js') },
  { name: 'prompt.coach', summary: "build the coach's prompt for a turn: role constraints, quality gates and the previous turn's context", readOnly: true, load: () => import('./prompt-coach.js') },
  { name: 'turn.record', summary: "record a player/coach turn in its feature's turn log; recording the same turn again updates it", readOnly: false, load: () => import('./turn-record.js') },
  { name: 'turn.latest', summary: "read the latest turn of a feature, and whether the coach's escalate_when rule applies", readOnly: true, load: () => import('./turn-latest.js') },
  { name: 'turn.list', summary: 'list every turn of a feature, by turn number', readOnly: true, load: () => import('./turn-list.js') },
  { name: 'turn.features', summary: "list a project's features that have a turn log, latest activity first, and the projects that have turn logs", readOnly: true, load: () => import('./turn-features.js') },
  { name: 'turn.complete', summary: 'mark a feature completed, so its turns may be pruned', readOnly: false, load: () => import('./turn-complete.js') },
  { name: 'turn.prune', summary: "apply the turn retention limits to a project's turn logs", readOnly: false, load: () => import('./turn-prune.js') },
];

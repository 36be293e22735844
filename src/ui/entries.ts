// What the knowledge screens share: the shape of entries as the operations return them, the
// badges they are shown with, and the fields lore maintains itself.
import type { OpError, Problem } from './api.js';
import { html } from './html.js';

/** A knowledge entry (schemas/knowledge-entry.schema.json); the screens read these fields. */
export interface Entry {
  id: string;
  type: 'recommendation' | 'prohibition' | 'learning';
  title: string;
  description: string;
  scope: string;
  priority: string;
  source: string;
  enabled: boolean;
  keywords: string[];
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  projectId?: string;
  agentTypes?: string[];
  validFrom?: string;
  validUntil?: string;
  capture?: { taskId: string; projectId: string; outcome: string; description: string; whatWorked?: string; whatFailed?: string; rootCause?: string };
  [field: string]: unknown;
}

/** Usage statistics of an entry (log/applications.ndjson). */
export interface Stats {
  timesApplied: number;
  timesHelpful: number;
  lastApplied?: string;
}

/** A record as record.list and record.show return it. */
export interface EntryRecord {
  kind: 'recommendation' | 'prohibition' | 'learning' | 'pending';
  id: string;
  file: string;
  value: Entry;
  stats?: Stats;
}

/** Fields lore sets itself: never edited in a form. */
export const MANAGED = ['type', 'createdAt', 'updatedAt'] as const;

/** A priority as a coloured badge. */
export function PriorityBadge({ priority }: { priority: string }) {
  return html`<span class=${`badge ${priority}`}>${priority}</span>`;
}

/** An entry type as a short badge: rec, pro, learn. */
export function TypeBadge({ type }: { type: string }) {
  return html`<span class=${`badge type-${type}`}>${type}</span>`;
}

/** The problems of an operation's failure, with pointers made relative to the entry (`/entry/title` → `/title`). */
export function entryProblems(error: OpError): Problem[] {
  const problems = error.body.problems.map((p) => (p.pointer === undefined ? p : { ...p, pointer: p.pointer.replace(/^\/(entry|set)(?=\/|$)/, '') }));
  return problems.length > 0 ? problems : [{ severity: 'error', message: error.body.hint === undefined ? error.body.message : `${error.body.message} (${error.body.hint})` }];
}

/** Whether a problem is about a knowledge entry's file (or the usage log). */
export function isEntryProblem(problem: Problem): boolean {
  return /(^|\/)knowledge\/(recommendations|prohibitions|learnings|pending)\/|(^|\/)log\/applications\.ndjson$/.test(problem.file ?? '');
}

/** "2026-01-31T12:00:00.000Z" → "2026-01-31 12:00". */
export function shortTime(value: string | undefined): string {
  return value === undefined ? '—' : value.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, '').replace(/(\.\d+)?Z$/, '');
}

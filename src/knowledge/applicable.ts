// When an entry applies (DESIGN.md §2): enabled, valid at the given time, and in scope — global
// always, project only for its projectId, agent_type only for the listed agent types.
import type { KnowledgeEntry, Priority } from '../types.js';

/** Where knowledge is being applied. */
export interface ApplyContext {
  projectId?: string | undefined;
  agentType?: string | undefined;
  now: Date;
}

export const PRIORITIES: readonly Priority[] = ['low', 'medium', 'high', 'critical'];

/** low 0, medium 1, high 2, critical 3. */
export function priorityRank(priority: Priority): number {
  return PRIORITIES.indexOf(priority);
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The first millisecond a validFrom applies: a date alone means the start of that day (UTC). */
export function validFromTime(value: string): number {
  return Date.parse(DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value);
}

/** The last millisecond a validUntil applies: a date alone means the whole of that day (UTC). */
export function validUntilTime(value: string): number {
  return Date.parse(DATE_ONLY.test(value) ? `${value}T23:59:59.999Z` : value);
}

/** Whether the entry's validity window contains `at`. */
export function isValidAt(entry: KnowledgeEntry, at: Date): boolean {
  const time = at.getTime();
  if (entry.validFrom !== undefined && time < validFromTime(entry.validFrom)) return false;
  if (entry.validUntil !== undefined && time > validUntilTime(entry.validUntil)) return false;
  return true;
}

/** Whether the entry's scope covers the project and agent type. */
export function inScope(entry: KnowledgeEntry, context: Omit<ApplyContext, 'now'>): boolean {
  switch (entry.scope) {
    case 'global':
      return true;
    case 'project':
      return context.projectId !== undefined && entry.projectId === context.projectId;
    case 'agent_type':
      return context.agentType !== undefined && (entry.agentTypes ?? []).includes(context.agentType);
  }
}

/**
 * Whether an entry applies: enabled, valid now, in scope.
 *
 * @example
 * isApplicable(entry, { projectId: 'shop', agentType: 'player', now: new Date() });
 */
export function isApplicable(entry: KnowledgeEntry, context: ApplyContext): boolean {
  return entry.enabled && isValidAt(entry, context.now) && inScope(entry, context);
}

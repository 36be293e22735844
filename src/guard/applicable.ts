// Whether a knowledge entry applies: enabled, valid at this time, and in scope for the project
// and role at hand (DESIGN.md §2).
import type { KnowledgeEntry } from '../types.js';

export interface ApplyContext {
  now: Date;
  project?: string | undefined;
  /** The agent type (role) acting, when known. */
  role?: string | undefined;
}

/** The end of a validUntil given as a plain date is the end of that day. */
function until(value: string): number {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T23:59:59.999Z`) : Date.parse(value);
}

/** Whether `entry` applies in `ctx`. */
export function isApplicable(entry: KnowledgeEntry, ctx: ApplyContext): boolean {
  if (!entry.enabled) return false;
  const now = ctx.now.getTime();
  if (entry.validFrom !== undefined && Date.parse(entry.validFrom) > now) return false;
  if (entry.validUntil !== undefined && until(entry.validUntil) < now) return false;
  if (entry.scope === 'project') return entry.projectId !== undefined && entry.projectId === ctx.project;
  if (entry.scope === 'agent_type') return ctx.role !== undefined && (entry.agentTypes ?? []).includes(ctx.role);
  return true;
}

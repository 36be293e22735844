// The one ordering of priorities, low < medium < high < critical: ranking, sorting, thresholds
// and the commit guard all read it from here. It imports nothing but a type, so the commit hook
// can load it without the parser or the validator.
import type { Priority } from './types.js';

/** Every priority, lowest first (the schemas' order). */
export const PRIORITIES: readonly Priority[] = ['low', 'medium', 'high', 'critical'];

/** low 0, medium 1, high 2, critical 3; -1 for a value that is not a priority. */
export function priorityRank(priority: Priority): number {
  return PRIORITIES.indexOf(priority);
}

// Filters for listing and exporting entries. Each given criterion must hold; a list of values
// (types, priorities, ...) means any of them.
import type { KnowledgeEntry, KnowledgeScope, KnowledgeSource, KnowledgeType, Priority } from '../types.js';
import { isValidAt } from './applicable.js';

export interface KnowledgeFilter {
  types?: readonly KnowledgeType[];
  scopes?: readonly KnowledgeScope[];
  /** Entries whose projectId is this project. */
  projectId?: string;
  /** Entries whose agentTypes list this agent type. */
  agentType?: string;
  priorities?: readonly Priority[];
  sources?: readonly KnowledgeSource[];
  enabled?: boolean;
  /** Entries valid at this time (validFrom/validUntil). */
  validAt?: Date;
  /** Case-insensitive text in the title, description, details, keywords or id. */
  text?: string;
}

function includes<T>(list: readonly T[] | undefined, value: T): boolean {
  return list === undefined || list.length === 0 || list.includes(value);
}

/**
 * Whether an entry passes every criterion of the filter.
 *
 * @example
 * matchesFilter(entry, { types: ['prohibition'], priorities: ['critical'], text: 'env' });
 */
export function matchesFilter(entry: KnowledgeEntry, filter: KnowledgeFilter): boolean {
  if (!includes(filter.types, entry.type) || !includes(filter.scopes, entry.scope)) return false;
  if (!includes(filter.priorities, entry.priority) || !includes(filter.sources, entry.source)) return false;
  if (filter.projectId !== undefined && entry.projectId !== filter.projectId) return false;
  if (filter.agentType !== undefined && !(entry.agentTypes ?? []).includes(filter.agentType)) return false;
  if (filter.enabled !== undefined && entry.enabled !== filter.enabled) return false;
  if (filter.validAt !== undefined && !isValidAt(entry, filter.validAt)) return false;
  if (filter.text !== undefined && filter.text !== '') {
    const needle = filter.text.toLowerCase();
    const haystack = [entry.id, entry.title, entry.description, entry.details ?? '', ...entry.keywords].join('\n').toLowerCase();
    if (!haystack.includes(needle)) return false;
  }
  return true;
}

/** Whether the filter has any criterion at all. */
export function isEmptyFilter(filter: KnowledgeFilter): boolean {
  return Object.values(filter).every((value) => value === undefined || (Array.isArray(value) && value.length === 0));
}

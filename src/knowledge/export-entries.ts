// Export: full entries with their usage statistics, in a stable order and key order, so an
// export of the same knowledge is always the same bytes.
import type { Problem } from '../errors.js';
import { loadSchema } from '../schema/schemas.js';
import { orderKeys } from '../store/canonical.js';
import type { Store } from '../store/open.js';
import { APPLIED_KINDS, loadOwnEntries } from './entries.js';
import { matchesFilter, type KnowledgeFilter } from './filter.js';
import { loadUsageStats, withStats, type EntryWithStats } from './stats.js';
import { byText } from '../text-order.js';

export type ExportFormat = 'json' | 'ndjson';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['json', 'ndjson'];

/**
 * The entries (recommendations, prohibitions, learnings; not pending ones) that pass the filter,
 * each with timesApplied, timesHelpful and lastApplied, sorted by id, keys in schema order.
 *
 * @example
 * const { entries } = await exportKnowledge({ store, filter: { types: ['prohibition'] } });
 */
export async function exportKnowledge(options: { store: Store; filter?: KnowledgeFilter }): Promise<{ entries: EntryWithStats[]; problems: Problem[] }> {
  const [loaded, usage] = await Promise.all([loadOwnEntries(options.store, APPLIED_KINDS), loadUsageStats(options.store.root)]);
  const schema = loadSchema('knowledge-entry');
  const entries = loaded.records
    .map((record) => record.value)
    .filter((entry) => matchesFilter(entry, options.filter ?? {}))
    .sort((a, b) => byText(a.id, b.id))
    // Schema order first; the statistics (not schema fields) follow in withStats' order.
    .map((entry) => orderKeys(withStats(entry, usage.stats), schema, schema) as EntryWithStats);
  return { entries, problems: [...loaded.problems, ...usage.problems] };
}

/** The text of an export: a JSON array (two-space indent) or one entry per line. */
export function formatExport(entries: readonly EntryWithStats[], format: ExportFormat): string {
  if (format === 'ndjson') return entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
  return `${JSON.stringify(entries, null, 2)}\n`;
}

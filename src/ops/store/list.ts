import { UsageError } from '../../errors.js';
import { readRecordsCached } from '../../indexer/record-cache.js';
import { withSourceEntries } from '../../knowledge/entries.js';
import { isEmptyFilter, matchesFilter, type KnowledgeFilter } from '../../knowledge/filter.js';
import { loadUsageStats, type UsageStats } from '../../knowledge/stats.js';
import { ENTRY_KINDS, RECORD_KINDS } from '../../store/layout.js';
import type { KnowledgeEntry } from '../../types.js';
import { defineOp } from '../_define.js';
import { isEntryKind, kindsFor, recordOutput, type RecordOutput } from './_records.js';

/** The filter as the input gives it: a date as text. */
export type FilterInput = Omit<KnowledgeFilter, 'validAt'> & { validAt?: string };

export const op = defineOp<{ kind?: string; filter?: FilterInput }, RecordOutput[]>({
  name: 'record.list',
  async run(input, { ws, note }) {
    const store = await ws.store();
    const { validAt, ...rest } = input.filter ?? {};
    const filter: KnowledgeFilter = { ...rest, ...(validAt === undefined ? {} : { validAt: new Date(validAt) }) };
    const filtered = !isEmptyFilter(filter);
    const kinds = input.kind === undefined ? (filtered ? ENTRY_KINDS : RECORD_KINDS) : kindsFor(input.kind);
    if (filtered && kinds.some((k) => !isEntryKind(k))) throw new UsageError('the filters select knowledge entries only', 'list entries, recommendations, prohibitions, learnings or pending with them');
    const result = await withSourceEntries(store, await readRecordsCached(store.root, { kinds, limits: store.config.limits }), kinds);
    const errors = result.problems.filter((p) => p.severity === 'error').length;
    if (errors > 0) note(`warning: ${errors} problem${errors === 1 ? '' : 's'} in the store; invalid files are left out (run "lore validate")`);
    const records = result.records.filter((r) => !isEntryKind(r.kind) || matchesFilter(r.value as KnowledgeEntry, filter));
    const usage = kinds.some(isEntryKind) ? (await loadUsageStats(store.root)).stats : new Map<string, UsageStats>();
    return records.map((r) => recordOutput(r, usage));
  },
});

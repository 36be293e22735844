// What record.list and record.show share: kind words people type, and a record as they return it.
import { UsageError } from '../../errors.js';
import { NO_USAGE, type UsageStats } from '../../knowledge/stats.js';
import { ENTRY_KINDS, KINDS, RECORD_KINDS, type RecordKindName } from '../../store/layout.js';
import type { StoreRecord } from '../../store/read.js';

// A Map: a word a caller types (constructor, __proto__) is never an object's inherited key.
const KIND_WORDS = new Map<string, readonly RecordKindName[]>([
  ['entries', ENTRY_KINDS],
  ['knowledge', ENTRY_KINDS],
  ['graph', ['entity']],
]);
for (const kind of RECORD_KINDS) {
  KIND_WORDS.set(kind, [kind]);
  const last = KINDS[kind].label.split(' ').pop()!;
  if (last !== 'records' && !KIND_WORDS.has(last)) KIND_WORDS.set(last, [kind]);
  if (!KIND_WORDS.has(`${kind}s`)) KIND_WORDS.set(`${kind}s`, [kind]);
}

/** The record kinds a word names: `prohibitions`, `gates`, `entries`, ... */
export function kindsFor(word: string): readonly RecordKindName[] {
  const kinds = KIND_WORDS.get(word.toLowerCase());
  if (kinds === undefined) throw new UsageError(`unknown kind "${word}"`, `kinds: ${[...KIND_WORDS.keys()].filter((w) => w.endsWith('s') || w === 'pending' || w === 'knowledge' || w === 'graph').join(', ')}`);
  return kinds;
}

/** Whether a kind holds knowledge entries. */
export const isEntryKind = (kind: RecordKindName): boolean => (ENTRY_KINDS as readonly string[]).includes(kind);

/** A record as record.list and record.show return it: knowledge entries with their usage statistics. */
export interface RecordOutput {
  kind: RecordKindName;
  id: string;
  file: string;
  value: unknown;
  stats?: UsageStats;
}

/** The output form of a record. */
export function recordOutput(record: StoreRecord, usage: ReadonlyMap<string, UsageStats>): RecordOutput {
  const base = { kind: record.kind, id: record.id, file: record.file, value: record.value };
  return isEntryKind(record.kind) ? { ...base, stats: usage.get(record.id) ?? NO_USAGE } : base;
}

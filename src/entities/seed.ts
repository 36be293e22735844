// `lore seed`: writes the system defaults with stable ids. Idempotent, and a record a person
// edited is never overwritten unless forced.
import { isDeepStrictEqual } from 'node:util';
import { displayPath, recordPath, type RecordKindName } from '../store/layout.js';
import { readRecord } from '../store/read.js';
import { writeStore, type StoreTransaction } from '../store/transaction.js';
import { putRecord } from '../store/write.js';
import { DEFAULT_GATES, DEFAULT_MODES, DEFAULT_ROLES } from './defaults.js';

export type SeedStatus = 'added' | 'kept' | 'skipped' | 'reset';

export interface SeedItem {
  kind: RecordKindName;
  id: string;
  file: string;
  status: SeedStatus;
  /** Why a record was skipped. */
  reason?: string;
}

export interface SeedOptions {
  /** Overwrite records that differ from the defaults. */
  force?: boolean;
  /** Report what would happen, write nothing. */
  dryRun?: boolean;
}

/** Every default record, in seeding order. */
export function defaultRecords(): SeedRecord[] {
  return [
    ...DEFAULT_ROLES.map((value) => ({ kind: 'role' as const, id: value.id, value })),
    ...DEFAULT_GATES.map((value) => ({ kind: 'gate' as const, id: value.id, value })),
    ...DEFAULT_MODES.map((value) => ({ kind: 'mode' as const, id: value.id, value })),
  ];
}

/** A record to seed: its kind, id and value. */
export interface SeedRecord {
  kind: RecordKindName;
  id: string;
  value: unknown;
}

/** Writes the defaults that are missing; reports what it added, kept and skipped. */
export async function seedDefaults(root: string, options: SeedOptions = {}): Promise<SeedItem[]> {
  return seedRecords(root, 'lore seed', defaultRecords(), options);
}

/**
 * Writes the records that are missing, all or none of them even across a crash (`operation` names
 * the write in the journal); a record equal to its seed is kept, one that differs is skipped
 * (reset with force). Under `withWriteLock` it joins the lock already held.
 */
export async function seedRecords(root: string, operation: string, records: readonly SeedRecord[], options: SeedOptions & { from?: string } = {}): Promise<SeedItem[]> {
  if (options.dryRun) return seedInto(root, undefined, records, options);
  return writeStore(root, operation, (tx) => seedInto(root, tx, records, options));
}

async function seedInto(root: string, tx: StoreTransaction | undefined, records: readonly SeedRecord[], options: SeedOptions & { from?: string }): Promise<SeedItem[]> {
  const items: SeedItem[] = [];
  const from = options.from ?? 'the default';
  for (const { kind, id, value } of records) {
    const file = displayPath(root, recordPath(root, kind, id));
    const existing = await readRecord(root, kind, id);
    // Values are compared, not bytes: a record that only differs in formatting is the default.
    if (existing?.record !== undefined && isDeepStrictEqual(existing.record.value, value)) {
      items.push({ kind, id, file, status: 'kept' });
    } else if (existing !== undefined && !options.force) {
      const reset = options.from === undefined ? '; --force resets it' : '';
      const reason = existing.record === undefined ? `is invalid; fix it${reset === '' ? '' : ', or --force resets it'}` : `differs from ${from} (edited by a person?)${reset}`;
      items.push({ kind, id, file, status: 'skipped', reason });
    } else {
      if (tx !== undefined) await putRecord(tx, kind, value);
      items.push({ kind, id, file, status: existing === undefined ? 'added' : 'reset' });
    }
  }
  return items;
}

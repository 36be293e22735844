// Adding, editing, enabling, disabling and removing knowledge entries. Each reads and writes under
// the store's write lock; every write goes through store/write.ts: validated first, canonical, atomic.
import { LoreError, ValidationError } from '../errors.js';
import { displayPath, recordPath } from '../store/layout.js';
import type { Store } from '../store/open.js';
import { withWriteLock, type StoreTransaction } from '../store/transaction.js';
import { checkValue, deleteRecord, writeRecord, type WriteResult } from '../store/write.js';
import type { KnowledgeEntry, KnowledgeType } from '../types.js';
import { findEntry, kindsHolding, newEntryId, resolveActor, timestamp, type EntryRecord } from './entries.js';
import { applyEdits, type Assignment, type FieldValues } from './set-fields.js';

export interface EntryWriteOptions {
  store: Store;
  /** Who is acting; default git's user.name/user.email. */
  actor?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  now?: Date | undefined;
}

export interface EntryWriteResult extends WriteResult {
  entry: KnowledgeEntry;
  warnings: string[];
}

/** Where an entry's problems are reported: the input it came from, or the file it goes to. */
function assertValid(store: Store, entry: KnowledgeEntry, kind: EntryRecord['kind'], shownAs?: string): void {
  const file = shownAs ?? displayPath(store.root, recordPath(store.root, kind, entry.id));
  const problems = checkValue(kind, entry, entry.id, file);
  if (problems.length > 0) throw new ValidationError(`the ${kind} ${entry.id} is invalid`, problems);
}

/** The scope an entry gets when none is given: project with a projectId, agent_type with agentTypes, else global. */
function defaultScope(input: Partial<KnowledgeEntry>): KnowledgeEntry['scope'] {
  if (input.projectId !== undefined) return 'project';
  if (input.agentTypes !== undefined && input.agentTypes.length > 0) return 'agent_type';
  return 'global';
}

/** A complete entry from partial input: id (free as `tx` leaves the files, when given), timestamps, author and defaults filled in. */
export async function completeEntry(store: Store, type: KnowledgeType, input: Partial<KnowledgeEntry>, options: Omit<EntryWriteOptions, 'store'> & { tx?: StoreTransaction } = {}): Promise<{ entry: KnowledgeEntry; warnings: string[] }> {
  const warnings: string[] = [];
  const at = timestamp(options.now);
  let createdBy = input.createdBy;
  if (createdBy === undefined) {
    const actor = await resolveActor(store.root, options);
    createdBy = actor.name;
    if (actor.warning !== undefined) warnings.push(actor.warning);
  }
  const entry = {
    ...input,
    id: input.id ?? (await newEntryId(store.root, type, input.title ?? '', new Set(), options.tx)),
    type,
    scope: input.scope ?? defaultScope(input),
    keywords: input.keywords ?? [],
    priority: input.priority ?? 'medium',
    source: input.source ?? 'manual',
    createdAt: input.createdAt ?? at,
    updatedAt: input.updatedAt ?? at,
    createdBy,
    enabled: input.enabled ?? true,
  } as KnowledgeEntry;
  return { entry, warnings };
}

/**
 * Adds an entry: generates a readable id (unless given), sets createdAt, updatedAt and createdBy,
 * validates it and writes one canonical file. Refuses an id that is already taken.
 *
 * @example
 * await addEntry({ store, type: 'prohibition', input: { title: 'Never commit .env files', description: '...', globs: ['**\/.env'], priority: 'critical' } });
 */
export async function addEntry(options: EntryWriteOptions & { type: KnowledgeType; input: Partial<KnowledgeEntry>; shownAs?: string }): Promise<EntryWriteResult> {
  const { store, type } = options;
  if (options.input.type !== undefined && options.input.type !== type) {
    throw new ValidationError(`the entry says type ${options.input.type}, but a ${type} is being added`, [{ severity: 'error', file: options.shownAs ?? '(input)', pointer: '/type', message: `type must be ${type} (found "${options.input.type}")` }]);
  }
  // The id is chosen (or checked) and the file written under one lock: two adds of the same
  // title get two ids, two adds of the same --id give one "exists" refusal.
  return withWriteLock(store.root, async () => {
    const { entry, warnings } = await completeEntry(store, type, options.input, options);
    if (options.input.id !== undefined && (await kindsHolding(store.root, entry.id)).length > 0) {
      throw new LoreError('CONFLICT', `an entry with id ${entry.id} already exists`, { hint: 'choose another id, or leave it out to have one generated; lore edit changes an existing entry' });
    }
    assertValid(store, entry, type, options.shownAs);
    const written = await writeRecord(store.root, type, entry);
    return { ...written, entry, warnings };
  });
}

/**
 * Edits an entry with `field=value` assignments or field values (null removes a field); sets
 * updatedAt. Works on pending entries too.
 *
 * @example
 * await editEntry({ store, id: 'rec-use-typescript-strict-mode', set: [{ field: 'priority', value: 'critical' }] });
 * await editEntry({ store, id: 'rec-use-typescript-strict-mode', set: { keywords: ['typescript'], details: null } });
 */
export async function editEntry(options: EntryWriteOptions & { id: string; set: readonly Assignment[] | FieldValues }): Promise<EntryWriteResult> {
  return withWriteLock(options.store.root, async () => {
    const record = await findEntry(options.store, options.id);
    const edited = applyEdits(record.value, options.set);
    return saveEdited(options, record, edited);
  });
}

/** Writes an edited entry back to its file with a new updatedAt, unless nothing changed. */
async function saveEdited(options: EntryWriteOptions, record: EntryRecord, edited: KnowledgeEntry): Promise<EntryWriteResult> {
  const unchanged = JSON.stringify(edited) === JSON.stringify(record.value);
  const entry = unchanged ? edited : { ...edited, updatedAt: timestamp(options.now) };
  assertValid(options.store, entry, record.kind);
  const written = await writeRecord(options.store.root, record.kind, entry);
  return { ...written, entry, warnings: [] };
}

/** Enables or disables an entry (a no-op, reported as unchanged, when it already is). */
export async function setEnabled(options: EntryWriteOptions & { id: string; enabled: boolean }): Promise<EntryWriteResult> {
  return withWriteLock(options.store.root, async () => {
    const record = await findEntry(options.store, options.id);
    return saveEdited(options, record, { ...record.value, enabled: options.enabled });
  });
}

/** Removes an entry by deleting its file; returns the file removed. */
export async function removeEntry(options: { store: Store; id: string }): Promise<{ id: string; kind: EntryRecord['kind']; file: string }> {
  return withWriteLock(options.store.root, async () => {
    const record = await findEntry(options.store, options.id);
    const file = await deleteRecord(options.store.root, record.kind, record.id);
    return { id: record.id, kind: record.kind, file: file ?? record.file };
  });
}

// Knowledge entries as the rest of src/knowledge/ sees them: loaded through the record cache,
// found by id across the entry folders, and given readable, stable ids.
import { join } from 'node:path';
import { LoreError, ValidationError, type Problem } from '../errors.js';
import { gitUser } from '../git/exec.js';
import { createHash } from 'node:crypto';
import { configuredSources, LOCK_PATH, pinnedSourceRecords } from '../extends/sources.js';
import { readTextIfExists } from '../fs/read-text.js';
import type { FilesLook } from '../indexer/file-stamps.js';
import { GitRecordCache } from '../indexer/git-records.js';
import { readRecordsCached } from '../indexer/record-cache.js';
import { suggest } from '../schema/suggest.js';
import { isValidId, slugify } from '../store/ids.js';
import { APPLIED_KINDS, ENTRY_KINDS, KINDS, knowledgeDir, type EntryKindName } from '../store/layout.js';
import type { Store } from '../store/open.js';
import { RECORD_EXTENSIONS } from '../store/record-files.js';
import { readRecord, type StoreRecord } from '../store/read.js';
import { StoreTransaction } from '../store/transaction.js';
import type { KnowledgeEntry, KnowledgeType } from '../types.js';

export type EntryRecord = StoreRecord<KnowledgeEntry> & { kind: EntryKindName };

/** The id prefix of each entry type: rec-, pro-, learn-. */
export const ID_PREFIX: Readonly<Record<KnowledgeType, string>> = { recommendation: 'rec-', prohibition: 'pro-', learning: 'learn-' };

export { APPLIED_KINDS } from '../store/layout.js';

export interface LoadedEntries {
  records: EntryRecord[];
  /** Problems in entry files; invalid files are left out. */
  problems: Problem[];
  /** The content identity of the files read (see readRecordsCached). */
  identity: string;
  /** The files' stamp (recordFilesStamp), when they are the store's own only and old enough to be trusted by it. */
  stamp?: string;
}

/**
 * Loads entries through the record cache (all four entry kinds unless told otherwise), with the
 * entries of the extends sources (see withSourceEntries).
 */
export async function loadEntries(store: Store, kinds: readonly EntryKindName[] = ENTRY_KINDS, options: LoadOptions = {}): Promise<LoadedEntries> {
  return withSourceEntries(store, await loadOwnEntries(store, kinds, options), kinds);
}

export interface LoadOptions {
  /** Called as files are read (for progress on long reads). */
  onProgress?: (done: number, total: number) => void;
  /** The entry files as just looked at (see readRecordsCached). */
  look?: FilesLook;
}

/** The store's own entries, through the record cache: what prune and export work on (a source's entries are its own to change). */
export async function loadOwnEntries(store: Store, kinds: readonly EntryKindName[] = ENTRY_KINDS, options: LoadOptions = {}): Promise<LoadedEntries> {
  const result = await readRecordsCached<KnowledgeEntry>(store.root, { kinds, limits: store.config.limits, ...options });
  return { records: result.records as EntryRecord[], problems: result.problems, identity: result.identity, ...(result.stamp === undefined ? {} : { stamp: result.stamp }) };
}

/**
 * The store's own entries with those of the extends sources pinned in .knowledge/extends.lock
 * (read offline from the fetched sources; never pending ones): a store's own entry replaces a
 * source's of the same id. A source's entries are labelled `extends:<source>/<path>` where a file
 * is shown; a lock config.yaml does not match, or a pin this clone has not fetched, is a problem.
 * With sources, the result has no stamp: the files' stamp does not cover them.
 */
export async function withSourceEntries<R extends { id: string }>(store: Store, local: { records: R[]; problems: Problem[]; identity: string; stamp?: string }, kinds: readonly string[]): Promise<{ records: R[]; problems: Problem[]; identity: string; stamp?: string }> {
  const sourceKinds = APPLIED_KINDS.filter((kind) => kinds.includes(kind));
  const lockText = await readTextIfExists(join(store.root, LOCK_PATH));
  if (sourceKinds.length === 0 || (lockText === undefined && configuredSources(store.config).length === 0)) return local;
  const cache = new GitRecordCache(store.root);
  const read = await pinnedSourceRecords(store.root, cache, store.config, lockText, sourceKinds, store.env);
  await cache.save();
  const own = new Map(local.records.map((r) => [r.id, r]));
  // A source's critical prohibition is not weakened by the store's own entry of its id (disabled,
  // not critical): the commit guard applies the source's, so the knowledge base shows that one.
  const binding = (e: KnowledgeEntry): boolean => e.type === 'prohibition' && e.priority === 'critical' && e.enabled;
  const replaced = new Map<string, R>();
  const notes: Problem[] = [];
  for (const r of read.records) {
    const mine = own.get(r.id) as unknown as EntryRecord | undefined;
    if (mine === undefined || !binding(r.value as KnowledgeEntry) || binding(mine.value)) continue;
    replaced.set(r.id, r as unknown as R);
    notes.push({ severity: 'warning', file: mine.file, message: `would weaken ${r.id}, a critical prohibition of the extends source ${r.source}: the source's version applies (an allowlist record is the way past it)` });
  }
  const fromSources = read.records.filter((r) => !own.has(r.id)) as unknown as R[];
  return {
    records: [...local.records.map((r) => replaced.get(r.id) ?? r), ...fromSources],
    problems: [...local.problems, ...read.problems, ...notes],
    identity: `${local.identity}\0extends:${createHash('sha1').update(lockText ?? '').digest('hex')}`,
  };
}

/** The extends source a loaded record comes from (its file is labelled extends:<source>/...), or undefined for the store's own. */
export function sourceOf(record: { file: string }): string | undefined {
  return record.file.startsWith('extends:') ? record.file.slice('extends:'.length).split('/')[0] : undefined;
}

/** The entry kinds holding a file for this id (normally none or one); inside a transaction, as it leaves them. */
export async function kindsHolding(root: string, id: string, tx = new StoreTransaction(root)): Promise<EntryKindName[]> {
  if (!isValidId(id)) return [];
  const found: EntryKindName[] = [];
  for (const kind of ENTRY_KINDS) {
    for (const ext of RECORD_EXTENSIONS) {
      if (await tx.exists(join(knowledgeDir(root), KINDS[kind].dir, id + ext))) {
        found.push(kind);
        break;
      }
    }
  }
  return found;
}

/**
 * Finds one entry by id in any entry folder; throws NOT_FOUND (with a "did you mean") when no
 * file holds it, and a ValidationError when its file is invalid.
 *
 * @example
 * const { kind, value } = await findEntry(store, 'pro-never-commit-env-files');
 */
export async function findEntry(store: Store, id: string, kinds: readonly EntryKindName[] = ENTRY_KINDS): Promise<EntryRecord> {
  for (const kind of isValidId(id) ? kinds : []) {
    const result = await readRecord<KnowledgeEntry>(store.root, kind, id, store.config.limits);
    if (result === undefined) continue;
    if (result.record === undefined) throw new ValidationError(`the entry ${id} is invalid`, result.problems, { hint: 'fix it, then run "lore validate"' });
    return result.record as EntryRecord;
  }
  const loaded = (await loadEntries(store, kinds)).records;
  const fromSource = loaded.find((r) => r.id === id);
  if (fromSource !== undefined) {
    throw new LoreError('NOT_FOUND', `${id} comes from an extends source (${fromSource.file}), not from this store`, {
      hint: 'change it in the source repository and lore sync --update; or add an entry of the same id here, which overrides it (a source\'s critical prohibition still binds the commit guard)',
    });
  }
  const known = loaded.map((r) => r.id);
  const hint = suggest(id, known);
  const where = kinds.length === 1 ? ` among ${KINDS[kinds[0]!].label}` : '';
  throw new LoreError('NOT_FOUND', `no knowledge entry with id ${JSON.stringify(id)}${where}`, { hint: hint === undefined ? 'lore list entries shows every id' : `did you mean ${hint}?` });
}

/**
 * A readable id for a new entry: the type's prefix and the slug of the title, with -2, -3, ...
 * when that id is taken by a file (as `tx` leaves them, when given) or by `taken`.
 *
 * @example
 * await newEntryId(root, 'prohibition', 'Never commit .env files'); // → 'pro-never-commit-env-files'
 */
export async function newEntryId(root: string, type: KnowledgeType, title: string, taken: ReadonlySet<string> = new Set(), tx?: StoreTransaction): Promise<string> {
  return freeIdLike(root, `${ID_PREFIX[type]}${slugify(title) || 'entry'}`, 1, taken, tx);
}

/** `base` (from n = 1) or `base-n`: the first that no file (as `tx` leaves them) and nothing in `taken` holds. */
export async function freeIdLike(root: string, base: string, from: number, taken: ReadonlySet<string>, tx?: StoreTransaction): Promise<string> {
  for (let n = from; ; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(id) && (await kindsHolding(root, id, tx)).length === 0) return id;
  }
}

export interface Actor {
  /** "Name <email>" from git config, the given override, or "unknown". */
  name: string;
  /** Set when git has no identity and "unknown" was used. */
  warning?: string;
}

/** Who is acting: an explicit name, else git's user.name/user.email, else "unknown" with a warning. */
export async function resolveActor(root: string, options: { actor?: string | undefined; env?: NodeJS.ProcessEnv | undefined }): Promise<Actor> {
  if (options.actor !== undefined && options.actor !== '') return { name: options.actor };
  const user = await gitUser(root, options.env);
  if (user !== undefined) return { name: user };
  return { name: 'unknown', warning: 'git has no user.name or user.email here, so "unknown" was recorded; set them with git config' };
}

/** An ISO 8601 timestamp with milliseconds, as lore writes them. */
export function timestamp(now: Date = new Date()): string {
  return now.toISOString();
}

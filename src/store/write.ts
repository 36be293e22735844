// Writing records: validated first, serialised canonically, applied through a transaction (under
// the store's write lock, all or nothing), and left alone (byte for byte) when nothing changed.
import { join } from 'node:path';
import { ValidationError, type Problem } from '../errors.js';
import { loadSchema } from '../schema/schemas.js';
import { validateAgainst } from '../schema/validate.js';
import { readTextIfExists } from '../fs/read-text.js';
import { toCanonicalYaml } from './canonical.js';
import { depthMessage } from './json-text.js';
import { tooDeep } from './parse.js';
import { displayPath, KINDS, knowledgeDir, recordPath, schemaComment, type RecordKindName } from './layout.js';
import { RECORD_EXTENSIONS } from './record-files.js';
import { checkRecord } from './rules.js';
import { loadConfig } from './open.js';
import { writeStore, type StoreTransaction } from './transaction.js';
import type { LimitsConfig } from '../types.js';

export type WriteStatus = 'created' | 'updated' | 'unchanged';

export interface WriteResult {
  /** Path relative to the store root. */
  file: string;
  status: WriteStatus;
}

/** The id of a record value of a kind (the file stem for overrides, which carry no id field). */
export function recordId(kind: RecordKindName, value: unknown, fallback?: string): string {
  const field = KINDS[kind].idField;
  const id = field === undefined ? ((value as { project?: string }).project ?? fallback) : (value as Record<string, unknown>)[field];
  if (typeof id !== 'string') throw new ValidationError(`cannot tell which ${kind} this is: it has no ${field ?? 'project'}`, []);
  return id;
}

/** Validates a record value as `kind` (schema and rules); returns the problems, located by pointer. */
export function checkValue(kind: RecordKindName, value: unknown, id: string, file: string): Problem[] {
  const spec = KINDS[kind];
  const schemaIssues = validateAgainst(spec.schema, value);
  const issues = schemaIssues.length > 0 ? schemaIssues : checkRecord(kind, value, spec.stem(id));
  return issues.map((issue) => ({ severity: 'error', file, pointer: issue.pointer, message: issue.message }));
}

/** The store's limits (config.yaml's, else the defaults), read once per transaction. */
const limitsOf = new WeakMap<StoreTransaction, Promise<LimitsConfig>>();
function transactionLimits(tx: StoreTransaction): Promise<LimitsConfig> {
  let limits = limitsOf.get(tx);
  if (limits === undefined) limitsOf.set(tx, (limits = loadConfig(tx.root).then(({ config }) => config.limits)));
  return limits;
}

/** The canonical file text of a record. */
export function renderRecord(kind: RecordKindName, value: unknown): string {
  return toCanonicalYaml(value, loadSchema(KINDS[kind].schema), schemaComment(kind));
}

/** A file's content as a transaction sees it: what it staged, else what is on disk (undefined: no file). */
async function current(tx: StoreTransaction, path: string): Promise<string | undefined> {
  const staged = tx.staged(path);
  if (staged !== undefined) return staged ?? undefined;
  return (await tx.exists(path)) ? readTextIfExists(path) : undefined;
}

/**
 * Validates a record and stages it, in canonical form, in a transaction. Refuses an invalid
 * record (nothing is staged); stages nothing when the file already holds exactly this text.
 */
export async function putRecord(tx: StoreTransaction, kind: RecordKindName, value: unknown, options: { id?: string } = {}): Promise<WriteResult> {
  const { root } = tx;
  const id = options.id ?? recordId(kind, value);
  const path = recordPath(root, kind, id);
  const file = displayPath(root, path);
  // Within the limits the file will be read under: a record lore could not read back is never written.
  const limits = await transactionLimits(tx);
  if (tooDeep(value, limits.max_depth)) throw new ValidationError(`refusing to write ${file}: the record is invalid`, [{ severity: 'error', file, message: depthMessage(limits.max_depth) }]);
  const problems = checkValue(kind, value, id, file);
  if (problems.length > 0) throw new ValidationError(`refusing to write ${file}: the record is invalid`, problems);
  const text = renderRecord(kind, value);
  const bytes = Buffer.byteLength(text);
  if (bytes > limits.max_file_bytes) {
    throw new ValidationError(`refusing to write ${file}: the record is invalid`, [{ severity: 'error', file, message: `the file would be ${bytes} bytes, over the limit of ${limits.max_file_bytes} bytes (limits.max_file_bytes in config.yaml): lore could not read it back` }]);
  }
  const existing = await current(tx, path);
  if (existing === text) return { file, status: 'unchanged' };
  tx.write(path, text);
  // A record hand-written as .yml or .json is replaced by its canonical .yaml.
  const stem = KINDS[kind].stem(id);
  for (const ext of RECORD_EXTENSIONS.filter((e) => e !== '.yaml')) {
    const other = join(knowledgeDir(root), KINDS[kind].dir, stem + ext);
    if ((await current(tx, other)) !== undefined) tx.delete(other);
  }
  return { file, status: existing === undefined ? 'created' : 'updated' };
}

/** Stages the deletion of a record's file(s) in a transaction; returns its path, or undefined when there was none. */
export async function removeRecord(tx: StoreTransaction, kind: RecordKindName, id: string): Promise<string | undefined> {
  const stem = KINDS[kind].stem(id);
  let deleted: string | undefined;
  for (const ext of RECORD_EXTENSIONS) {
    const path = join(knowledgeDir(tx.root), KINDS[kind].dir, stem + ext);
    if ((await current(tx, path)) === undefined) continue;
    tx.delete(path);
    deleted = displayPath(tx.root, path);
  }
  return deleted;
}

/**
 * Validates and writes one record in canonical form, under the store's write lock (inside another
 * write, as part of it). Refuses invalid records (nothing is written); rewrites nothing when the
 * file already holds exactly this text.
 *
 * @example
 * await writeRecord(root, 'prohibition', entry); // → { file: '.knowledge/knowledge/prohibitions/pro-x.yaml', status: 'created' }
 */
export function writeRecord(root: string, kind: RecordKindName, value: unknown, options: { id?: string } = {}): Promise<WriteResult> {
  return writeStore(root, `write ${kind}`, (tx) => putRecord(tx, kind, value, options));
}

/** Deletes a record's file under the store's write lock; returns its path, or undefined when there was none. */
export function deleteRecord(root: string, kind: RecordKindName, id: string): Promise<string | undefined> {
  return writeStore(root, `delete ${kind}`, (tx) => removeRecord(tx, kind, id));
}

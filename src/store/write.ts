// Writing records: validated first, serialised canonically, replaced atomically, and left alone
// (byte for byte) when nothing changed.
import { join } from 'node:path';
import { ValidationError, type Problem } from '../errors.js';
import { loadSchema } from '../schema/schemas.js';
import { validateAgainst } from '../schema/validate.js';
import { writeFileAtomic, unlinkDurable } from '../fs/atomic-write.js';
import { readTextIfExists } from '../fs/read-text.js';
import { toCanonicalYaml } from './canonical.js';
import { displayPath, KINDS, knowledgeDir, recordPath, schemaComment, type RecordKindName } from './layout.js';
import { RECORD_EXTENSIONS } from './read.js';
import { checkRecord } from './rules.js';

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

/** The canonical file text of a record. */
export function renderRecord(kind: RecordKindName, value: unknown): string {
  return toCanonicalYaml(value, loadSchema(KINDS[kind].schema), schemaComment(kind));
}

/**
 * Validates and writes one record in canonical form. Refuses invalid records (nothing is
 * written); rewrites nothing when the file already holds exactly this text.
 *
 * @example
 * await writeRecord(root, 'prohibition', entry); // → { file: '.knowledge/knowledge/prohibitions/pro-x.yaml', status: 'created' }
 */
export async function writeRecord(root: string, kind: RecordKindName, value: unknown, options: { id?: string } = {}): Promise<WriteResult> {
  const id = options.id ?? recordId(kind, value);
  const path = recordPath(root, kind, id);
  const file = displayPath(root, path);
  const problems = checkValue(kind, value, id, file);
  if (problems.length > 0) throw new ValidationError(`refusing to write ${file}: the record is invalid`, problems);
  const text = renderRecord(kind, value);
  const existing = await readTextIfExists(path);
  if (existing === text) return { file, status: 'unchanged' };
  await writeFileAtomic(path, text);
  // A record hand-written as .yml or .json is replaced by its canonical .yaml.
  const stem = KINDS[kind].stem(id);
  for (const ext of RECORD_EXTENSIONS.filter((e) => e !== '.yaml')) await unlinkDurable(join(knowledgeDir(root), KINDS[kind].dir, stem + ext));
  return { file, status: existing === undefined ? 'created' : 'updated' };
}

/** Deletes a record's file; returns its path, or undefined when there was none. */
export async function deleteRecord(root: string, kind: RecordKindName, id: string): Promise<string | undefined> {
  const stem = KINDS[kind].stem(id);
  let deleted: string | undefined;
  for (const ext of RECORD_EXTENSIONS) {
    const path = join(knowledgeDir(root), KINDS[kind].dir, stem + ext);
    if (await unlinkDurable(path)) deleted = displayPath(root, path);
  }
  return deleted;
}

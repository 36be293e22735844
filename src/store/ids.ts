// Ids become file names, so they are checked before they touch the file system, and free-form
// names (graph entities) get an injective, case-safe slug.
import { createHash } from 'node:crypto';
import { LoreError } from '../errors.js';

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Whether an id is safe to use as a file name: no separators, no `..`, no control characters. */
export function isValidId(id: string): boolean {
  return ID.test(id) && !id.includes('..');
}

/** Throws unless the id is safe to use as a file name. */
export function assertValidId(id: string, what = 'id'): void {
  if (!isValidId(id)) {
    throw new LoreError('INVALID_ID', `${what} ${JSON.stringify(id)} is not allowed: it must start with a letter or digit, contain only letters, digits, '.', '_' and '-', have no '..', and be at most 128 characters`);
  }
}

/** Turns free text into a readable id fragment: "Never commit .env files!" → "never-commit-env-files". */
export function slugify(text: string, maxLength = 60): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, maxLength).replace(/-+$/, '');
}

const SAFE_STEM = /^[a-z0-9][a-z0-9_-]*$/;
const HASHED_STEM = /-[0-9a-f]{12}$/;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

/**
 * The file stem of a graph entity. Names that are already lower-case slugs keep their name;
 * every other name gets a readable slug plus a hash of the exact name, so two names never share
 * a file, also on case-insensitive file systems ("Auth" and "auth" differ).
 */
export function entityFileStem(name: string): string {
  if (SAFE_STEM.test(name) && name.length <= 80 && !HASHED_STEM.test(name) && !WINDOWS_RESERVED.test(name)) return name;
  const hash = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 12);
  const readable = slugify(name, 60);
  return readable === '' ? `entity-${hash}` : `${readable}-${hash}`;
}

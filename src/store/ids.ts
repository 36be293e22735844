// Ids become file names, so they are checked before they touch the file system, and free-form
// names (graph entities) get an injective, case-safe slug.
import { createHash } from 'node:crypto';
import { LoreError } from '../errors.js';

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Windows device names: a file named CON, nul.txt or Com1.yaml cannot be created or checked out
 * there, whatever its case or extension, so such a name is never a file lore writes.
 */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/i;

/** Whether a file name (or its stem) is a Windows device name, in any case, with or without an extension. */
export function isWindowsDeviceName(name: string): boolean {
  return WINDOWS_DEVICE.test(name);
}

/** Why an id cannot be a file name, or undefined when it can. */
export function invalidIdReason(id: string): string | undefined {
  if (!ID.test(id) || id.includes('..')) return "it must start with a letter or digit, contain only letters, digits, '.', '_' and '-', have no '..', and be at most 128 characters";
  if (WINDOWS_DEVICE.test(id)) return `${id.split('.')[0]!.toUpperCase()} is a Windows device name (CON, PRN, AUX, NUL, COM0-COM9, LPT0-LPT9), so no file can have it`;
  return undefined;
}

/** Whether an id is safe to use as a file name: no separators, no `..`, no control characters, no Windows device name. */
export function isValidId(id: string): boolean {
  return invalidIdReason(id) === undefined;
}

/** Throws unless the id is safe to use as a file name. */
export function assertValidId(id: string, what = 'id'): void {
  const reason = invalidIdReason(id);
  if (reason !== undefined) throw new LoreError('INVALID_ID', `${what} ${JSON.stringify(id)} is not allowed: ${reason}`);
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

/**
 * The file stem of a graph entity. Names that are already lower-case slugs keep their name;
 * every other name gets a readable slug plus a hash of the exact name, so two names never share
 * a file, also on case-insensitive file systems ("Auth" and "auth" differ). A device name ("Con",
 * "nul") is never refused: its stem gets the hash too ("con-…"), which Windows accepts.
 */
export function entityFileStem(name: string): string {
  if (SAFE_STEM.test(name) && name.length <= 80 && !HASHED_STEM.test(name) && !WINDOWS_DEVICE.test(name)) return name;
  const hash = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 12);
  const readable = slugify(name, 60);
  return readable === '' ? `entity-${hash}` : `${readable}-${hash}`;
}

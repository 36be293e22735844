// Nothing under `.knowledge/` is read or written through a symbolic link: a cloned repository may
// hold one pointing anywhere (a token in ~/.config, /etc), and following it would print what it
// points to, or write outside the repository. Files are opened with O_NOFOLLOW; the folders
// between `.knowledge` and a file are checked with lstat before they are used.
import { constants, lstatSync, readlinkSync } from 'node:fs';
import { sep } from 'node:path';
import { isErrno, LoreError } from '../errors.js';

/** Open flag that makes opening a symlink fail with ELOOP (0 where the platform has none). */
export const O_NOFOLLOW: number = constants.O_NOFOLLOW ?? 0;

/**
 * Flags to open a file for reading without following a symlink; non-blocking, so that a FIFO put
 * where a file should be (a clone cannot hold one, a hostile process can make one) is opened at
 * once and then refused as not a file, never waited on. Reading a regular file is the same.
 */
export const READ_NOFOLLOW = constants.O_RDONLY | O_NOFOLLOW | (constants.O_NONBLOCK ?? 0);

const STORE_DIR = '.knowledge';

/** Folders already found to be real (not symlinks), so thousands of files in one folder cost one check. */
const checked = new Set<string>();

/** A path inside a store as lore prints it: from `.knowledge/` on (any other path as it is). */
export function shown(path: string): string {
  const parts = path.split(sep);
  const base = parts.lastIndexOf(STORE_DIR);
  return base === -1 ? path : parts.slice(base).join('/');
}

/** The error for a symlink met inside the store, naming it and where it points. */
export function symlinkError(path: string): LoreError {
  let target = '';
  try {
    target = ` (it points to ${readlinkSync(path)})`;
  } catch {
    // gone meanwhile, or not a link after all: the path is still the one to look at
  }
  return new LoreError('SYMLINK', `${shown(path)} is a symbolic link${target}: lore never follows symlinks inside ${STORE_DIR}/`, {
    hint: 'replace it with the real file or folder',
  });
}

/**
 * Throws SYMLINK when a folder on the way from the `.knowledge` folder (included) to `path` is a
 * symlink. Paths outside a store are not checked; folders that do not exist yet are fine (they
 * are created as real folders).
 */
export function assertNoSymlinkedDirs(path: string): void {
  checkChain(path.split(sep), false);
}

/** Like assertNoSymlinkedDirs, and `dir` itself must not be a symlink either. */
export function assertRealDir(dir: string): void {
  checkChain(dir.split(sep), true);
}

function checkChain(parts: readonly string[], includeLast: boolean): void {
  const base = parts.lastIndexOf(STORE_DIR);
  if (base === -1) return;
  for (let end = base + 1; end <= parts.length - (includeLast ? 0 : 1); end++) {
    const dir = parts.slice(0, end).join(sep);
    if (checked.has(dir)) continue;
    let info;
    try {
      info = lstatSync(dir);
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return;
      throw error;
    }
    if (info.isSymbolicLink()) throw symlinkError(dir);
    if (!info.isDirectory()) return; // not a folder: the caller's open or mkdir says so
    checked.add(dir);
  }
}

/** Whether a path lies inside a `.knowledge/` folder, where symlinks are never followed. */
export function inStore(path: string): boolean {
  return path.split(sep).includes(STORE_DIR);
}

/** Forgets which folders were checked (a long-lived process calls this when files change under it). */
export function forgetCheckedDirs(): void {
  checked.clear();
}

/** Turns ELOOP from an O_NOFOLLOW open into the SYMLINK error; anything else is rethrown as is. */
export function rethrowSymlink(error: unknown, path: string): never {
  if (isErrno(error, 'ELOOP')) throw symlinkError(path);
  throw error;
}

// Durable file replacement: a reader sees the old file or the new one, never half of either,
// and a crash at any point leaves one of the two.
import { randomBytes } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isErrno, LoreError } from '../errors.js';
import { assertNoSymlinkedDirs, shown } from './no-follow.js';

/** fsyncs a directory so a rename or unlink in it survives a crash (a no-op where unsupported). */
export async function fsyncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    // Some platforms (Windows) cannot open or fsync a directory; the rename is still atomic there.
    if (!isErrno(error, 'EISDIR') && !isErrno(error, 'EPERM') && !isErrno(error, 'EINVAL') && !isErrno(error, 'EACCES')) throw error;
  } finally {
    await handle?.close();
  }
}

/**
 * Makes a folder and those above it (mkdir -p). When something on the way exists and is not a
 * folder (a file where lore keeps a folder of records), says which, instead of mkdir's EEXIST.
 */
export async function makeFolder(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    if (!isErrno(error, 'EEXIST') && !isErrno(error, 'ENOTDIR')) throw error;
    // Up from `dir` to the first thing that exists: a folder means the failure was something else (a race).
    for (let at = dir; at !== dirname(at); at = dirname(at)) {
      let isFolder: boolean;
      try {
        isFolder = lstatSync(at).isDirectory();
      } catch {
        continue; // missing: the culprit is further up
      }
      if (!isFolder) throw new LoreError('IO', `${shown(at)} is a file, not a folder, so nothing can be written under it`, { hint: 'move that file away (lore keeps a folder there), then run the command again' });
      break;
    }
    throw error;
  }
}

/**
 * Writes a file atomically: temp file in the same folder, fsync, rename over the target, fsync the
 * folder. Inside a store, refuses a symlinked folder on the way; the rename replaces a symlink at
 * the target itself instead of writing where it points. `durable: false` skips the fsyncs, for
 * caches: still never half a file to a reader, but a crash may lose the write (the cache is rebuilt).
 * `mode` is the new file's permissions (0600 for a file holding a secret).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: { durable?: boolean; mode?: number } = {}): Promise<void> {
  const durable = options.durable ?? true;
  const dir = dirname(path);
  // Before mkdir, which would follow a symlinked folder and create folders wherever it points.
  assertNoSymlinkedDirs(path);
  await makeFolder(dir);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', options.mode ?? 0o644);
  try {
    await handle.writeFile(data);
    if (durable) await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  if (durable) await fsyncDir(dir);
}

/** Deletes a file durably; returns false when it did not exist. */
export async function unlinkDurable(path: string): Promise<boolean> {
  assertNoSymlinkedDirs(path);
  try {
    await unlink(path);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return false;
    throw error;
  }
  await fsyncDir(dirname(path));
  return true;
}

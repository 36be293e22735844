// Reading a text file that may not exist, and a file up to a size cap.
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { isErrno, LoreError } from '../errors.js';
import { assertNoSymlinkedDirs, inStore, READ_NOFOLLOW, rethrowSymlink } from './no-follow.js';

/** The file's text, or undefined when it does not exist; other errors are thrown. Never through a symlink inside a store. */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  assertNoSymlinkedDirs(path);
  try {
    return await readFile(path, { encoding: 'utf8', flag: inStore(path) ? READ_NOFOLLOW : 'r' });
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    return rethrowSymlink(error, path);
  }
}

/** readTextIfExists, synchronously (a cache read while a command starts). */
export function readTextIfExistsSync(path: string): string | undefined {
  return readIfExistsSync(path, 'utf8');
}

/** The file's bytes, or undefined when it does not exist; synchronously, never through a symlink inside a store. */
export function readBytesIfExistsSync(path: string): Buffer | undefined {
  return readIfExistsSync(path);
}

/** A file opened for reading (its descriptor), or undefined when it does not exist; never through a symlink inside a store. */
export function openIfExistsSync(path: string): number | undefined {
  assertNoSymlinkedDirs(path);
  try {
    return openSync(path, inStore(path) ? READ_NOFOLLOW : 'r');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    return rethrowSymlink(error, path);
  }
}

/**
 * A file modified this close to the moment it was looked at may change again within the same time
 * tick (file times advance by the kernel's clock tick, not by the nanosecond): its times do not
 * identify its content yet.
 */
export const RACY_MS = 2000;

/** What readParsedIfExistsSync parsed, by path: the parser, the file's identity, the parse. */
const parsed = new Map<string, { parse: unknown; identity: string; value: unknown }>();

/**
 * `parse` of the file's bytes, or undefined when it does not exist; never through a symlink inside a
 * store. The parse is kept while the file stays the same one (device, inode, size, modification and
 * change times), once it is older than RACY_MS: a process reading a cache file again and again
 * (lore serve answering commit hooks) reads and parses it once per version, and a rewritten or
 * replaced file (lore writes its caches by renaming a new file into place) is read anew.
 */
export function readParsedIfExistsSync<T>(path: string, parse: (bytes: Buffer) => T): T | undefined {
  const fd = openIfExistsSync(path);
  if (fd === undefined) {
    parsed.delete(path);
    return undefined;
  }
  try {
    const info = fstatSync(fd, { bigint: true });
    const identity = `${info.dev} ${info.ino} ${info.size} ${info.mtimeNs} ${info.ctimeNs}`;
    const known = parsed.get(path);
    if (known !== undefined && known.parse === parse && known.identity === identity) return known.value as T;
    const value = parse(readFileSync(fd));
    if (Number(info.ctimeMs) < Date.now() - RACY_MS) parsed.set(path, { parse, identity, value });
    else parsed.delete(path);
    return value;
  } finally {
    closeSync(fd);
  }
}

function readIfExistsSync(path: string): Buffer | undefined;
function readIfExistsSync(path: string, encoding: 'utf8'): string | undefined;
function readIfExistsSync(path: string, encoding?: 'utf8'): Buffer | string | undefined {
  const fd = openIfExistsSync(path);
  if (fd === undefined) return undefined;
  try {
    return encoding === undefined ? readFileSync(fd) : readFileSync(fd, encoding);
  } finally {
    closeSync(fd);
  }
}

/** Fills `bytes` from the open file `fd`, starting at `position`; throws when the file ends first. */
export function readExactlySync(fd: number, bytes: Uint8Array, position: number): void {
  for (let read = 0; read < bytes.length; ) {
    const n = readSync(fd, bytes, read, bytes.length - read, position + read);
    if (n === 0) throw new Error('the file is cut short');
    read += n;
  }
}

/**
 * The bytes of a file a person or a caller names (a baseline, a memory file): a link is followed,
 * but what is opened must be a regular file, opened without waiting (a FIFO is refused at once,
 * never waited on). Errors as readFile's (ENOENT for a missing file).
 */
export async function readRegularFile(path: string): Promise<Buffer> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    if (!(await handle.stat()).isFile()) throw new LoreError('IO', `${path} is not a regular file`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** Reads a file of at most `max` bytes; returns its size instead when it is larger (nothing read). */
export function readCapped(path: string, max: number): { bytes: Buffer } | { size: number } {
  assertNoSymlinkedDirs(path);
  // Synchronous on purpose: thousands of small files read faster this way than through the thread pool.
  let fd: number;
  try {
    fd = openSync(path, READ_NOFOLLOW);
  } catch (error) {
    return rethrowSymlink(error, path);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new LoreError('IO', `${path} is not a regular file`);
    const { size } = info;
    if (size > max) return { size };
    const buffer = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return { bytes: read === size ? buffer : buffer.subarray(0, read) };
  } finally {
    closeSync(fd);
  }
}

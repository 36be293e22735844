// The stamp of the record files of some kinds: one listing per folder and one lstat per file,
// hashed into one string. It changes when a file is added, removed or renamed, or when its size,
// modification time, change time or inode changes: what the record cache trusts a file by. The
// change time is set by the system on every write and cannot be put back by hand, so an edit that
// keeps the size and restores the modification time still changes the stamp. A cache keyed by it
// (the knowledge index snapshot) is as current as the record cache, without reading the record
// cache. Light on purpose: no parser, no validator.
import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Problem } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { writeCache } from '../fs/cache-writes.js';
import { assertRealDir } from '../fs/no-follow.js';
import { RACY_MS, readTextIfExistsSync } from '../fs/read-text.js';
import { CACHE_DIR, knowledgeDir, type RecordKindName } from '../store/layout.js';
import { isRecordName, listRecordFilesOrProblem, RECORD_EXTENSIONS, recordDir } from '../store/record-files.js';
import { parseFolderLook, takeFolderLook, type StartedLook } from './early-look.js';

/** The stamp of find's last output (fromEarlyLook), in .knowledge/.cache/. */
export const LOOK_MEMO = 'entry-look.json';
/** Bump when the stamp is made otherwise: a memo of another format is not read. */
const LOOK_FORMAT = 'lore-look/1';

/** A file modified this close to the moment it was stamped may change again within the same mtime tick. */
export { RACY_MS };

/** What a file is trusted by: its size, modification and change times, inode. */
export interface Signature {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/** Builds a stamp file by file, in the order the files are listed. */
export class StampBuilder {
  private readonly paths: string[] = [];
  // size, mtime, ctime and inode of each file, as numbers: no string per file for thousands of files.
  private numbers = new Float64Array(4 * 1024);
  private settled = true;

  /** `started`: the time (ms) before the first file was looked at. */
  constructor(readonly started: number) {}

  /** Adds a file by its lstat. */
  add(path: string, info: Signature): void {
    const at = 4 * this.paths.length;
    if (at + 4 > this.numbers.length) {
      const grown = new Float64Array(2 * this.numbers.length);
      grown.set(this.numbers);
      this.numbers = grown;
    }
    this.numbers[at] = info.size;
    this.numbers[at + 1] = info.mtimeMs;
    this.numbers[at + 2] = info.ctimeMs;
    this.numbers[at + 3] = info.ino;
    this.paths.push(path);
    if (info.mtimeMs >= this.started - RACY_MS) this.settled = false;
  }

  /** A file that could not be looked at: the stamp cannot be trusted. */
  fail(): void {
    this.settled = false;
  }

  /** The stamp, or undefined when a file is too recent (or failed) for it to be trusted later. */
  settledStamp(): string | undefined {
    return this.settled ? this.stamp() : undefined;
  }

  /** The signature of the `at`-th file added. */
  signatureAt(at: number): Signature {
    const n = this.numbers;
    return { size: n[4 * at]!, mtimeMs: n[4 * at + 1]!, ctimeMs: n[4 * at + 2]!, ino: n[4 * at + 3]! };
  }

  /** The stamp, whether settled or not: what a current listing is compared by. */
  stamp(): string {
    const numbers = this.numbers.subarray(0, 4 * this.paths.length);
    return createHash('sha1').update(this.paths.join('\0')).update('\n').update(new Uint8Array(numbers.buffer, numbers.byteOffset, numbers.byteLength)).digest('hex');
  }
}

/**
 * One look at the record files of some kinds: each kind's listing, each file's lstat and their
 * stamp. A reader that goes on to read the files (the record cache) takes the look instead of
 * listing and stating them again: every signature in it was taken before the file is read, as a
 * look of its own would be.
 */
export interface FilesLook {
  kinds: readonly RecordKindName[];
  /** Each kind's files, in the order of `kinds`; together, the order the builder added them in. */
  listed: string[][];
  stamps: StampBuilder;
  stamp: string;
}

/**
 * The record files of `kinds` as they are now (what StampBuilder made while they were read);
 * undefined when a folder is a symlink or a file went away while being looked at. The first look
 * of a CLI command may be the one find took while the command loaded (early-look.ts): the same
 * listing and the same numbers, taken a little earlier.
 */
export async function lookAtRecordFiles(root: string, kinds: readonly RecordKindName[]): Promise<FilesLook | undefined> {
  const dirs = kinds.map((kind) => recordDir(root, kind));
  const early = takeFolderLook(dirs);
  const taken = early === undefined ? undefined : await fromEarlyLook(root, kinds, dirs, early);
  if (taken !== undefined) return taken;
  const problems: Problem[] = [];
  const stamps = new StampBuilder(Date.now());
  const listed: string[][] = [];
  for (const kind of kinds) {
    const paths = await listRecordFilesOrProblem(root, kind, problems);
    for (const path of paths) {
      try {
        stamps.add(path, lstatSync(path));
      } catch {
        return undefined;
      }
    }
    listed.push(paths);
  }
  return problems.length > 0 ? undefined : { kinds, listed, stamps, stamp: stamps.stamp() };
}

/**
 * The look find took, listed and ordered as listRecordFiles lists; undefined when it cannot stand
 * for one. Reading find's output costs some 70 ms at 10,000 files in a fresh process, so the stamp
 * it came to is remembered by the output's digest (LOOK_MEMO): while no file changes, find prints
 * the same bytes and the stamp is known without reading them; the listing and numbers are read
 * only when a caller asks for them (a snapshot to rebuild).
 */
async function fromEarlyLook(root: string, kinds: readonly RecordKindName[], dirs: readonly string[], early: StartedLook): Promise<FilesLook | undefined> {
  const output = await early.output;
  if (output === undefined) return undefined;
  for (const dir of dirs) {
    try {
      assertRealDir(dir);
    } catch {
      return undefined; // a symlink on the way: the caller's own look reports it
    }
  }
  const memo = join(knowledgeDir(root), CACHE_DIR, LOOK_MEMO);
  // What the stamp is a function of: how it is made, the folders find looked at, and its output.
  const looked = dirs.map((dir, q) => (early.looked[q] ? dir : '')).join('\0');
  const digest = createHash('sha256').update(`${LOOK_FORMAT}\0${RECORD_EXTENSIONS.join('\0')}\n${looked}\n`).update(output).digest('hex');
  let remembered: string | undefined;
  try {
    const saved = JSON.parse(readTextIfExistsSync(memo) ?? 'null') as { format?: unknown; output?: unknown; stamp?: unknown } | null;
    if (saved?.format === LOOK_FORMAT && saved.output === digest && typeof saved.stamp === 'string') remembered = saved.stamp;
  } catch {
    // torn or foreign: read the output
  }
  if (remembered !== undefined) {
    let read: FilesLook | undefined;
    const whole = (): FilesLook => {
      read ??= lookFromOutput(kinds, dirs, early, output);
      // The same bytes read before to this stamp: they read the same way again.
      if (read === undefined) throw new Error(`${LOOK_MEMO}: find's output no longer reads as a look`);
      return read;
    };
    return { kinds, stamp: remembered, get listed() { return whole().listed; }, get stamps() { return whole().stamps; } };
  }
  const look = lookFromOutput(kinds, dirs, early, output);
  if (look !== undefined) await writeCache(memo, () => writeFileAtomic(memo, JSON.stringify({ format: LOOK_FORMAT, output: digest, stamp: look.stamp }), { durable: false }));
  return look;
}

/** find's output as the look lookAtRecordFiles would take; undefined when it cannot stand for one. */
function lookFromOutput(kinds: readonly RecordKindName[], dirs: readonly string[], early: StartedLook, output: Buffer): FilesLook | undefined {
  const found = parseFolderLook(output, early.looked.filter(Boolean).length);
  if (found === undefined) return undefined;
  // A folder missing when find started holds nothing, as a listing of it then would.
  const none = { names: [], numbers: new Float64Array(0) };
  const folders = early.looked.map((looked) => (looked ? found.shift()! : none));
  const stamps = new StampBuilder(early.started);
  const listed: string[][] = [];
  for (const [q, dir] of dirs.entries()) {
    const { names, numbers } = folders[q]!;
    const at = new Map<string, number>();
    for (const [k, name] of names.entries()) if (isRecordName(name)) at.set(name, k);
    const sorted = [...at.keys()].sort();
    // A name that is not UTF-8 reads back as another name, which lstat would not find either.
    if (sorted.some((name) => name.includes('\uFFFD'))) return undefined;
    const paths: string[] = [];
    for (const name of sorted) {
      const k = at.get(name)!;
      const path = dir + sep + name;
      stamps.add(path, { size: numbers[4 * k]!, mtimeMs: numbers[4 * k + 1]!, ctimeMs: numbers[4 * k + 2]!, ino: numbers[4 * k + 3]! });
      paths.push(path);
    }
    listed.push(paths);
  }
  return { kinds, listed, stamps, stamp: stamps.stamp() };
}

/** The stamp of the record files of `kinds` as they are now; undefined as for lookAtRecordFiles. */
export async function recordFilesStamp(root: string, kinds: readonly RecordKindName[]): Promise<string | undefined> {
  return (await lookAtRecordFiles(root, kinds))?.stamp;
}

// The stamp of the record files of some kinds: one listing per folder and one lstat per file,
// hashed into one string. It changes when a file is added, removed or renamed, or when its size,
// modification time, change time or inode changes: what the record cache trusts a file by. The
// change time is set by the system on every write and cannot be put back by hand, so an edit that
// keeps the size and restores the modification time still changes the stamp. A cache keyed by it
// (the knowledge index snapshot) is as current as the record cache, without reading the record
// cache. Light on purpose: no parser, no validator.
import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import type { Problem } from '../errors.js';
import { RACY_MS } from '../fs/read-text.js';
import type { RecordKindName } from '../store/layout.js';
import { listRecordFilesOrProblem } from '../store/record-files.js';

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
  constructor(private readonly started: number) {}

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
 * undefined when a folder is a symlink or a file went away while being looked at.
 */
export async function lookAtRecordFiles(root: string, kinds: readonly RecordKindName[]): Promise<FilesLook | undefined> {
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

/** The stamp of the record files of `kinds` as they are now; undefined as for lookAtRecordFiles. */
export async function recordFilesStamp(root: string, kinds: readonly RecordKindName[]): Promise<string | undefined> {
  return (await lookAtRecordFiles(root, kinds))?.stamp;
}

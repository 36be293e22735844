// A rebuildable cache of parsed, validated records in `.knowledge/.cache/`, so commands and the
// commit hook do not re-parse thousands of YAML files on every run. One snapshot per kind.
// A file is trusted by its stat signature (size, mtime, ctime, inode) when its mtime is safely older
// than the snapshot; otherwise its bytes are hashed and the parse is looked up by content hash.
// ctime: an edit that keeps the size and puts back the mtime by hand still changes it.
// The cache is never an authority: delete `.knowledge/.cache/` at any time.
import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { isErrno, type Problem } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { writeCache } from '../fs/cache-writes.js';
import { readTextIfExistsSync } from '../fs/read-text.js';
import { cacheKey } from '../store/cache-key.js';
import { RACY_MS, StampBuilder, type FilesLook } from './file-stamps.js';
import { DEFAULT_LIMITS } from '../store/config-defaults.js';
import { CACHE_DIR, displayPath, knowledgeDir, type RecordKindName } from '../store/layout.js';
import { readCapped } from '../fs/read-text.js';
import { listRecordFilesOrProblem, readProblem, tooLarge } from '../store/record-files.js';
import { parseRecordBytes, type ReadOptions, type ReadResult, type StoreRecord } from '../store/read.js';

interface CachedFile {
  size: number;
  mtimeMs: number;
  /** Absent in a snapshot written before lore kept it: the file's bytes are hashed once. */
  ctimeMs?: number;
  ino: number;
  hash: string;
  record?: StoreRecord;
  problems: Problem[];
}

type Signature = Pick<CachedFile, 'size' | 'mtimeMs' | 'ctimeMs' | 'ino'>;

/** What a file is trusted by. */
function signature(info: Signature): Signature {
  return { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino };
}

function sameSignature(a: Signature, b: Signature): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}

interface Snapshot {
  key: string;
  writtenAt: number;
  files: Record<string, CachedFile>;
}

function snapshotPath(root: string, kind: RecordKindName): string {
  return join(knowledgeDir(root), CACHE_DIR, `records-${kind}.json`);
}

function loadSnapshot(path: string): Snapshot | undefined {
  try {
    // Never through a symlink (a symlinked .knowledge/.cache could hand over any parse).
    const snapshot = JSON.parse(readTextIfExistsSync(path) ?? '') as Snapshot;
    return snapshot.key === cacheKey() ? snapshot : undefined;
  } catch {
    return undefined; // missing or damaged: rebuilt below
  }
}

export interface CacheStats {
  /** Files trusted by their stat signature. */
  statHits: number;
  /** Files read and found by content hash. */
  hashHits: number;
  /** Files parsed and validated. */
  parsed: number;
}

/**
 * Reads records like readRecords, through the cache; writes the snapshot back when it changed.
 * `identity` names what was read: lore's cache key and every file's path and content hash;
 * `stamp` the files as recordFilesStamp sees them, when every one is old enough to be trusted by it.
 * With `look` (lookAtRecordFiles of the same kinds, just taken), its listings and signatures are
 * used instead of listing and stating the files again.
 */
export async function readRecordsCached<T = unknown>(root: string, options: ReadOptions & { look?: FilesLook } = {}): Promise<ReadResult<T> & { cache: CacheStats; identity: string; stamp?: string }> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const kinds = options.kinds ?? [];
  const records: StoreRecord<T>[] = [];
  const problems: Problem[] = [];
  const stats: CacheStats = { statHits: 0, hashHits: 0, parsed: 0 };
  let files = 0;
  const identity = createHash('sha1').update(cacheKey());
  const look = options.look !== undefined && options.look.kinds.length === kinds.length && options.look.kinds.every((kind, q) => kind === kinds[q]) ? options.look : undefined;
  // A file is settled by the time it was looked at: the look's, when its signatures are taken from one.
  const stamps = new StampBuilder(look?.stamps.started ?? Date.now());
  let looked = 0;
  // Every kind listed first, so that progress counts the files of all of them (1 to the total, once).
  const listings: Array<{ paths: string[]; problems: Problem[] }> = [];
  for (const [q, kind] of kinds.entries()) {
    const found: Problem[] = [];
    listings.push({ paths: look?.listed[q] ?? (await listRecordFilesOrProblem(root, kind, found)), problems: found });
  }
  const total = listings.reduce((sum, listing) => sum + listing.paths.length, 0);
  let done = 0;
  for (const [q, kind] of kinds.entries()) {
    const path = snapshotPath(root, kind);
    const old = loadSnapshot(path);
    const next: Snapshot = { key: cacheKey(), writtenAt: stamps.started, files: {} };
    let changed = old === undefined;
    const { paths, problems: unlisted } = listings[q]!;
    problems.push(...unlisted);
    // A symlinked folder: recordFilesStamp gives no stamp for it, so none is given here either.
    if (unlisted.length > 0) stamps.fail();
    for (const absolute of paths) {
      const file = displayPath(root, absolute);
      let entry: CachedFile | undefined;
      try {
        // lstat: a record replaced by a symlink must not be trusted by its target's signature.
        const info = look !== undefined ? look.stamps.signatureAt(looked++) : lstatSync(absolute);
        stamps.add(absolute, info);
        const previous = old?.files[file];
        if (previous !== undefined && sameSignature(previous, info) && info.mtimeMs < old!.writtenAt - RACY_MS) {
          entry = previous;
          stats.statHits++;
        } else {
          const content = readCapped(absolute, limits.max_file_bytes);
          const hash = 'bytes' in content ? createHash('sha1').update(content.bytes).digest('hex') : `too-large:${content.size}`;
          if (previous !== undefined && previous.hash === hash) {
            entry = { ...previous, ...signature(info) };
            stats.hashHits++;
          } else {
            const parsed = 'bytes' in content
              ? parseRecordBytes(content.bytes, kind, basename(absolute, extname(absolute)), file, limits)
              : { problems: [tooLarge(file, content.size, limits)] };
            entry = { ...signature(info), hash, problems: parsed.problems, ...(parsed.record === undefined ? {} : { record: parsed.record }) };
            stats.parsed++;
          }
          // Also written again when a file too recent for the old snapshot is settled for the new one:
          // else it would be hashed on every run until some other file changed.
          if (previous === undefined || previous.hash !== entry.hash || !sameSignature(previous, entry) || info.mtimeMs < next.writtenAt - RACY_MS) changed = true;
        }
      } catch (error) {
        stamps.fail();
        // Deleted since it was listed (or looked at, which can be a while before): not there, not a problem.
        if (!isErrno(error, 'ENOENT')) problems.push(readProblem(file, error));
        options.onProgress?.(++done, total);
        continue;
      }
      next.files[file] = entry;
      identity.update(`\0${file}\0${entry.hash}`);
      if (entry.record !== undefined) records.push(entry.record as StoreRecord<T>);
      problems.push(...entry.problems);
      files++;
      options.onProgress?.(++done, total);
    }
    // A file gone since the old snapshot (each new one set changed above). Counted by what the new
    // snapshot holds, not by the listing: a file that cannot be read (a symlink) is in neither, and
    // counting it would write the snapshot again on every run.
    if (Object.keys(old?.files ?? {}).length !== Object.keys(next.files).length) changed = true;
    if (changed) {
      // The cache is an optimisation: failing to write it (read-only checkout) changes nothing.
      await writeCache(path, () => writeFileAtomic(path, JSON.stringify(next), { durable: false }));
    }
  }
  const stamp = stamps.settledStamp();
  return { records, problems, files, cache: stats, identity: identity.digest('hex'), ...(stamp === undefined ? {} : { stamp }) };
}

// Which files of a folder are records (the listing every reader shares) and the problems of one
// that cannot be read. Light on purpose (no parser, no validator): a cache's freshness check and
// opening a store use it without loading them.
import { readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { isErrno, LoreError, type Problem } from '../errors.js';
import type { LimitsConfig } from '../types.js';
import { assertRealDir } from '../fs/no-follow.js';
import { KINDS, KNOWLEDGE_DIR, knowledgeDir, type RecordKindName } from './layout.js';

/** File extensions read as records; lore itself writes `.yaml`. */
export const RECORD_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;

/** The folder of a kind's record files (absolute when `root` is). */
export function recordDir(root: string, kind: RecordKindName): string {
  return join(knowledgeDir(root), KINDS[kind].dir);
}

/** Whether a folder's entry named so is a record file: not hidden, a record extension. */
export function isRecordName(name: string): boolean {
  return !name.startsWith('.') && RECORD_EXTENSIONS.some((ext) => name.endsWith(ext));
}

/** Lists the record files of a kind (absolute paths, sorted); a missing folder holds none. */
export async function listRecordFiles(root: string, kind: RecordKindName): Promise<string[]> {
  const dir = recordDir(root, kind);
  // The folder itself (and those above it, up to .knowledge) must not be a symlink: SYMLINK.
  assertRealDir(dir);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return [];
    throw error;
  }
  return names
    .filter(isRecordName)
    .sort()
    .map((name) => dir + sep + name); // join() would normalise each of thousands of paths again
}

/** The record files of a kind; a symlinked folder is reported in `problems` and holds none. */
export async function listRecordFilesOrProblem(root: string, kind: RecordKindName, problems: Problem[]): Promise<string[]> {
  try {
    return await listRecordFiles(root, kind);
  } catch (error) {
    if (!(error instanceof LoreError && error.code === 'SYMLINK')) throw error;
    problems.push({ severity: 'error', file: `${KNOWLEDGE_DIR}/${KINDS[kind].dir}`, message: error.message });
    return [];
  }
}

/** The problem of a record file that could not be read (a symlink is named as one). */
export function readProblem(file: string, error: unknown): Problem {
  // The file itself is the symlink: "<file>: is a symbolic link"; a folder above it is named in full.
  if (error instanceof LoreError && error.code === 'SYMLINK') return { severity: 'error', file, message: error.message.startsWith(`${file} is `) ? error.message.slice(file.length + 1) : error.message };
  return { severity: 'error', file, message: `could not read the file: ${(error as Error).message}` };
}

/** The problem of a file over the size cap. */
export function tooLarge(file: string, size: number, limits: LimitsConfig): Problem {
  return { severity: 'error', file, message: `the file is ${size} bytes, over the limit of ${limits.max_file_bytes} bytes (limits.max_file_bytes in config.yaml)` };
}

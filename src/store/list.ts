// Which files of a folder are records: the listing every reader shares. Light on purpose (no
// parser, no validator), so a cache's freshness check can list folders without loading them.
import { readdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { isErrno, LoreError, type Problem } from '../errors.js';
import { assertRealDir } from '../fs/no-follow.js';
import { KINDS, KNOWLEDGE_DIR, knowledgeDir, type RecordKindName } from './layout.js';

/** File extensions read as records; lore itself writes `.yaml`. */
export const RECORD_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;

/** Lists the record files of a kind (absolute paths, sorted); a missing folder holds none. */
export async function listRecordFiles(root: string, kind: RecordKindName): Promise<string[]> {
  const dir = join(knowledgeDir(root), KINDS[kind].dir);
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
    .filter((name) => !name.startsWith('.') && (RECORD_EXTENSIONS as readonly string[]).includes(extname(name)))
    .sort()
    .map((name) => join(dir, name));
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

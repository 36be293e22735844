// Reading files as git stores them: a tree at a ref, the index (what will be committed), blobs.
import { LoreError } from '../errors.js';
import { git, gitBytes } from './exec.js';

export interface GitFile {
  /** Path relative to the repository root. */
  path: string;
  /** The blob id: the content's identity, used as a cache key. */
  blob: string;
}

interface Where {
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

function parseEntries(text: string, pathOf: (meta: string, path: string) => GitFile | undefined): GitFile[] {
  const files: GitFile[] = [];
  for (const record of text.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab === -1) continue;
    const file = pathOf(record.slice(0, tab), record.slice(tab + 1));
    if (file !== undefined) files.push(file);
  }
  return files;
}

/** Whether `ref` names a commit (false for an unborn HEAD). */
export async function refExists(where: Where, ref: string): Promise<boolean> {
  try {
    await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], where);
    return true;
  } catch {
    return false;
  }
}

/** The blobs under `paths` at `ref` (recursively). */
export async function listTree(where: Where, ref: string, paths: readonly string[]): Promise<GitFile[]> {
  const text = await git(['ls-tree', '-r', '-z', '--full-tree', ref, '--', ...paths], where);
  // "<mode> blob <oid>\t<path>"
  return parseEntries(text, (meta, path) => {
    const [, type, blob] = meta.split(' ');
    return type === 'blob' && blob !== undefined ? { path, blob } : undefined;
  });
}

/** The blobs under `paths` in the index (respects GIT_INDEX_FILE in `env`). */
export async function listIndex(where: Where, paths: readonly string[]): Promise<GitFile[]> {
  const text = await git(['ls-files', '-s', '-z', '--', ...paths], where);
  // "<mode> <oid> <stage>\t<path>"; a conflicted file (stage > 0) is not committable yet.
  return parseEntries(text, (meta, path) => {
    const [, blob, stage] = meta.split(' ');
    return stage === '0' && blob !== undefined ? { path, blob } : undefined;
  });
}

/** Reads blobs by id in one `git cat-file --batch`. */
export async function readBlobs(where: Where, blobs: readonly string[]): Promise<Map<string, Buffer>> {
  const unique = [...new Set(blobs)];
  const result = new Map<string, Buffer>();
  if (unique.length === 0) return result;
  const out = await gitBytes(['cat-file', '--batch'], { ...where, input: `${unique.join('\n')}\n` });
  let offset = 0;
  while (offset < out.length) {
    const newline = out.indexOf(0x0a, offset);
    const header = out.toString('utf8', offset, newline);
    const [oid, type, size] = header.split(' ');
    if (type === 'missing' || size === undefined) throw new LoreError('GIT', `git has no object ${oid}`);
    const start = newline + 1;
    result.set(oid!, out.subarray(start, start + Number(size)));
    offset = start + Number(size) + 1;
  }
  return result;
}

/**
 * Reads one file as committed at `ref` (or, with ref '', as staged in the index). Undefined when
 * the file is not there; a revision that does not exist is an error, never an empty file.
 */
export async function readAtRef(where: Where, ref: string, path: string): Promise<Buffer | undefined> {
  if (ref.startsWith('-') || ref.includes(':')) throw new LoreError('USAGE', `"${ref}" is not a revision lore will pass to git`, { hint: 'give a branch, tag or commit, e.g. HEAD or origin/main' });
  try {
    return await gitBytes(['cat-file', 'blob', `${ref}:${path}`], where);
  } catch (error) {
    if (ref !== '' && !(await refExists(where, ref))) {
      throw new LoreError('GIT', `${ref} is not a commit in ${where.cwd}`, { cause: error, hint: 'is this a git repository, and is the revision right?' });
    }
    return undefined;
  }
}

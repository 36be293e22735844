// `lore check --files`: working-tree files read whole, every line counted as added.
import { readFile, stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { LoreError, isErrno } from '../errors.js';
import type { ChangedFile } from '../git/diff.js';

const MAX_BYTES = 16 * 1024 * 1024;

/** Reads the given files (relative to `cwd`) as changed files with paths relative to `root`. */
export async function readWorkingFiles(root: string, cwd: string, paths: readonly string[]): Promise<ChangedFile[]> {
  const files: ChangedFile[] = [];
  for (const given of paths) {
    const absolute = resolve(cwd, given);
    const path = relative(root, absolute).split(sep).join('/');
    if (path.startsWith('..')) throw new LoreError('USAGE', `${given} is outside the repository ${root}`);
    try {
      if ((await stat(absolute)).size > MAX_BYTES) throw new LoreError('TOO_LARGE', `${given} is over ${MAX_BYTES} bytes; check it by path only with a smaller file or in CI`);
      const bytes = await readFile(absolute);
      // Like git: a NUL in the first 8000 bytes makes a file binary, checked by path only.
      const binary = bytes.subarray(0, 8000).includes(0);
      const lines = binary ? [] : bytes.toString('utf8').split(/\r?\n/);
      if (!binary && lines[lines.length - 1] === '') lines.pop();
      files.push({ path, status: 'modified', binary, added: lines.map((text, i) => ({ line: i + 1, text })) });
    } catch (error) {
      if (isErrno(error, 'ENOENT')) throw new LoreError('NOT_FOUND', `${given} does not exist`);
      throw error;
    }
  }
  return files;
}

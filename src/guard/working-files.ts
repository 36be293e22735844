// `lore check --files`: working-tree files read whole, every line counted as added.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { LoreError, isErrno } from '../errors.js';
import { addedLines, type ChangedFile } from './added-lines.js';

const MAX_BYTES = 16 * 1024 * 1024;

/** Reads the given files (relative to `cwd`) as changed files with paths relative to `root`. */
export async function readWorkingFiles(root: string, cwd: string, paths: readonly string[]): Promise<ChangedFile[]> {
  const files: ChangedFile[] = [];
  for (const given of paths) {
    const absolute = resolve(cwd, given);
    const path = relative(root, absolute).split(sep).join('/');
    if (path.startsWith('..')) throw new LoreError('USAGE', `${given} is outside the repository ${root}`);
    try {
      // A regular file, judged by what was opened (a device or a FIFO behind a name is refused, not read forever).
      const handle = await open(absolute, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
      try {
        const info = await handle.stat();
        if (!info.isFile()) throw new LoreError('USAGE', `${given} is not a regular file`);
        if (info.size > MAX_BYTES) throw new LoreError('TOO_LARGE', `${given} is over ${MAX_BYTES} bytes; check it by path only with a smaller file or in CI`);
        // Read like a staged file: every line, whatever the bytes (a NUL does not hide content).
        const text = (await handle.readFile()).toString('utf8');
        files.push({ path, status: 'modified', added: addedLines(text, []) });
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (isErrno(error, 'ENOENT')) throw new LoreError('NOT_FOUND', `${given} does not exist`);
      throw error;
    }
  }
  return files;
}

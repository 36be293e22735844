// Reading a text file that may not exist.
import { readFile } from 'node:fs/promises';
import { isErrno } from '../errors.js';

/** The file's text, or undefined when it does not exist; other errors are thrown. */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw error;
  }
}

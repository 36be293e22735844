// Finding the store: the nearest directory, from the working directory up, that holds `.knowledge/`.
import { statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { LoreError } from '../errors.js';
import { assertRealDir } from '../fs/no-follow.js';
import { KNOWLEDGE_DIR } from './layout.js';

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export interface LocateOptions {
  cwd: string;
  /** `--store DIR`: the directory holding `.knowledge/`, or `.knowledge/` itself. */
  store?: string | undefined;
}

/**
 * Returns the store root (the directory holding `.knowledge/`), or throws STORE_NOT_FOUND. A
 * `.knowledge` that is a symlink is refused (SYMLINK): lore never follows one into the store.
 */
export function findStoreRoot(options: LocateOptions): string {
  const root = locate(options);
  assertRealDir(join(root, KNOWLEDGE_DIR));
  return root;
}

function locate(options: LocateOptions): string {
  if (options.store !== undefined) {
    let root = resolve(options.cwd, options.store);
    if (basename(root) === KNOWLEDGE_DIR) root = dirname(root);
    if (!isDirectory(join(root, KNOWLEDGE_DIR))) {
      throw new LoreError('STORE_NOT_FOUND', `no ${KNOWLEDGE_DIR}/ in ${root} (given by --store)`, { hint: `run "lore init" there to create a store` });
    }
    return root;
  }
  let dir = resolve(options.cwd);
  for (;;) {
    if (isDirectory(join(dir, KNOWLEDGE_DIR))) return dir;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new LoreError('STORE_NOT_FOUND', `no ${KNOWLEDGE_DIR}/ found in ${resolve(options.cwd)} or any parent directory`, {
    hint: 'run "lore init" in your repository to create one, or pass --store DIR',
  });
}

// `lore doctor`: the store's housekeeping after crashes. Finds an interrupted operation's journal,
// the temp and lock files of processes that are gone, and a .gitignore that would let them into a
// commit; with `fix`, completes or undoes the operation, removes the leftovers and adds the
// missing lines, all under the write lock, never touching what a live process owns.
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isErrno } from '../errors.js';
import { readTextIfExists } from '../fs/read-text.js';
import { ensureLines, findLeftovers, missingLines, STORE_IGNORES } from './leftovers.js';
import { displayPath, knowledgeDir } from './layout.js';
import { hasJournal, JOURNAL, recover, withWriteLock, type Recovery } from './transaction.js';

export interface DoctorItem {
  kind: 'journal' | 'leftover' | 'gitignore';
  /** Path relative to the store root. */
  file: string;
  message: string;
  /** With fix: whether it was dealt with. */
  fixed?: boolean;
}

export interface DoctorReport {
  fix: boolean;
  items: DoctorItem[];
  /** With fix: the interrupted operation completed or undone. */
  recovered?: Recovery;
}

/** What needs fixing; `validate` leaves out a store with no .gitignore at all (made by hand, maybe not in git). */
export async function diagnose(root: string, options: { forValidate?: boolean } = {}): Promise<DoctorItem[]> {
  const items: DoctorItem[] = [];
  if (hasJournal(root)) items.push({ kind: 'journal', file: displayPath(root, join(knowledgeDir(root), JOURNAL)), message: 'an operation was interrupted by a crash; it is completed (or undone) by the next lore command that writes' });
  for (const leftover of await findLeftovers(root)) items.push({ kind: 'leftover', file: leftover.file, message: `left over from a crash: ${leftover.reason}` });
  const gitignore = join(knowledgeDir(root), '.gitignore');
  const text = await readTextIfExists(gitignore);
  const missing = missingLines(text, STORE_IGNORES);
  if (missing.length > 0 && !(options.forValidate === true && text === undefined)) items.push({ kind: 'gitignore', file: displayPath(root, gitignore), message: `does not ignore ${missing.join(', ')}, so git add -A would commit what a crash leaves behind` });
  return items;
}

/**
 * Reports (and with `fix`, repairs) what crashes left in the store.
 *
 * @example
 * (await doctor(root, { fix: true })).items; // → [{ kind: 'leftover', file: '.knowledge/log/knowledge_graph.ndjson.lock', fixed: true, ... }]
 */
export async function doctor(root: string, options: { fix: boolean }): Promise<DoctorReport> {
  if (!options.fix) return { fix: false, items: await diagnose(root) };
  // withWriteLock completes or undoes an interrupted operation as it takes the lock; ask first, to report it.
  return withWriteLock(root, async () => {
    const recovered = await recover(root);
    const items: DoctorItem[] = [];
    for (const leftover of await findLeftovers(root)) {
      try {
        await unlink(leftover.path);
      } catch (error) {
        if (!isErrno(error, 'ENOENT')) throw error;
      }
      items.push({ kind: 'leftover', file: leftover.file, message: `removed: ${leftover.reason}`, fixed: true });
    }
    const gitignore = join(knowledgeDir(root), '.gitignore');
    const added = await ensureLines(gitignore, STORE_IGNORES);
    if (added.length > 0) items.push({ kind: 'gitignore', file: displayPath(root, gitignore), message: `now ignores ${added.join(', ')}`, fixed: true });
    return { fix: true, items, ...(recovered === undefined ? {} : { recovered }) };
  });
}

// What a killed process can leave in `.knowledge/`: temp files of writes it never finished, lock
// files it never released, a lock moved aside while being broken, the journal of an operation.
// None of it is knowledge: the store's .gitignore keeps it out of commits, `lore validate` reports
// it, `lore doctor --fix` removes it (under the write lock, and only what no live process owns).
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isErrno } from '../errors.js';
import { BREAK_CLAIM } from '../log/lock.js';
import { isRunning } from '../log/process.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { readCapped, readTextIfExists } from '../fs/read-text.js';
import { displayPath, knowledgeDir } from './layout.js';
import { JOURNAL, WRITE_LOCK } from './transaction.js';
import { byText } from '../text-order.js';

/** Lines the store's .gitignore holds: the cache, and whatever a crash can leave behind. */
export const STORE_IGNORES = ['.cache/', '*.tmp', '*.stale', WRITE_LOCK, '*.ndjson.lock', '*.lock.break-*', JOURNAL];

/** Whether a file name is one lore makes for a moment (temp, lock, journal): never "unknown", reported as a leftover when its owner is gone. */
export function isTransient(name: string): boolean {
  return name === WRITE_LOCK || name === JOURNAL || name.endsWith('.tmp') || name.endsWith('.stale') || name.endsWith('.ndjson.lock') || BREAK_CLAIM.test(name);
}

/** The lines of `lines` that `text` (a .gitignore, .gitattributes) does not hold. */
export function missingLines(text: string | undefined, lines: readonly string[]): string[] {
  const present = new Set((text ?? '').split(/\r?\n/).map((l) => l.trim()));
  return lines.filter((line) => !present.has(line));
}

/** Makes sure a line-based file (.gitignore, .gitattributes) holds every one of `lines`; returns the lines it added. */
export async function ensureLines(path: string, lines: readonly string[]): Promise<string[]> {
  const existing = await readTextIfExists(path);
  const missing = missingLines(existing, lines);
  if (missing.length === 0) return [];
  const base = existing === undefined || existing === '' ? '' : existing.endsWith('\n') ? existing : `${existing}\n`;
  await writeFileAtomic(path, `${base}${missing.map((l) => `${l}\n`).join('')}`);
  return missing;
}

export interface Leftover {
  /** Absolute path. */
  path: string;
  /** Path relative to the store root, as lore prints it. */
  file: string;
  /** What it is and why it is safe to remove. */
  reason: string;
}

/** Who a lock or lock temp file names, when it can be read. */
async function holderOf(path: string): Promise<{ pid: number; host?: string; started?: string } | undefined> {
  try {
    // Never through a link, never more than a holder is (a lock planted as a link to /dev/zero).
    const read = readCapped(path, 64 * 1024);
    if (!('bytes' in read)) return undefined;
    const holder = JSON.parse(read.bytes.toString('utf8')) as { pid?: unknown; host?: unknown; started?: unknown };
    if (typeof holder.pid !== 'number') return undefined;
    return { pid: holder.pid, ...(typeof holder.host === 'string' ? { host: holder.host } : {}), ...(typeof holder.started === 'string' ? { started: holder.started } : {}) };
  } catch {
    return undefined;
  }
}

/** Why a file is a crash leftover, or undefined when it is not one (or its process still runs). */
async function leftoverReason(path: string, name: string, journal: boolean): Promise<string | undefined> {
  if (name.endsWith('.stale')) return 'a lock moved aside while it was being broken';
  // A transaction's staged file: the journal (while there is one) decides its fate.
  if (name.endsWith('.txn.tmp')) return journal ? undefined : 'a file staged by an operation that was interrupted before it committed';
  // writeFileAtomic's temp file: .<name>.<pid>.<random>.tmp
  const temp = /^\..+\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name);
  if (temp !== null) return isRunning({ pid: Number(temp[1]) }) === true ? undefined : `a temp file of a write by process ${temp[1]}, which is gone`;
  // A lock, a waiter's holder file, or a claim to break a stale lock (log/lock.ts).
  if (/^\.lock-[0-9a-f]+\.tmp$/.test(name) || name === WRITE_LOCK || name.endsWith('.ndjson.lock') || BREAK_CLAIM.test(name)) {
    const holder = await holderOf(path);
    // Being written this very moment, not lore's, or held on another host (whose processes lore cannot see).
    if (holder === undefined || isRunning(holder) !== false) return undefined;
    if (BREAK_CLAIM.test(name)) return `a claim to break a stale lock, made by process ${holder.pid}, which is gone`;
    if (name.endsWith('.tmp')) return `a lock being taken by process ${holder.pid}, which is gone`;
    return `a lock held by process ${holder.pid}, which is gone`;
  }
  return undefined;
}

/** Finds what crashes left under `.knowledge/` (the cache folder included), oldest folders first. */
export async function findLeftovers(root: string): Promise<Leftover[]> {
  const base = knowledgeDir(root);
  const journal = await lstat(join(base, JOURNAL)).then(() => true, () => false);
  const found: Leftover[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return;
      throw error;
    }
    for (const entry of entries.sort((a, b) => byText(a.name, b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        const reason = await leftoverReason(path, entry.name, journal);
        if (reason !== undefined) found.push({ path, file: displayPath(root, path), reason });
      }
    }
  };
  await walk(base);
  return found;
}

// Reading files as git stores them: a tree at a ref, the index (what will be committed), blobs.
import { closeSync, fstatSync, readSync } from 'node:fs';
import { LoreError } from '../errors.js';
import { startGit } from './_start.js';
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

/** The arguments of the git runs below: the hook starts them early with the same ones (hook-git.ts). */
export const refExistsArgs = (ref: string): string[] => ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`];
export const listTreeArgs = (ref: string, paths: readonly string[]): string[] => ['--literal-pathspecs', 'ls-tree', '-r', '-z', '--full-tree', ref, '--', ...paths];
export const listIndexArgs = (paths: readonly string[]): string[] => ['--literal-pathspecs', 'ls-files', '-s', '-z', '--', ...paths];

/** Whether `ref` names a commit (false for an unborn HEAD). */
export async function refExists(where: Where, ref: string): Promise<boolean> {
  try {
    await git(refExistsArgs(ref), where);
    return true;
  } catch {
    return false;
  }
}

/** The blobs under `paths` at `ref` (recursively). */
export async function listTree(where: Where, ref: string, paths: readonly string[]): Promise<GitFile[]> {
  const text = await git(listTreeArgs(ref, paths), where);
  // "<mode> blob <oid>\t<path>"
  return parseEntries(text, (meta, path) => {
    const [, type, blob] = meta.split(' ');
    return type === 'blob' && blob !== undefined ? { path, blob } : undefined;
  });
}

/** The blobs under `paths` in the index (respects GIT_INDEX_FILE in `env`). */
export async function listIndex(where: Where, paths: readonly string[]): Promise<GitFile[]> {
  const text = await git(listIndexArgs(paths), where);
  // "<mode> <oid> <stage>\t<path>"; a conflicted file (stage > 0) is not committable yet.
  return parseEntries(text, (meta, path) => {
    const [, blob, stage] = meta.split(' ');
    return stage === '0' && blob !== undefined ? { path, blob } : undefined;
  });
}

export interface BlobRead {
  /** The content of every blob read, by id. */
  blobs: Map<string, Buffer>;
  /** Blobs over `maxBytes`, by id: their size (their content was not kept). */
  tooLarge: Map<string, number>;
  /** What git answered for each name looked up, in order (undefined: missing); its content when kept. */
  looks: Array<{ id: string; type: string; content?: Buffer } | undefined>;
}

/** Objects looked up by name before the blobs: see readBlobsCapped. */
export interface Lookup {
  names: readonly string[];
  /** Keep their content (else only their id and type). */
  keep?: boolean;
  /** Called once git has answered for every name, while the blobs may still be coming. */
  answered?: (looks: BlobRead['looks']) => void;
}

/** How often a read polls its spool file for what git wrote meanwhile. */
const SPOOL_POLL_MS = 2;
/** The most a read takes from the spool at once. */
const SPOOL_CHUNK = 4 * 1024 * 1024;

/**
 * Reads blobs by id in one `git cat-file --batch`, streaming: a blob over `maxBytes` is skipped as
 * it passes (its size reported), so memory stays within the largest blob kept. The ids may still
 * be on their way: git starts at once and reads them when they come. `lookup` names objects (such
 * as `HEAD:.knowledge/config.yaml`) whose id and type are wanted and which may be missing: they
 * are asked first, in the same process. Git writes into a spool file (spoolFile) that is read as
 * it grows. The read starts again through a pipe at the first object over `maxBytes`, and when
 * git fails writing into the spool (a full disk): the spool never holds a staged file of
 * gigabytes, and a small temporary folder costs speed, not a commit. Blobs kept are in memory
 * too, so the spool at most doubles what a read holds.
 */
export function readBlobsCapped(where: Where, ids: readonly string[] | Promise<readonly string[]>, maxBytes = Infinity, lookup: Lookup = { names: [] }): Promise<BlobRead> {
  return catFile(where, ids, maxBytes, lookup, true);
}

/** readBlobsCapped through a spool file (`spooled`, where one can be made) or a pipe. */
async function catFile(where: Where, ids: readonly string[] | Promise<readonly string[]>, maxBytes: number, lookup: Lookup, spooled: boolean): Promise<BlobRead> {
  const { names: look, keep: keepLooks = false, answered } = lookup;
  const result: BlobRead = { blobs: new Map(), tooLarge: new Map(), looks: [] };
  let told = false;
  const looked = (): void => {
    if (result.looks.length !== look.length) return;
    told = true;
    answered?.(result.looks);
  };
  if (look.length === 0) looked();
  if (Array.isArray(ids) && ids.length === 0 && look.length === 0) return result;
  let unique: string[] = [];
  const { child, spool } = startGit(['cat-file', '--batch', '--buffer'], where, spooled);
  // Set when the read should start again through a pipe: git is stopped, and its output dropped.
  let again = false;
  return new Promise((resolve, reject) => {
    const errors: Buffer[] = [];
    let failure: LoreError | undefined;
    // Parser state: a header being read, or `left` bytes of the current object, then its newline.
    let header: Buffer[] = [];
    let current: { oid: string; type: string; size: number; parts: Buffer[] | undefined } | undefined;
    let left = 0;
    const finishBlob = (): void => {
      const { oid, type, size, parts } = current!;
      if (result.looks.length < look.length) {
        result.looks.push({ id: oid, type, ...(keepLooks ? { content: Buffer.concat(parts!, size) } : {}) });
        looked();
      } else if (parts === undefined) result.tooLarge.set(oid, size);
      else result.blobs.set(oid, Buffer.concat(parts, size));
      current = undefined;
    };
    const throughPipe = (): void => {
      again = true;
      child.kill();
    };
    const parse = (chunk: Buffer): void => {
      let at = 0;
      while (at < chunk.length && failure === undefined && !again) {
        if (current === undefined) {
          const newline = chunk.indexOf(0x0a, at);
          header.push(chunk.subarray(at, newline === -1 ? chunk.length : newline));
          if (newline === -1) return;
          at = newline + 1;
          const line = Buffer.concat(header).toString('utf8');
          header = [];
          const looking = result.looks.length < look.length;
          // A name is answered "<name> missing"; the names looked up hold no space.
          if (looking && line === `${look[result.looks.length]} missing`) {
            result.looks.push(undefined);
            looked();
            continue;
          }
          const [oid, type, size] = line.split(' ');
          if (type === 'missing' || size === undefined) {
            failure = new LoreError('GIT', `git has no object ${oid}`);
            child.kill();
            return;
          }
          if (spool !== undefined && Number(size) > maxBytes) return throughPipe();
          const kept = looking ? keepLooks : Number(size) <= maxBytes;
          current = { oid: oid!, type: type!, size: Number(size), parts: kept ? [] : undefined };
          left = Number(size);
          continue;
        }
        if (left > 0) {
          const n = Math.min(left, chunk.length - at);
          current.parts?.push(chunk.subarray(at, at + n));
          left -= n;
          at += n;
          continue;
        }
        at += 1; // the newline git writes after each object
        finishBlob();
      }
    };
    // The spool is read from `read` on: what git has written so far, past a skipped object's bytes.
    let read = 0;
    let closed = false;
    const drain = (): void => {
      if (spool === undefined || closed) return;
      for (;;) {
        if (failure !== undefined || again) return;
        if (current !== undefined && current.parts === undefined && left > 0) {
          read += left;
          left = 0;
        }
        const waiting = fstatSync(spool).size - read;
        if (waiting <= 0) return;
        const chunk = Buffer.allocUnsafe(Math.min(waiting, SPOOL_CHUNK));
        const n = readSync(spool, chunk, 0, chunk.length, read);
        if (n === 0) return;
        read += n;
        parse(chunk.subarray(0, n));
      }
    };
    const poll = spool === undefined ? undefined : setInterval(() => {
      try {
        drain();
      } catch (error) {
        failure ??= new LoreError('GIT', `could not read git cat-file's output: ${(error as Error).message}`, { cause: error });
        child.kill();
      }
    }, SPOOL_POLL_MS);
    // Once: a process that could not start emits 'error', then 'close'.
    const done = (): void => {
      if (closed) return;
      closed = true;
      if (poll !== undefined) clearInterval(poll);
      if (spool !== undefined) closeSync(spool);
    };
    let started = true;
    child.stdout?.on('data', parse);
    child.stderr!.on('data', (chunk: Buffer) => errors.push(chunk));
    child.on('error', (error) => {
      started = false;
      done();
      reject(new LoreError('GIT', `could not run git: ${error.message}`, { cause: error }));
    });
    child.on('close', (code) => {
      if (!started) return;
      try {
        drain();
      } catch (error) {
        failure ??= new LoreError('GIT', `could not read git cat-file's output: ${(error as Error).message}`, { cause: error });
      } finally {
        done();
      }
      // Git failing while it wrote into the spool (a full disk, a quota) is tried again through a pipe.
      if (again || (spool !== undefined && failure === undefined && code !== 0)) {
        resolve(catFile(where, ids, maxBytes, { ...lookup, answered: told ? undefined : answered }, false));
        return;
      }
      if (failure !== undefined) return reject(failure);
      if (code !== 0) return reject(new LoreError('GIT', `git cat-file --batch failed: ${Buffer.concat(errors).toString('utf8').trim().split('\n').slice(0, 5).join('; ') || `exit code ${code}`}`));
      if (current !== undefined || header.length > 0) return reject(new LoreError('GIT', 'git cat-file --batch stopped in the middle of an object'));
      if (result.looks.length !== look.length) return reject(new LoreError('GIT', `git cat-file --batch did not answer for ${look[result.looks.length]}`));
      const missing = unique.find((id) => !result.blobs.has(id) && !result.tooLarge.has(id));
      if (missing !== undefined) return reject(new LoreError('GIT', `git cat-file --batch did not return ${missing}`));
      resolve(result);
    });
    child.stdin!.on('error', () => undefined);
    if (look.length > 0) child.stdin!.write(`${look.join('\n')}\n`);
    Promise.resolve(ids).then((list) => {
      unique = [...new Set(list)];
      child.stdin!.end(unique.length === 0 ? '' : `${unique.join('\n')}\n`);
    }, (error: unknown) => {
      failure = error instanceof LoreError ? error : new LoreError('GIT', `could not list the objects to read: ${(error as Error).message}`, { cause: error });
      child.stdin!.end();
      child.kill();
    });
  });
}

/** The content of each named object (`HEAD:<path>`, names without spaces), in one `git cat-file --batch`; undefined where there is none. */
export async function readObjects(where: Where, names: readonly string[]): Promise<Array<Buffer | undefined>> {
  return (await readBlobsCapped(where, [], Infinity, { names, keep: true })).looks.map((answer) => answer?.content);
}

/** Reads blobs by id in one `git cat-file --batch`. */
export async function readBlobs(where: Where, blobs: readonly string[]): Promise<Map<string, Buffer>> {
  return (await readBlobsCapped(where, blobs)).blobs;
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

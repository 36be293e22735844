// Reading what a change adds, from git's object store: the staged change (the index against HEAD)
// and each commit of a range (merges included, against every parent). Only plumbing commands with
// explicit flags and NUL-separated output, and blobs read raw through `cat-file --batch`: no
// textconv, external diff, attribute or user setting changes what the guard sees.
import { isUtf8 } from 'node:buffer';
import { lstatSync } from 'node:fs';
import { resolve } from 'node:path';
import { LoreError } from '../errors.js';
import { git, gitBytes, type GitOptions } from '../git/exec.js';
import { readBlobsCapped, type BlobRead } from '../git/objects.js';
import { isNullBlob, parseDiffTreeOutput, parseRawDiff, type RawChange } from '../git/raw-diff.js';
import { KNOWLEDGE_DIR } from '../store/layout.js';
import { addedLines, type AddedLine, type ChangedFile, type ChangeStatus } from './added-lines.js';
import { RULE_TREES_AT_HEAD, TURNS_AT_HEAD } from './hook-git.js';
import type { ChangeSet } from './scan.js';

/** The largest file the guard scans; a larger one stops it rather than pass unscanned. */
export const MAX_SCAN_BYTES = 64 * 1024 * 1024;

/** Recursive, NUL-separated, full blob ids, renames followed, submodules never ignored. */
const RAW_FLAGS = ['-r', '-z', '--raw', '--no-abbrev', '-M', '--ignore-submodules=none'];

/** The index against a tree (plumbing: reads no diff.* or color.* setting; GIT_INDEX_FILE is respected). */
export const stagedArgs = (tree: string): string[] => ['diff-index', '--cached', ...RAW_FLAGS, tree, '--'];

const GITLINK = '160000';
const STATUS: Readonly<Record<string, ChangeStatus>> = { A: 'added', M: 'modified', T: 'typechange', R: 'renamed', C: 'copied' };

/** A change whose new side has content to scan (not a deletion, a submodule or an unmerged path). */
function scannable(change: RawChange): boolean {
  return STATUS[change.status] !== undefined && !isNullBlob(change.newBlob) && change.newMode !== GITLINK;
}

/** The earlier blob a change compares with, when there is one with content. */
function oldBlobOf(change: RawChange): string | undefined {
  return change.status === 'A' || isNullBlob(change.oldBlob) || change.oldMode === GITLINK ? undefined : change.oldBlob;
}

/** The staged changes and the blobs they need, read from git (what bin/lore.js starts early). */
export interface StagedRead {
  changes: RawChange[];
  /** Every path the diff names, old paths of renames included, scannable or not (deletions too). */
  paths: string[];
  /** The blobs, and in `looks` git's answer for each of RULE_TREES_AT_HEAD, then for TURNS_AT_HEAD. */
  read: BlobRead;
}

/** What the read knows before the blobs are in: the paths of the diff and git's answers at HEAD. */
export type StagedHeads = Pick<StagedRead, 'paths'> & Pick<BlobRead, 'looks'>;

/** A staged read under way: `heads` settles first, while git is still reading the blobs. */
export interface StagedStart {
  heads: Promise<StagedHeads>;
  read: Promise<StagedRead>;
  /** The stamp of the index the commit is made from (indexStamp), taken before git read it. */
  index: string | undefined;
  /** git's raw diff of the index against HEAD, as read: what sameStagedChange compares. */
  diff: Promise<string>;
}

/**
 * The stamp (size, times, inode) of the index a commit is made from: GIT_INDEX_FILE, which git sets
 * for the pre-commit hook (relative to the top level); undefined without it (not in a commit). For
 * a plain `git commit`, git lets go of the index before the hook and reads it again after it: a
 * `git add` meanwhile would commit what the check never saw, and changes this stamp.
 */
export function indexStamp(options: GitOptions): string | undefined {
  const file = indexFile(options);
  if (file === undefined) return undefined;
  try {
    const info = lstatSync(file, { bigint: true });
    return `${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.ino}`;
  } catch {
    return 'unreadable';
  }
}

/** Whether another git process is writing that index right now (its .lock exists: a git add under way). */
export function indexLocked(options: GitOptions): boolean {
  const file = indexFile(options);
  return file !== undefined && lstatSync(`${file}.lock`, { throwIfNoEntry: false }) !== undefined;
}

/** The index git names for the hook (GIT_INDEX_FILE, relative to the top level), absolute; undefined outside a commit. */
function indexFile(options: GitOptions): string | undefined {
  const file = (options.env ?? process.env).GIT_INDEX_FILE;
  return file === undefined || file === '' ? undefined : resolve(options.cwd, file);
}

/** git's raw diff of the index against HEAD (against the empty tree before the first commit). */
async function stagedDiff(options: GitOptions): Promise<string> {
  try {
    return await git(stagedArgs('HEAD'), options);
  } catch (error) {
    // Only an unborn HEAD falls back; any other failure stops the guard.
    if ((await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], options).then(() => true, () => false))) throw error;
    return git(stagedArgs(await emptyTree(options)), options);
  }
}

/**
 * Whether the staged change is still the one `start` read, when the index was written meanwhile
 * (a stamp that moved, or a lock held now). Most such writes change nothing staged (a git status
 * refreshing the files' stat data, from an editor or a prompt): once the writer lets go, git's
 * raw diff (blob ids and modes) is compared with the one read. A lock held for 3 s counts as a change.
 */
export async function sameStagedChange(options: GitOptions, start: StagedStart): Promise<boolean> {
  if (indexStamp(options) === start.index && !indexLocked(options)) return true;
  for (let waited = 0; indexLocked(options); waited += 20) {
    if (waited >= 3000) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return (await stagedDiff(options)) === (await start.diff);
}

async function emptyTree(options: GitOptions): Promise<string> {
  // The id depends on the repository's hash (SHA-1 or SHA-256): ask git.
  return (await gitBytes(['hash-object', '-t', 'tree', '--stdin'], { ...options, input: '' })).toString('utf8').trim();
}

/**
 * Reads the staged changes against HEAD (or, before the first commit, against the empty tree) and
 * their blobs; the same cat-file process first looks up the rule folders and the turn logs at HEAD.
 * `listed` settles once the diff is in and its blob ids are on their way to cat-file (or the diff
 * failed): what the read waits for from then on is git reading the blobs.
 */
export function startStagedRead(options: GitOptions): StagedStart & { listed: Promise<unknown> } {
  const index = indexStamp(options);
  const diff = stagedDiff(options);
  const all = diff.then(parseRawDiff);
  const listed = all.then((changes) => changes.filter(scannable));
  // cat-file starts alongside diff-index and reads the ids when they come: the two overlap.
  const ids = listed.then((changes) => changes.flatMap((c) => [c.newBlob, oldBlobOf(c)].filter((id): id is string => id !== undefined)));
  let answered!: (looks: BlobRead['looks']) => void;
  const looks = new Promise<BlobRead['looks']>((resolve) => (answered = resolve));
  const blobs = readBlobsCapped(options, ids, MAX_SCAN_BYTES, { names: [...RULE_TREES_AT_HEAD, TURNS_AT_HEAD], answered });
  const paths = all.then((changes) => changes.flatMap((c) => (c.oldPath === undefined ? [c.path] : [c.path, c.oldPath])));
  // The answers come before the blobs; a read that fails before them fails `heads` too.
  const heads = Promise.all([paths, Promise.race([looks, blobs.then((read) => read.looks)])]).then(([paths, looks]) => ({ paths, looks }));
  const read = Promise.all([listed, blobs, paths]).then(([changes, read, paths]) => ({ changes, paths, read }));
  // readBlobsCapped has written the ids to cat-file in a reaction to `ids`, which came first.
  return { listed: ids.then(() => undefined, () => undefined), heads, read, index, diff };
}

/** startStagedRead without its `listed`. */
export function readStaged(options: GitOptions): StagedStart {
  const { heads, read, index, diff } = startStagedRead(options);
  return { heads, read, index, diff };
}

/**
 * The most lines the guard holds: each line it compares or scans is a string and an object in
 * memory (about 85 bytes), so three files of 31 million short lines took 5.5 GB and V8 gave up.
 * A file whose versions hold more lines, or a check whose files add more in all (the staged change,
 * or every commit of a range), stops it (TOO_LARGE), as a file over MAX_SCAN_BYTES does: it never
 * passes what it has not read.
 */
export const MAX_SCAN_LINES = 8_000_000;

/**
 * The most characters of added text one check holds (a new file's whole text, a modified file's
 * added lines): ten staged files of 60 MB in long lines (few lines, within MAX_SCAN_LINES) took 1.2 GB.
 */
export const MAX_SCAN_TEXT = 512 * 1024 * 1024;

const TOO_MANY_LINES_HINT = 'the guard never passes what it has not read; keep large data files out of git (Git LFS), or commit them apart (in a hook, LORE_SKIP=1 skips the check visibly)';

/** What one check has read so far: files over the byte cap, and how many lines the files add. */
interface Scan {
  tooLarge: Array<{ path: string; size: number }>;
  added: number;
  /** Characters of the new versions read so far. */
  text: number;
}

const newScan = (): Scan => ({ tooLarge: [], added: 0, text: 0 });

function lineCount(text: string): number {
  let lines = text === '' || text.endsWith('\n') ? 0 : 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/** addedLines of one file of a check, within MAX_SCAN_LINES: the file's versions before they are split, what it adds after. */
function addedWithin(scan: Scan, path: string, text: string, before: readonly string[]): AddedLine[] {
  const lines = lineCount(text);
  const held = before.reduce((sum, version) => sum + lineCount(version), lines);
  if (held > MAX_SCAN_LINES) throw new LoreError('TOO_LARGE', `the commit guard cannot compare ${path}: its versions hold ${held.toLocaleString('en-US')} lines, over the ${MAX_SCAN_LINES.toLocaleString('en-US')} it holds at once`, { hint: TOO_MANY_LINES_HINT });
  // A new file adds every line, and they keep its text: both known before they are made.
  if (before.length === 0) {
    if (scan.added + lines > MAX_SCAN_LINES) throw tooManyAdded(path);
    holdText(scan, text.length, path);
  }
  const added = addedLines(text, before);
  scan.added += added.length;
  if (scan.added > MAX_SCAN_LINES) throw tooManyAdded(path);
  if (before.length > 0) {
    // A few lines added to a large file (a lockfile, in every commit of a range) would keep the whole
    // text of each version alive (V8 makes a line of 13 characters or more a slice of its text):
    // they are copied, and only they count.
    for (const line of added) {
      if (line.text.length >= 13) line.text = Buffer.from(line.text, 'utf16le').toString('utf16le');
      holdText(scan, line.text.length, path);
    }
  }
  return added;
}

function holdText(scan: Scan, characters: number, path: string): void {
  scan.text += characters;
  if (scan.text > MAX_SCAN_TEXT) throw new LoreError('TOO_LARGE', `the commit guard holds at most ${MAX_SCAN_TEXT / 1024 / 1024} MiB of changed files at once, and this change has more (${path} among them)`, { hint: TOO_MANY_LINES_HINT });
}

const tooManyAdded = (path: string): LoreError =>
  new LoreError('TOO_LARGE', `the commit guard holds at most ${MAX_SCAN_LINES.toLocaleString('en-US')} added lines at once, and this change adds more (${path} among them)`, { hint: TOO_MANY_LINES_HINT });

function refuseTooLarge(tooLarge: ReadonlyArray<{ path: string; size: number }>): void {
  if (tooLarge.length === 0) return;
  const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  const list = tooLarge.slice(0, 10).map((f) => `${f.path} (${mib(f.size)})`).join(', ');
  throw new LoreError('TOO_LARGE', `the commit guard cannot scan ${tooLarge.length === 1 ? 'a file' : `${tooLarge.length} files`} over ${mib(MAX_SCAN_BYTES)}: ${list}${tooLarge.length > 10 ? ', ...' : ''}`, {
    hint: 'the guard never passes a file it has not read; keep large files out of git (Git LFS), or skip the hook visibly with LORE_SKIP=1',
  });
}

/** Text of a blob; a blob over the cap is recorded in `tooLarge`. */
function textOf(read: BlobRead, blob: string, path: string, scan: Scan): string | undefined {
  const size = read.tooLarge.get(blob);
  if (size !== undefined) {
    scan.tooLarge.push({ path, size });
    return undefined;
  }
  // Scanned whatever the bytes: a byte that is not UTF-8 reads as U+FFFD and the rest is matched as usual.
  return read.blobs.get(blob)!.toString('utf8');
}

/** Knowledge files must be UTF-8 (knowledge-files.ts reports them); other files are scanned as they are. */
function utf8Flag(read: BlobRead, blob: string, path: string): { notUtf8?: true } {
  return path.startsWith(`${KNOWLEDGE_DIR}/`) && !isUtf8(read.blobs.get(blob)!) ? { notUtf8: true } : {};
}

/** The changed files of one diff (a commit against one parent, or the index against HEAD). */
function filesOf(changes: readonly RawChange[], read: BlobRead, scan: Scan): ChangedFile[] {
  const files: ChangedFile[] = [];
  for (const change of changes) {
    const text = textOf(read, change.newBlob, change.path, scan);
    const old = oldBlobOf(change);
    const before = old === undefined ? undefined : textOf(read, old, change.oldPath ?? change.path, scan);
    if (text === undefined) continue;
    files.push({
      path: change.path, ...(change.oldPath === undefined ? {} : { oldPath: change.oldPath }), status: STATUS[change.status]!, blob: change.newBlob,
      ...utf8Flag(read, change.newBlob, change.path), added: addedWithin(scan, change.path, text, before === undefined ? [] : [before]),
    });
  }
  return files;
}

/** The staged change as the guard scans it; throws TOO_LARGE for a file it cannot read whole. */
export function stagedFiles(staged: StagedRead): ChangedFile[] {
  const scan = newScan();
  const files = filesOf(staged.changes, staged.read, scan);
  refuseTooLarge(scan.tooLarge);
  return files;
}

/** A commit and its parents, oldest first. */
interface RangeCommit {
  commit: string;
  parents: string[];
}

/** Every commit in `from..to` (merges included), parents before children. */
export async function rangeCommits(options: GitOptions, from: string, to: string): Promise<RangeCommit[]> {
  const text = await git(['rev-list', '--topo-order', '--reverse', '--parents', `${from}..${to}`, '--'], options);
  return text.split('\n').filter(Boolean).map((line) => {
    const [commit, ...parents] = line.split(' ');
    return { commit: commit!, parents };
  });
}

/**
 * What a merge introduces: the paths it changes against every parent, with the lines that no
 * parent's version holds (as often). What it takes unchanged from one parent is that parent's.
 */
function mergeFiles(perParent: ReadonlyArray<readonly RawChange[]>, read: BlobRead, scan: Scan): ChangedFile[] {
  const byPath = perParent.map((changes) => new Map(changes.map((c) => [c.path, c])));
  const files: ChangedFile[] = [];
  for (const [path, first] of byPath[0]!) {
    const versions = byPath.map((m) => m.get(path));
    if (versions.some((c) => c === undefined)) continue;
    const text = textOf(read, first.newBlob, path, scan);
    const before: string[] = [];
    for (const change of versions as RawChange[]) {
      const old = oldBlobOf(change);
      const oldText = old === undefined ? '' : textOf(read, old, change.oldPath ?? path, scan);
      if (oldText !== undefined) before.push(oldText);
    }
    if (text === undefined) continue;
    const status: ChangeStatus = versions.every((c) => c!.status === 'A') ? 'added' : 'modified';
    files.push({ path, status, blob: first.newBlob, ...utf8Flag(read, first.newBlob, path), added: addedWithin(scan, path, text, before) });
  }
  return files;
}

/**
 * The change sets of every commit in `from..to`, in order: a commit against its parent, a merge
 * for what it introduces that none of its parents had, a root commit whole.
 */
export async function rangeChangeSets(options: GitOptions, from: string, to: string, onProgress?: (done: number, total: number, what: string) => void): Promise<{ commits: RangeCommit[]; changes: ChangeSet[] }> {
  const commits = await rangeCommits(options, from, to);
  // One `diff-tree --stdin` for the whole range: a line per (commit, parent) pair, a root alone.
  const input = commits.flatMap(({ commit, parents }) => (parents.length === 0 ? [commit] : parents.map((p) => `${commit} ${p}`))).join('\n');
  const output = commits.length === 0 ? '' : (await gitBytes(['diff-tree', '--stdin', '--always', '--root', ...RAW_FLAGS], { ...options, input: `${input}\n` })).toString('utf8');
  const sections = parseDiffTreeOutput(output);
  const ids = sections.flatMap((s) => s.changes.filter(scannable).flatMap((c) => [c.newBlob, oldBlobOf(c)].filter((id): id is string => id !== undefined)));
  const read = await readBlobsCapped(options, ids, MAX_SCAN_BYTES);
  const scan = newScan();
  const changes: ChangeSet[] = [];
  let at = 0;
  for (const [k, { commit, parents }] of commits.entries()) {
    onProgress?.(k + 1, commits.length, 'reading commits');
    const own = sections.slice(at, at + Math.max(1, parents.length));
    at += own.length;
    if (own.some((s) => s.commit !== commit)) throw new LoreError('GIT', `git diff-tree answered for another commit than ${commit}`);
    const perParent = own.map((s) => s.changes.filter(scannable));
    const files = perParent.length === 1 ? filesOf(perParent[0]!, read, scan) : mergeFiles(perParent, read, scan);
    changes.push({ commit, files });
  }
  refuseTooLarge(scan.tooLarge);
  return { commits, changes };
}

// A look at some folders taken by `find` on the other core while the CLI is still loading: each
// entry's name, size, modification and change times and inode, the numbers lstat gives, for
// lookAtRecordFiles to take instead of listing and stating 10,000 files on the main thread. The
// look is an optimisation only: anything short of a clean, complete answer (no GNU find, an error
// on any file, output lore does not read exactly) leaves it untaken, and the caller looks itself.
// Light on purpose: no store, no parser.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, fstatSync, lstatSync, mkdtempSync, openSync, readSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One folder as find saw it: its entries' names, and size, mtimeMs, ctimeMs, ino of each. */
export interface FolderLook {
  names: string[];
  numbers: Float64Array;
}

/**
 * A look started earlier: `started` is the time (ms) before find looked at anything; `looked`,
 * which of the folders asked for it was given (one missing then holds nothing); `output`, what find
 * printed for them, when it finished cleanly.
 */
export interface StartedLook {
  started: number;
  looked: boolean[];
  output: Promise<Buffer | undefined>;
}

/** The most find may print: some 700,000 entries. More is left to the caller's own look. */
const MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * What find prints for each entry of each folder and for the folder itself (depth 0): depth, type,
 * size, both times as seconds with their fraction, inode, name. NUL ends each: a name may hold
 * anything else.
 */
export const FIND_FORMAT = '%d %y %s %T@ %C@ %i %f\\0';

const LOOKS = Symbol.for('lore.early-looks');
/**
 * The looks started, by folder list. Kept on globalThis: bin/lore.js starts a look through this
 * module and the command takes it through its copy in the bundled CLI (cli/load.ts), two
 * instances of one module.
 */
const looks = ((globalThis as { [LOOKS]?: Map<string, { look: StartedLook; claim(): void }> })[LOOKS] ??= new Map());

/**
 * A file for find's output, open for reading and writing and already unlinked (its folder too):
 * nothing else can open it, and it goes away with the descriptor. Not a pipe: a pipe holds 64 KiB,
 * and find would wait on each one for this process, busy loading the CLI, to empty it (10,000
 * entries: 86 ms from start to end instead of 33).
 */
function unlinkedFile(): number {
  const dir = mkdtempSync(join(tmpdir(), 'lore-look-'));
  const file = join(dir, 'find');
  try {
    const fd = openSync(file, 'wx+', 0o600);
    try {
      unlinkSync(file);
    } catch {
      // where an open file cannot go (Windows, some network file systems): it goes with its folder below, or stays
    }
    return fd;
  } finally {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // left in TMPDIR, as any program's temporary folder can be
    }
  }
}

/** The bytes find wrote to `fd`, when there are at most MAX_OUTPUT; the descriptor is closed. */
function outputOf(fd: number): Buffer | undefined {
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_OUTPUT) return undefined;
    const bytes = Buffer.allocUnsafe(size);
    let at = 0;
    while (at < size) {
      const read = readSync(fd, bytes, at, size - at, at);
      if (read === 0) return undefined;
      at += read;
    }
    return bytes;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Starts find on `dirs` (absolute paths): on those that exist, since find fails on a missing one
 * where a listing finds nothing (a new store has no learnings/ yet). The first lookAtRecordFiles
 * of exactly these folders takes it; until then it holds nothing open that would keep the process
 * from exiting. Nothing is started when find cannot be (the caller then looks itself).
 */
export function prestartFolderLook(dirs: readonly string[]): void {
  const started = Date.now();
  let looked: boolean[];
  let child: ChildProcess;
  let out: number | undefined;
  try {
    looked = dirs.map((dir) => lstatSync(dir, { throwIfNoEntry: false }) !== undefined);
    if (!looked.includes(true)) return;
    out = unlinkedFile();
    child = spawn('find', [...dirs.filter((_, q) => looked[q]), '-maxdepth', '1', '-printf', FIND_FORMAT], {
      stdio: ['ignore', out, 'ignore'],
      env: { ...process.env, LC_ALL: 'C' },
    });
  } catch {
    // a folder lore cannot look at, no temporary file, or a find that cannot start at all (ELOOP, EPERM: spawn throws those)
    if (out !== undefined) closeSync(out);
    return;
  }
  const file = out;
  const output = new Promise<Buffer | undefined>((resolve) => {
    let done = false;
    const end = (bytes: () => Buffer | undefined): void => {
      if (done) return;
      done = true;
      resolve(bytes());
    };
    child.on('error', () => end(() => (closeSync(file), undefined)));
    // find's output is a whole one only when it ends well (0); more than MAX_OUTPUT is left to the caller's own look.
    child.on('close', (code) => end(() => (code === 0 ? outputOf(file) : (closeSync(file), undefined))));
  });
  // Nobody may take it (a daemon answers, a usage error): it must not hold the process open then.
  child.unref();
  looks.set(dirs.join('\0'), {
    look: { started, looked, output },
    claim: () => child.ref(),
  });
}

/** The look prestarted for exactly `dirs`, once: a later look of the same folders looks itself. */
export function takeFolderLook(dirs: readonly string[]): StartedLook | undefined {
  const key = dirs.join('\0');
  const early = looks.get(key);
  if (early === undefined) return undefined;
  looks.delete(key);
  early.claim();
  return early.look;
}

const SPACE = 0x20;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LETTER_D = 0x64;

/**
 * find's output for `count` folders, each its own depth-0 line (a folder, `d`) followed by its
 * entries; undefined unless every line reads exactly so. Times are turned into milliseconds as
 * Node turns a timespec (seconds × 1e3 + nanoseconds / 1e6), so each number is the one lstatSync
 * gives for the same file.
 */
export function parseFolderLook(output: Buffer, count: number): FolderLook[] | undefined {
  const folders: Array<{ names: string[]; numbers: number[] }> = [];
  let at = 0;
  // A whole number of at most 15 digits ended by `stop` (read past it); -1 when it is not one.
  const whole = (stop: number): number => {
    const from = at;
    let value = 0;
    while (output[at]! >= ZERO && output[at]! <= NINE) value = value * 10 + (output[at++]! - ZERO);
    if (at === from || at - from > 15 || output[at] !== stop) return -1;
    at++;
    return value;
  };
  // Seconds, a dot and a fraction of at least 9 digits, ended by a space, in milliseconds as Node
  // makes them of a timespec; -1 when it is not so. A time before 1970 is refused on purpose (its
  // sign is not a digit): GNU find 4.9 prints -5.5 s as -6.5000000000, which lstat does not give.
  const time = (): number => {
    const seconds = whole(DOT);
    if (seconds < 0) return -1;
    const from = at;
    let nanos = 0;
    while (output[at]! >= ZERO && output[at]! <= NINE) {
      if (at - from < 9) nanos = nanos * 10 + (output[at]! - ZERO);
      at++;
    }
    if (at - from < 9 || output[at] !== SPACE) return -1;
    at++;
    return seconds * 1e3 + nanos / 1e6;
  };
  while (at < output.length) {
    const depth = output[at];
    const type = output[at + 2];
    if ((depth !== ZERO && depth !== ZERO + 1) || output[at + 1] !== SPACE || output[at + 3] !== SPACE) return undefined;
    at += 4;
    const size = whole(SPACE);
    const mtimeMs = size < 0 ? -1 : time();
    const ctimeMs = mtimeMs < 0 ? -1 : time();
    const ino = ctimeMs < 0 ? -1 : whole(SPACE);
    const stop = ino < 0 ? -1 : output.indexOf(0, at);
    if (stop <= at) return undefined;
    if (depth === ZERO) {
      // Each folder opens with its own line: a folder, not a symlink to one.
      if (type !== LETTER_D) return undefined;
      folders.push({ names: [], numbers: [] });
    } else {
      const folder = folders[folders.length - 1];
      if (folder === undefined) return undefined;
      folder.names.push(output.toString('utf8', at, stop));
      folder.numbers.push(size, mtimeMs, ctimeMs, ino);
    }
    at = stop + 1;
  }
  return folders.length === count ? folders.map(({ names, numbers }) => ({ names, numbers: Float64Array.from(numbers) })) : undefined;
}

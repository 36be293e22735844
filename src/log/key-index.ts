// A key index of one log: the latest version of every key (its time, whether it is a tombstone,
// and a small summary the caller picks), how many live keys of each class there are, and the lines
// that were skipped. It can be saved (toJSON) and brought up to date later: it remembers the log's
// identity (device, inode, size, mtime), how far it read, and a hash of the bytes just before that
// point. An unchanged log is not read at all; a log that only grew is read from where the index
// stopped; anything else (rewritten, truncated, edited in place, another validator) is read again
// from the start. The index is never the authority: readers replay the file, and a rewrite re-reads
// it under its lock.
//
// The entries are kept as text, one line per winning version (`["key",time,deleted,summary]`), the
// last line of a key being its latest, spread over BUCKETS strings by a hash of the key. Loading
// and saving cost no work per key, and looking a key up searches one bucket, so a writer's cost
// barely grows with the log; superseded lines are compacted away once they are as many as the keys.
import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { isErrno, type Problem } from '../errors.js';
import { lineParser, MAX_LINE_BYTES, splitFile } from './_lines.js';
import { replayRules, skippedLine, type LogLine, type ReplayOptions, type SkippedLine } from './ndjson.js';

/** The latest version of one key. */
export interface KeyEntry<S> {
  /** Its time (ms); -Infinity when unreadable. */
  time: number;
  deleted: boolean;
  summary: S;
}

export interface KeyIndexOptions<T, S> extends Omit<ReplayOptions<T>, 'onLine'> {
  /** What the index keeps of a key's latest version: small, JSON-serialisable. */
  summarize: (value: T) => S;
  /** The class a summary counts in (`counts`); default: one class, 'live'. */
  classify?: (summary: S) => string;
  /** Names the validator and the summary: a saved index made under another one is not used. */
  version: string;
}

/** How many bytes before the read offset are hashed to recognise the log. */
const WINDOW = 4096;
/** How many strings the entries are spread over. */
const BUCKETS = 64;
/** A saved index is worth replacing once it lags the log by this many bytes (or an eighth of its entries' size). */
const SAVE_LAG = 16 * 1024;
const FORMAT = 4;

interface Identity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

/** An index as saved: plain JSON, the entries one string. */
export interface SavedKeyIndex {
  format: number;
  version: string;
  identity: Identity | null;
  offset: number;
  window: string;
  lines: number;
  skipped: SkippedLine[];
  counts: Record<string, number>;
  keys: number;
  entryLines: number;
  /** BUCKETS strings, each '\n' then one line per winning version: `["key",time (null for -Infinity),deleted (0|1),summary]`. */
  entries: string[];
}

/** The bucket of a key: FNV-1a of its UTF-16 units. */
function bucketOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % BUCKETS;
}

const emptyBuckets = (): string[] => new Array<string>(BUCKETS).fill('\n');

async function hashWindow(file: string, offset: number): Promise<string> {
  const start = Math.max(0, offset - WINDOW);
  const buffer = Buffer.alloc(offset - start);
  const handle = await open(file, 'r');
  try {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    return createHash('sha1').update(buffer.subarray(0, bytesRead)).digest('hex');
  } finally {
    await handle.close();
  }
}

function sameIdentity(a: Identity | null, b: Identity | null): boolean {
  return a !== null && b !== null && a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

function entryLine<S>(key: string, entry: KeyEntry<S>): string {
  return `${JSON.stringify([key, Number.isFinite(entry.time) ? entry.time : null, entry.deleted ? 1 : 0, entry.summary])}\n`;
}

function parseEntry<S>(line: string): [string, KeyEntry<S>] {
  const [key, time, deleted, summary] = JSON.parse(line) as [string, number | null, 0 | 1, S];
  return [key, { time: time ?? -Infinity, deleted: deleted === 1, summary }];
}

/** The latest version of every key of a log, brought up to date by reading only what changed. */
export class KeyIndex<T, S> {
  /** The lines that were skipped (torn, not JSON, over the cap, refused by the validator). */
  skipped: SkippedLine[] = [];
  /** Lines read (the number of the last line). */
  lines = 0;
  /** Live keys (latest line not a tombstone) per class. */
  counts: Record<string, number> = {};
  private keys = 0;
  private entries = emptyBuckets();
  private entryLines = 0;
  /** Versions read but not yet written into `entries` (during a read). */
  private pending = new Map<string, KeyEntry<S>>();
  private offset = 0;
  private window = '';
  private identity: Identity | null = null;
  /** The offset of the saved index it was restored from; undefined once it was rebuilt or compacted. */
  private savedOffset: number | undefined;

  private constructor(readonly file: string, private readonly options: KeyIndexOptions<T, S>) {}

  /**
   * The index of `file`, from a saved one (anything else, or a saved index of another version, is
   * ignored), brought up to date with the log.
   *
   * @example
   * const index = await KeyIndex.open(file, saved, { summarize: (v) => null, version: '1' });
   * index.latest('TURN-FEAT-1-TASK-1-T2'); // → 1767225600000, or undefined for a new key
   */
  static async open<T, S>(file: string, saved: unknown, options: KeyIndexOptions<T, S>): Promise<KeyIndex<T, S>> {
    const index = new KeyIndex<T, S>(file, options);
    index.restore(saved);
    await index.refresh();
    return index;
  }

  private restore(saved: unknown): void {
    const s = saved as SavedKeyIndex | undefined;
    if (s?.format !== FORMAT || s.version !== this.options.version) return;
    // Damaged (it is only a cache): read the log from the start instead.
    const numbers = [s.offset, s.lines, s.keys, s.entryLines].every(Number.isSafeInteger);
    const buckets = Array.isArray(s.entries) && s.entries.length === BUCKETS && s.entries.every((b) => typeof b === 'string' && b.startsWith('\n'));
    if (!numbers || !buckets || !Array.isArray(s.skipped) || typeof s.counts !== 'object' || s.counts === null || typeof s.identity !== 'object') return;
    const { skipped, lines, counts, keys, entries, entryLines, offset, window, identity } = s;
    Object.assign(this, { skipped, lines, counts, keys, entries, entryLines, offset, window, identity, savedOffset: offset });
  }

  private reset(): void {
    Object.assign(this, { skipped: [], lines: 0, counts: {}, keys: 0, entries: emptyBuckets(), entryLines: 0, offset: 0, window: '', identity: null, savedOffset: undefined });
  }

  /**
   * Whether saving it is worth the write: it was rebuilt or compacted, or it read more of the log
   * than re-reading costs next time. Saving less often keeps a writer's cost flat as the log grows.
   */
  get worthSaving(): boolean {
    return this.savedOffset === undefined || this.offset - this.savedOffset > SAVE_LAG;
  }

  /** Reads what the log gained since the index last read it (or all of it, when it changed otherwise); returns whether anything changed. */
  async refresh(): Promise<boolean> {
    let info;
    try {
      info = await stat(this.file);
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) throw error;
      const changed = this.identity !== null || this.lines > 0;
      this.reset();
      return changed;
    }
    // Taken before reading: whatever is appended meanwhile changes the identity, so it is read next time.
    const identity: Identity = { dev: info.dev, ino: info.ino, size: info.size, mtimeMs: info.mtimeMs };
    if (sameIdentity(identity, this.identity)) return false;
    const grew = this.identity !== null && identity.dev === this.identity.dev && identity.ino === this.identity.ino && identity.size > this.identity.size;
    if (!grew || (await hashWindow(this.file, this.offset)) !== this.window) this.reset();
    await this.read(identity.size - this.offset);
    this.identity = identity;
    return true;
  }

  private async read(expect: number): Promise<void> {
    const { keyOf, timeOf } = replayRules(this.options);
    const onLine = ({ value }: LogLine<T>): void => {
      this.put(keyOf(value), { time: timeOf(value), deleted: (value as { deleted?: unknown }).deleted === true, summary: this.options.summarize(value) });
    };
    const parser = lineParser<T>({ validate: this.options.validate, onLine, firstLine: this.lines + 1 }, (line, reason, kind) => this.skipped.push({ line, reason, kind }));
    try {
      // Bytes after the last newline are left for later: an append may be under way.
      this.offset = await splitFile(this.file, MAX_LINE_BYTES, parser, { start: this.offset, tail: 'leave', expect });
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) throw error;
    } finally {
      this.flush();
    }
    this.lines = parser.count();
    this.window = await hashWindow(this.file, this.offset).catch(() => '');
  }

  private classOf(summary: S): string {
    return this.options.classify?.(summary) ?? 'live';
  }

  /** Applies one version: replay's rule, the latest time wins and equal times the later line. */
  private put(key: string, entry: KeyEntry<S>): void {
    const current = this.pending.get(key) ?? this.find(key);
    if (current !== undefined && entry.time < current.time) return;
    if (current === undefined) this.keys++;
    else if (!current.deleted) this.counts[this.classOf(current.summary)]! -= 1;
    if (!entry.deleted) this.counts[this.classOf(entry.summary)] = (this.counts[this.classOf(entry.summary)] ?? 0) + 1;
    this.pending.set(key, entry);
  }

  /** Writes the versions read into `entries`: appended to their buckets, or all rewritten when most lines are superseded. */
  private flush(): void {
    const pending = this.pending;
    this.pending = new Map();
    if (this.entryLines + pending.size > 2 * this.keys + 64) {
      const all = this.all(pending);
      const buckets = Array.from({ length: BUCKETS }, () => ['\n']);
      for (const [key, entry] of all) buckets[bucketOf(key)]!.push(entryLine(key, entry));
      this.entries = buckets.map((parts) => parts.join(''));
      this.entryLines = all.size;
      this.savedOffset = undefined;
    } else {
      for (const [key, entry] of pending) this.entries[bucketOf(key)] += entryLine(key, entry);
      this.entryLines += pending.size;
    }
  }

  /** Every key's latest version, with `extra` applied over them. */
  private all(extra?: Map<string, KeyEntry<S>>): Map<string, KeyEntry<S>> {
    const map = new Map<string, KeyEntry<S>>();
    for (const bucket of this.entries) {
      let from = 1;
      for (let end = bucket.indexOf('\n', from); end !== -1; from = end + 1, end = bucket.indexOf('\n', from)) {
        const [key, entry] = parseEntry<S>(bucket.slice(from, end));
        map.set(key, entry);
      }
    }
    for (const [key, entry] of extra ?? []) map.set(key, entry);
    return map;
  }

  private find(key: string): KeyEntry<S> | undefined {
    const bucket = this.entries[bucketOf(key)]!;
    const at = bucket.lastIndexOf(`\n[${JSON.stringify(key)},`);
    if (at === -1) return undefined;
    return parseEntry<S>(bucket.slice(at + 1, bucket.indexOf('\n', at + 1)))[1];
  }

  /** The skipped lines as problems, as readers report them. */
  get problems(): Problem[] {
    const shown = this.options.displayPath ?? this.file;
    return this.skipped.map((s) => skippedLine(shown, s.line, s.reason, s.kind));
  }

  /** The latest version of `key`, tombstones included. */
  get(key: string): KeyEntry<S> | undefined {
    return this.find(key);
  }

  /** The time of the latest version of `key`, for stamping a new one (see versions.ts). */
  latest(key: string): number | undefined {
    return this.find(key)?.time;
  }

  /** Calls `fn` with every key whose latest line is not a tombstone (reads every entry). */
  forEachLive(fn: (key: string, summary: S, time: number) => void): void {
    for (const [key, entry] of this.all()) if (!entry.deleted) fn(key, entry.summary, entry.time);
  }

  /** The index as JSON, for KeyIndex.open later (it counts as saved). */
  toJSON(): SavedKeyIndex {
    const { skipped, lines, counts, keys, entries, entryLines, offset, window, identity } = this;
    this.savedOffset = offset;
    return { format: FORMAT, version: this.options.version, identity, offset, window, lines, skipped, counts, keys, entryLines, entries: [...entries] };
  }
}

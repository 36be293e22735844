// What the daemon keeps alive: one Workspace (the store and everything computed from it), brought
// up to date by the watcher's batches, and the records' validation problems, so each batch can say
// which problems appeared and which cleared. Problems belong to one file each, so a batch re-reads
// only the record files it names (a read of every record costs a few hundred ms at 10,000 entries,
// which every change event would wait for); a record folder that is no longer a real folder means
// a full read, which reports it.
import { lstatSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { isErrno, LoreError, type Problem } from '../errors.js';
import { assertRealDir, forgetCheckedDirs } from '../fs/no-follow.js';
import { KINDS, KNOWLEDGE_DIR, RECORD_KINDS, type RecordKindName } from '../store/layout.js';
import type { Workspace } from '../workspace/workspace.js';
import type { EventHub, RecordChange } from './events.js';
import type { Batch } from './watcher.js';
import { byText } from '../text-order.js';

/** What one file (or a record folder, for a problem of the folder) holds. */
interface FileState {
  record?: { kind: string; id: string };
  problems: Problem[];
}

/** Store-relative path (forward slashes) → what it holds. */
type Known = Map<string, FileState>;

const problemKey = (p: Problem): string => `${p.file}\u0000${p.line ?? ''}\u0000${p.pointer ?? ''}\u0000${p.severity}\u0000${p.message}`;
const withoutFrame = ({ frame: _frame, ...p }: Problem): Problem => p;

/** Record folder (store-relative) → its kind. */
const FOLDERS = new Map<string, RecordKindName>(RECORD_KINDS.map((kind) => [`${KNOWLEDGE_DIR}/${KINDS[kind].dir}`, kind]));

/** The kind of a record file (as the store lists them: a record extension, not hidden, right in its kind's folder), or undefined. */
function recordKind(path: string): RecordKindName | undefined {
  const name = basename(path);
  if (name.startsWith('.') || !['.yaml', '.yml', '.json'].includes(extname(name))) return undefined;
  return FOLDERS.get(dirname(path));
}

/** The store's records and their problems, as a batch is applied. */
export class LiveStore {
  private known: Known | undefined;
  batches = 0;
  lastChange: string | undefined;

  constructor(private readonly ws: Workspace, private readonly hub: EventHub) {}

  /** Every record file of the store, through the record cache. */
  private async readAll(): Promise<Known> {
    const root = await this.ws.root();
    const { readRecordsCached } = await import('../indexer/record-cache.js');
    const result = await readRecordsCached(root, { kinds: RECORD_KINDS });
    const known: Known = new Map();
    const at = (file: string): FileState => {
      let state = known.get(file);
      if (state === undefined) known.set(file, (state = { problems: [] }));
      return state;
    };
    for (const r of result.records) at(r.file).record = { kind: r.kind, id: r.id };
    for (const p of result.problems) at(p.file).problems.push(withoutFrame(p));
    return known;
  }

  /** The batch's record files read again into a copy of `before`; undefined when a full read is needed. */
  private async readChanged(before: Known, paths: readonly string[]): Promise<Known | undefined> {
    const root = await this.ws.root();
    const files = paths.map((path) => ({ path, kind: recordKind(path) })).filter((f): f is { path: string; kind: RecordKindName } => f.kind !== undefined);
    try {
      for (const folder of new Set(files.map((f) => dirname(f.path)))) assertRealDir(join(root, folder));
    } catch (error) {
      if (error instanceof LoreError && error.code === 'SYMLINK') return undefined;
      throw error;
    }
    // In the order a full read goes (kind, then file), so problems are listed the same way.
    files.sort((a, b) => RECORD_KINDS.indexOf(a.kind) - RECORD_KINDS.indexOf(b.kind) || byText(a.path, b.path));
    const { readRecordFile } = await import('../store/read.js');
    const after: Known = new Map(before);
    for (const { path, kind } of files) {
      const absolute = join(root, path);
      try {
        lstatSync(absolute);
      } catch (error) {
        if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) {
          after.delete(path);
          continue;
        }
      }
      const { record, problems } = await readRecordFile(root, kind, absolute);
      after.set(path, { ...(record === undefined ? {} : { record: { kind: record.kind, id: record.id } }), problems: problems.map(withoutFrame) });
    }
    return after;
  }

  /** The records' problems as of the last batch (read again when the first read failed), by file and line. */
  async problems(): Promise<Problem[]> {
    this.known ??= await this.readAll();
    return [...this.known.values()].flatMap((state) => state.problems).sort((a, b) => byText(a.file, b.file) || (a.line ?? 0) - (b.line ?? 0));
  }

  /** Reads the records once, so the first batch can say what it changed. */
  async start(): Promise<void> {
    this.known = await this.readAll().catch(() => undefined);
  }

  /** Applies a batch: the workspace forgets what the files fed, then the event goes out. */
  async apply(batch: Batch): Promise<void> {
    const root = await this.ws.root();
    forgetCheckedDirs();
    this.ws.invalidate(batch.changes.map((c) => `${root}/${c.path}`));
    const before = this.known;
    const paths = batch.changes.map((c) => c.path);
    const incremental = before === undefined ? undefined : await this.readChanged(before, paths).catch(() => undefined);
    const after = incremental ?? await this.readAll().catch(() => undefined);
    this.known = after;
    const records: RecordChange[] = batch.changes.map((c) => {
      const record = after?.get(c.path)?.record ?? before?.get(c.path)?.record;
      return { path: c.path, ...(record === undefined ? {} : { kind: record.kind, id: record.id }), change: c.change };
    });
    // Only the files read again can have changed their problems (all of them after a full read).
    const touched = incremental === undefined ? undefined : new Set(paths);
    const problemsOf = (known: Known | undefined): Map<string, Problem> => {
      const out = new Map<string, Problem>();
      for (const [file, state] of known ?? []) if (touched === undefined || touched.has(file)) for (const p of state.problems) out.set(problemKey(p), p);
      return out;
    };
    const [was, now] = [problemsOf(before), problemsOf(after)];
    const appeared = after === undefined ? [] : [...now].filter(([k]) => !was.has(k)).map(([, p]) => p);
    const cleared = before === undefined ? [] : [...was].filter(([k]) => !now.has(k)).map(([, p]) => p);
    this.batches++;
    this.lastChange = new Date().toISOString();
    this.hub.publish({ type: 'change', data: { paths, records, problems: { appeared, cleared }, by: batch.by } });
  }
}

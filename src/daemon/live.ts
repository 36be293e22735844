// What the daemon keeps alive: one Workspace (the store and everything computed from it), brought
// up to date by the watcher's batches, and the records' validation problems, so each batch can say
// which problems appeared and which cleared.
import type { Problem } from '../errors.js';
import { forgetCheckedDirs } from '../fs/no-follow.js';
import { RECORD_KINDS } from '../store/layout.js';
import type { Workspace } from '../workspace/workspace.js';
import type { EventHub, RecordChange } from './events.js';
import type { Batch } from './watcher.js';

interface Known {
  problems: Map<string, Problem>;
  /** Record file → kind and id, for the files that hold a readable record. */
  records: Map<string, { kind: string; id: string }>;
}

const problemKey = (p: Problem): string => `${p.file}\u0000${p.line ?? ''}\u0000${p.pointer ?? ''}\u0000${p.severity}\u0000${p.message}`;

/** The store's records and their problems, as a batch is applied. */
export class LiveStore {
  private known: Known | undefined;
  batches = 0;
  lastChange: string | undefined;

  constructor(private readonly ws: Workspace, private readonly hub: EventHub) {}

  private async read(): Promise<Known> {
    const root = await this.ws.root();
    const { readRecordsCached } = await import('../indexer/record-cache.js');
    const result = await readRecordsCached(root, { kinds: RECORD_KINDS });
    const problems = new Map<string, Problem>();
    for (const { frame: _frame, ...p } of result.problems) problems.set(problemKey(p), p);
    return { problems, records: new Map(result.records.map((r) => [r.file, { kind: r.kind, id: r.id }])) };
  }

  /** The records' problems as of the last batch (read again when the first read failed), by file and line. */
  async problems(): Promise<Problem[]> {
    this.known ??= await this.read();
    return [...this.known.problems.values()].sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0));
  }

  /** Reads the records once, so the first batch can say what it changed. */
  async start(): Promise<void> {
    this.known = await this.read().catch(() => undefined);
  }

  /** Applies a batch: the workspace forgets what the files fed, then the event goes out. */
  async apply(batch: Batch): Promise<void> {
    const root = await this.ws.root();
    forgetCheckedDirs();
    this.ws.invalidate(batch.changes.map((c) => `${root}/${c.path}`));
    const before = this.known;
    const after = await this.read().catch(() => undefined);
    this.known = after;
    const records: RecordChange[] = batch.changes.map((c) => {
      const record = after?.records.get(c.path) ?? before?.records.get(c.path);
      return { path: c.path, ...(record === undefined ? {} : { kind: record.kind, id: record.id }), change: c.change };
    });
    const appeared = after === undefined ? [] : [...after.problems].filter(([k]) => before?.problems.has(k) !== true).map(([, p]) => p);
    const cleared = before === undefined ? [] : [...before.problems].filter(([k]) => after?.problems.has(k) !== true).map(([, p]) => p);
    this.batches++;
    this.lastChange = new Date().toISOString();
    this.hub.publish({ type: 'change', data: { paths: batch.changes.map((c) => c.path), records, problems: { appeared, cleared }, by: batch.by } });
  }
}

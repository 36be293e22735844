// Import: every entry is validated before anything is written, and nothing is written when any
// entry is invalid. Ids are preserved; conflicts are skipped, overwritten or renamed; usage
// statistics of new entries are restored as application events.
import { createHash } from 'node:crypto';
import { ValidationError, type Problem } from '../errors.js';
import { invalidIdReason } from '../store/ids.js';
import { recordPath, displayPath } from '../store/layout.js';
import { DEFAULT_PARSE_LIMITS, parseText, type Located, type ParsedText } from '../store/parse.js';
import { StoreTransaction, writeStore } from '../store/transaction.js';
import { checkValue, putRecord, removeRecord } from '../store/write.js';
import type { ApplicationEvent, KnowledgeEntry } from '../types.js';
import { freeIdLike, kindsHolding, resolveActor, timestamp, type Actor } from './entries.js';
import { completeEntry, type EntryWriteOptions } from './manage.js';
import { applicationsLog, type UsageStats } from './stats.js';

export type ConflictPolicy = 'skip' | 'overwrite' | 'rename';
export const CONFLICT_POLICIES: readonly ConflictPolicy[] = ['skip', 'overwrite', 'rename'];

export interface ImportItem {
  id: string;
  /** The id in the file, when the entry was renamed. */
  importedAs?: string;
  type: KnowledgeEntry['type'];
  action: 'created' | 'overwritten' | 'unchanged' | 'skipped' | 'renamed';
  file: string;
}

export interface ImportResult {
  dryRun: boolean;
  items: ImportItem[];
  warnings: string[];
}

interface Parsed {
  value: unknown;
  /** Problems are reported at `${prefix}${pointer}` in `parsed`. */
  parsed: ParsedText;
  prefix: string;
}

export interface ImportOptions extends EntryWriteOptions {
  text: string;
  file: string;
  onConflict?: ConflictPolicy;
  dryRun?: boolean;
  /** Called for each entry checked, then each entry written (for a progress line). */
  onProgress?: (done: number, total: number, what: string) => void;
}

/** Splits an export into entries: a JSON (or YAML) list, or one JSON object per line. */
function splitEntries(text: string, file: string): { items: Parsed[]; problems: Problem[] } {
  if (/^\s*\[/.test(text) || !/^\s*\{/.test(text)) {
    const parsed = parseText(text, file);
    if (parsed.value === undefined) return { items: [], problems: parsed.problems };
    if (!Array.isArray(parsed.value)) return { items: [], problems: [{ severity: 'error', file, line: 1, column: 1, message: 'expected a list of entries (a JSON array, or one JSON object per line)' }] };
    return { items: parsed.value.map((value, i) => ({ value, parsed, prefix: `/${i}` })), problems: [] };
  }
  const items: Parsed[] = [];
  const problems: Problem[] = [];
  text.split('\n').forEach((line, n) => {
    if (line.trim() === '') return;
    // Each line is parsed alone, numbered as the line it is in the file.
    const parsed = parseText(line, file, DEFAULT_PARSE_LIMITS, { firstLine: n + 1 });
    if (parsed.value === undefined) problems.push(...parsed.problems);
    else items.push({ value: parsed.value, parsed, prefix: '' });
  });
  return { items, problems };
}

const STAT_FIELDS = ['timesApplied', 'timesHelpful', 'lastApplied'] as const;

function statsOf(value: Record<string, unknown>, report: (pointer: string, message: string) => void): UsageStats {
  const applied = value.timesApplied ?? 0;
  const helpful = value.timesHelpful ?? 0;
  const last = value.lastApplied;
  const appliedOk = Number.isInteger(applied) && (applied as number) >= 0 && (applied as number) <= 100_000;
  if (!appliedOk) report('/timesApplied', `timesApplied must be a whole number from 0 to 100000 (found ${JSON.stringify(applied)})`);
  else if (!Number.isInteger(helpful) || (helpful as number) < 0 || (helpful as number) > (applied as number)) report('/timesHelpful', `timesHelpful must be a whole number from 0 to timesApplied (found ${JSON.stringify(helpful)})`);
  if (last !== undefined && (typeof last !== 'string' || Number.isNaN(Date.parse(last)))) report('/lastApplied', `lastApplied must be a date-time (found ${JSON.stringify(last)})`);
  return { timesApplied: applied as number, timesHelpful: helpful as number, ...(typeof last === 'string' ? { lastApplied: last } : {}) };
}

interface Candidate {
  entry: KnowledgeEntry;
  stats: UsageStats;
}

/** Locates pointers in the texts they belong to: one pass per text, however many pointers it has. */
function locateGrouped(requests: ReadonlyArray<{ parsed: ParsedText; pointer: string }>): Array<Located | undefined> {
  const out = new Array<Located | undefined>(requests.length);
  const byText = new Map<ParsedText, number[]>();
  requests.forEach((r, k) => {
    const list = byText.get(r.parsed);
    if (list === undefined) byText.set(r.parsed, [k]);
    else list.push(k);
  });
  for (const [parsed, indexes] of byText) {
    const found = parsed.locateAll(indexes.map((k) => ({ pointer: requests[k]!.pointer })));
    indexes.forEach((k, j) => (out[k] = found[j]));
  }
  return out;
}

/**
 * Validates every entry; returns them completed (source import, timestamps, author, ids free as
 * `tx` leaves the files) or every problem. `actor` was resolved once: not a git process per entry.
 */
async function validateAll(options: ImportOptions, tx: StoreTransaction, actor: Actor, items: readonly Parsed[], file: string): Promise<{ candidates: Candidate[]; problems: Problem[]; warnings: string[] }> {
  const reported: Array<{ parsed: ParsedText; pointer: string; message: string }> = [];
  const candidates: Candidate[] = [];
  const warnings = new Set<string>();
  const seen = new Map<string, string>();
  const starts = locateGrouped(items.map(({ parsed, prefix }) => ({ parsed, pointer: prefix })));
  for (const [k, { value, parsed, prefix }] of items.entries()) {
    options.onProgress?.(k + 1, items.length, 'checking entries');
    const report = (pointer: string, message: string): void => void reported.push({ parsed, pointer: prefix + pointer, message });
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      report('', 'an entry must be an object');
      continue;
    }
    const record = { ...(value as Record<string, unknown>) };
    const stats = statsOf(record, report);
    for (const field of STAT_FIELDS) delete record[field];
    const type = record.type;
    if (type !== 'recommendation' && type !== 'prohibition' && type !== 'learning') {
      report('/type', `type must be one of recommendation, prohibition, learning (found ${JSON.stringify(type)})`);
      continue;
    }
    const { entry } = await completeEntry(options.store, type, { source: 'import', ...record } as Partial<KnowledgeEntry>, { ...options, actor: actor.name, tx });
    if (record.createdBy === undefined && actor.warning !== undefined) warnings.add(actor.warning);
    const idProblem = invalidIdReason(String(entry.id));
    if (idProblem !== undefined) {
      report('/id', `id ${JSON.stringify(entry.id)} is not allowed: ${idProblem}`);
      continue;
    }
    const where = starts[k]?.line;
    if (seen.has(entry.id)) report('/id', `the id ${entry.id} is used by two entries of the file (the other is at line ${seen.get(entry.id)})`);
    seen.set(entry.id, where === undefined ? '?' : String(where));
    for (const problem of checkValue(type, entry, String(entry.id), file)) report(problem.pointer ?? '', problem.message);
    candidates.push({ entry, stats });
  }
  const located = locateGrouped(reported);
  const problems = reported.map(({ pointer, message }, k): Problem => {
    const at = located[k];
    return { severity: 'error', file, ...(at === undefined ? {} : { line: at.line, column: at.column, frame: at.frame }), pointer, message };
  });
  return { candidates, problems, warnings: [...warnings] };
}

/** The application events that restore imported statistics (stable ids: importing twice does not double them). */
function statEvents(entry: KnowledgeEntry, stats: UsageStats, appliedBy: string, at: string): ApplicationEvent[] {
  const key = createHash('sha1').update(entry.id).digest('hex').slice(0, 16);
  return Array.from({ length: stats.timesApplied }, (_, n) => ({
    id: `imp-${key}-${n + 1}`, entryId: entry.id, taskId: 'import', ...(n < stats.timesHelpful ? { helpful: true } : {}), appliedBy,
    // Without the exported lastApplied the time is unknown: recorded now, marked undated, so none is invented.
    ...(stats.lastApplied === undefined ? { timestamp: at, undated: true } : { timestamp: stats.lastApplied }),
  }));
}

/**
 * Imports entries (an export: JSON array or NDJSON). Validates all first and writes nothing if
 * any is invalid, listing every problem. Ids are kept; an id already in the store is skipped,
 * overwritten or renamed (id-2, ...) as `onConflict` says (default skip). Everything, from the
 * ids it checks to the files it writes, happens under the store's write lock, in one transaction.
 *
 * @example
 * await importKnowledge({ store, text: readFileSync('knowledge.json', 'utf8'), file: 'knowledge.json', onConflict: 'rename' });
 */
export async function importKnowledge(options: ImportOptions): Promise<ImportResult> {
  const { store, file } = options;
  const split = splitEntries(options.text.replace(/^\uFEFF/, ''), file);
  const dryRun = options.dryRun === true;
  const actor = await resolveActor(store.root, options);
  const run = async (tx: StoreTransaction): Promise<ImportResult> => {
    const { candidates, problems, warnings } = await validateAll(options, tx, actor, split.items, file);
    const all = [...split.problems, ...problems];
    if (all.length > 0) throw new ValidationError(`nothing was imported: ${file} has ${all.length} problem${all.length === 1 ? '' : 's'}`, all);
    const items: ImportItem[] = [];
    const events: ApplicationEvent[] = [];
    const taken = new Set(candidates.map((c) => c.entry.id));
    for (const [k, { entry, stats }] of candidates.entries()) {
      options.onProgress?.(k + 1, candidates.length, dryRun ? 'comparing entries' : 'writing entries');
      const holders = await kindsHolding(store.root, entry.id, tx);
      const policy = options.onConflict ?? 'skip';
      let target = entry;
      let action: ImportItem['action'] = holders.length === 0 ? 'created' : policy === 'overwrite' ? 'overwritten' : policy === 'rename' ? 'renamed' : 'skipped';
      if (action === 'renamed') {
        target = { ...entry, id: await freeIdLike(store.root, entry.id, 2, taken, tx) };
        taken.add(target.id);
      }
      const path = displayPath(store.root, recordPath(store.root, entry.type, target.id));
      if (!dryRun && action !== 'skipped') {
        for (const kind of holders.filter((k) => k !== entry.type && action === 'overwritten')) await removeRecord(tx, kind, entry.id);
        const written = await putRecord(tx, entry.type, target);
        if (action === 'overwritten' && written.status === 'unchanged' && holders.length === 1) action = 'unchanged';
      }
      if (action === 'created' || action === 'renamed') events.push(...statEvents(target, stats, actor.name, timestamp(options.now)));
      items.push({ id: target.id, ...(target.id === entry.id ? {} : { importedAs: entry.id }), type: entry.type, action, file: path });
    }
    tx.append(applicationsLog(store.root), events);
    return { dryRun, items, warnings };
  };
  // Every entry (and its statistics) lands, or, after a crash, none does. A dry run stages into a
  // transaction it never applies.
  return dryRun ? run(new StoreTransaction(store.root)) : writeStore(store.root, 'lore import', run, options.onProgress === undefined ? {} : { onProgress: options.onProgress });
}

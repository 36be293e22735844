// Usage statistics: "knowledge applied / helpful" events are appended to log/applications.ndjson
// (the shared NDJSON engine: locked, fsynced) and aggregated on read, so using knowledge never
// changes a reviewed entry file.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Problem } from '../errors.js';
import { appendRecords, replayLog } from '../log/ndjson.js';
import { APPLIED_KINDS, displayPath, knowledgeDir, LOGS } from '../store/layout.js';
import { logKind } from '../store/log-kinds.js';
import type { Store } from '../store/open.js';
import type { ApplicationEvent, KnowledgeEntry } from '../types.js';

/** How often an entry was applied and found helpful. */
export interface UsageStats {
  timesApplied: number;
  timesHelpful: number;
  lastApplied?: string;
}

/** An entry with its usage statistics, as query, list, show and export return it. */
/** An entry with its usage statistics; `from` names the extends source of an entry that is not the store's own. */
export type EntryWithStats = KnowledgeEntry & UsageStats & { from?: string };

export const NO_USAGE: Readonly<UsageStats> = Object.freeze({ timesApplied: 0, timesHelpful: 0 });

/** Absolute path of the applications log. */
export function applicationsLog(root: string): string {
  return join(knowledgeDir(root), LOGS.applications);
}

/** Aggregates the applications log: latest line per event id (so a union merge never double counts). */
export async function loadUsageStats(root: string): Promise<{ stats: Map<string, UsageStats>; problems: Problem[] }> {
  const file = applicationsLog(root);
  const replay = await replayLog<ApplicationEvent>(file, {
    displayPath: displayPath(root, file),
    validate: logKind(LOGS.applications)!.lineProblem,
  });
  const stats = new Map<string, UsageStats>();
  for (const { value } of replay.records.values()) {
    const current = stats.get(value.entryId) ?? { timesApplied: 0, timesHelpful: 0 };
    current.timesApplied++;
    if (value.helpful === true) current.timesHelpful++;
    // An undated event (imported without lastApplied) counts but says nothing of when.
    if (value.undated !== true && (current.lastApplied === undefined || Date.parse(value.timestamp) > Date.parse(current.lastApplied))) current.lastApplied = value.timestamp;
    stats.set(value.entryId, current);
  }
  return { stats, problems: replay.problems };
}

/** The entry with its statistics (zero when it was never applied). */
export function withStats(entry: KnowledgeEntry, stats: ReadonlyMap<string, UsageStats>): EntryWithStats {
  const usage = stats.get(entry.id) ?? NO_USAGE;
  return { ...entry, timesApplied: usage.timesApplied, timesHelpful: usage.timesHelpful, ...(usage.lastApplied === undefined ? {} : { lastApplied: usage.lastApplied }) };
}

export interface RecordApplicationOptions {
  store: Store;
  entryId: string;
  taskId: string;
  /** true helpful, false not helpful, undefined not judged. */
  helpful?: boolean | undefined;
  actor?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  now?: Date | undefined;
}

/**
 * Records that an entry was applied to a task (and whether it helped). The entry must exist and
 * not be pending.
 *
 * @example
 * await recordApplication({ store, entryId: 'rec-use-typescript-strict-mode', taskId: 'TASK-7', helpful: true });
 */
export async function recordApplication(options: RecordApplicationOptions): Promise<ApplicationEvent> {
  const { store } = options;
  // Loaded only here: finding the entry reads records, which brings in the parser and the validator.
  const { findEntry, resolveActor, timestamp } = await import('./entries.js');
  await findEntry(store, options.entryId, APPLIED_KINDS);
  const actor = await resolveActor(store.root, options);
  const event: ApplicationEvent = {
    id: `app-${randomUUID()}`,
    entryId: options.entryId,
    taskId: options.taskId,
    ...(options.helpful === undefined ? {} : { helpful: options.helpful }),
    appliedBy: actor.name,
    timestamp: timestamp(options.now),
  };
  // A fresh id: never a new version of an earlier line, so there is nothing to stamp after.
  await appendRecords(applicationsLog(store.root), [event]);
  return event;
}

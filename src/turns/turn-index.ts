// A project's turn logs as recording and retention need them, without replaying them: per feature
// log, a key index (log/key-index.ts) of every turn's number and timestamp and of the completion
// record, kept in .knowledge/.cache/turns/<project>.json between processes. So `turn record` reads
// only the lines appended since the last call, however long the logs grow. The logs stay the
// authority: readers (turn list, latest, validate, the hooks) replay them, a stale or damaged cache
// only costs a full read, and a prune rewrites a log from what it re-reads under the lock.
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { readTextIfExists } from '../fs/read-text.js';
import { cacheKey } from '../store/cache-key.js';
import { KeyIndex, type SavedKeyIndex } from '../log/key-index.js';
import { CACHE_DIR, displayPath, knowledgeDir } from '../store/layout.js';
import type { Store } from '../store/open.js';
import { turnLineProblem } from '../store/turn-line.js';
import type { TurnState } from '../types.js';
import { listTurnFeatures, projectTurnsDir, turnLogPath } from './turn-log.js';

/** What retention reads of a turn. */
export type RetainedTurn = Pick<TurnState, 'id' | 'turn_number' | 'timestamp'>;

/** What the index keeps of a line: its turn number, or null for the completion record. */
export type TurnSummary = number | null;

/** Bump when the summary changes. */
const SUMMARY_FORMAT = 3;

/** One feature's log, indexed. */
export interface FeatureLog {
  feature: string;
  /** Absolute path of the log. */
  path: string;
  /** The log's path relative to the store root. */
  file: string;
  index: KeyIndex<TurnState, TurnSummary>;
}

/** How many turns an indexed log holds (latest versions; the completion record not counted), and whether it is completed. */
export function countTurns(log: FeatureLog): { completed: boolean; count: number } {
  return { completed: (log.index.counts.completion ?? 0) > 0, count: log.index.counts.turn ?? 0 };
}

/** The turns of an indexed log, as retention plans with them. */
export function turnsOf(log: FeatureLog): RetainedTurn[] {
  const turns: RetainedTurn[] = [];
  log.index.forEachLive((id, summary, time) => summary !== null && turns.push({ id, turn_number: summary, timestamp: new Date(time).toISOString() }));
  return turns;
}

function summarize(value: TurnState): TurnSummary {
  return (value as { completed?: unknown }).completed === true ? null : value.turn_number;
}

function classify(summary: TurnSummary): string {
  return summary === null ? 'completion' : 'turn';
}

/** The cache file of a project's turn index. */
export function turnIndexFile(root: string, project: string): string {
  projectTurnsDir(root, project); // checks the project before it becomes a path
  return join(knowledgeDir(root), CACHE_DIR, 'turns', `${project}.json`);
}

/** The indexed turn logs of one project. */
export class ProjectTurns {
  private readonly open = new Map<string, FeatureLog>();
  /** The features found by the last features() call: saved indexes of others are dropped. */
  private listed: Set<string> | undefined;

  private constructor(private readonly store: Store, readonly project: string, private readonly saved: Record<string, unknown>) {}

  /** Loads the project's saved index (a missing or damaged cache is an empty one). */
  static async load(store: Store, project: string): Promise<ProjectTurns> {
    let saved: Record<string, unknown> = {};
    try {
      const text = await readTextIfExists(turnIndexFile(store.root, project));
      if (text !== undefined) saved = parseCache(text);
    } catch {
      // Missing or damaged: never an authority, so it is simply rebuilt.
    }
    return new ProjectTurns(store, project, saved);
  }

  /** A feature's log, indexed and brought up to date with the file (read again on every call). */
  async feature(feature: string): Promise<FeatureLog> {
    const known = this.open.get(feature);
    if (known !== undefined) {
      await known.index.refresh();
      return known;
    }
    const path = turnLogPath(this.store.root, this.project, feature);
    const file = displayPath(this.store.root, path);
    const index = await KeyIndex.open<TurnState, TurnSummary>(path, this.saved[feature], {
      displayPath: file, validate: (value) => turnLineProblem(value, feature), summarize, classify, version: `${cacheKey()}:${SUMMARY_FORMAT}`,
    });
    const log = { feature, path, file, index };
    this.open.set(feature, log);
    return log;
  }

  /** Every feature log of the project, sorted by feature, each brought up to date. */
  async features(): Promise<FeatureLog[]> {
    const features = await listTurnFeatures(this.store.root, this.project);
    this.listed = new Set(features);
    const logs: FeatureLog[] = [];
    for (const feature of features) logs.push(await this.feature(feature));
    return logs;
  }

  /**
   * Saves the index for the next process, when it is worth the write (see KeyIndex.worthSaving):
   * temp file and rename; a failure only costs a re-read later.
   */
  async save(): Promise<void> {
    if (![...this.open.values()].some((log) => log.index.worthSaving)) return;
    const features: Record<string, unknown> = {};
    for (const [feature, saved] of Object.entries(this.saved)) if (this.listed?.has(feature) ?? true) features[feature] = saved;
    for (const [feature, log] of this.open) features[feature] = log.index.toJSON();
    // Never through a symlink (a symlinked .knowledge/.cache would take the write outside the store).
    await writeFileAtomic(turnIndexFile(this.store.root, this.project), formatCache(features as Record<string, SavedKeyIndex>), { durable: false }).catch(() => undefined);
  }
}

// The cache file: a JSON line of every feature's index without its entries (but their lengths),
// then the entries of each feature in turn, as they are: no escaping, so it costs no work per key.
function formatCache(features: Record<string, SavedKeyIndex>): string {
  const list = Object.entries(features).map(([feature, { entries, ...rest }]) => [feature, { ...rest, lengths: entries.map((e) => e.length) }]);
  return `${JSON.stringify({ features: list })}\n${Object.values(features).map((f) => f.entries.join('')).join('')}`;
}

function parseCache(text: string): Record<string, unknown> {
  const newline = text.indexOf('\n');
  const { features } = JSON.parse(text.slice(0, newline)) as { features: Array<[string, Omit<SavedKeyIndex, 'entries'> & { lengths: number[] }]> };
  const saved: Record<string, unknown> = {};
  let at = newline + 1;
  for (const [feature, { lengths, ...rest }] of features) {
    const entries = lengths.map((length) => text.slice(at, (at += length)));
    saved[feature] = { ...rest, entries };
  }
  return at === text.length ? saved : {};
}

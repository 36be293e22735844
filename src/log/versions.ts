// The one rule that stamps a new version of a record, for every log. Replay keeps the version with
// the latest time, so a new version must carry a time after every version already in the log:
// it is stamped with the time of the write, or 1 ms after the latest version of its key when that
// one is not earlier (a clock that ran ahead, a hand-edited line, a merge from a machine whose clock
// was fast). A stored time therefore means "written at this time, or just after the version before,
// whichever is later": it is never earlier than the write, and it orders the versions of a record.

import { LoreError } from '../errors.js';

/** The last time a log line can carry: the schemas' date-time has a four-digit year. */
const LAST_TIME = Date.parse('9999-12-31T23:59:59.999Z');

/** What a writer knows to stamp new versions of records. */
export interface VersionRule<T> {
  /** The identity of a record (the key replay groups by). */
  keyOf(record: T): string;
  /** The time (ms) of the key's latest version already in the log, or undefined for a new key. */
  latest(key: string): number | undefined;
  /** The time (ms) the record carries now: usually the time of the write. */
  timeOf(record: T): number;
  /** Sets the record's version time (an ISO string), in place. */
  stamp(record: T, at: string): void;
}

/**
 * The time of a new version: `time`, or 1 ms after `after` when `time` is not later.
 *
 * @example
 * stampAfter(Date.parse('2026-01-01T00:00:00Z'), Date.parse('2099-01-01T00:00:00Z')); // → '2099-01-01T00:00:00.001Z'
 */
export function stampAfter(time: number, after: number | undefined): string {
  return new Date(after === undefined || !Number.isFinite(after) || time > after ? time : after + 1).toISOString();
}

/** Stamps records as new versions of their keys, in place: each one after its key's latest version, and after any earlier record of the same key in the batch. */
export function stampVersions<T>(records: readonly T[], rule: VersionRule<T>): void {
  const stamped = new Map<string, number>();
  for (const record of records) {
    const key = rule.keyOf(record);
    const after = stamped.get(key) ?? rule.latest(key);
    // A record without a readable time never wins replay, so it is stamped too.
    if (after !== undefined && Number.isFinite(after) && !(rule.timeOf(record) > after)) {
      // 1 ms later would be a year no reader accepts: the new version would be skipped, the write lost.
      if (after >= LAST_TIME) {
        throw new LoreError('INVALID_STORE', `cannot write a new version of ${key}: its latest version is stamped ${new Date(after).toISOString()}, the last time a log line can carry, so no later version can replace it; nothing was written`, {
          hint: 'correct that line\'s time by hand (lore validate lists the log), then write again',
        });
      }
      rule.stamp(record, stampAfter(rule.timeOf(record), after));
    }
    const time = rule.timeOf(record);
    if (Number.isFinite(time)) stamped.set(key, time);
  }
}

// kill -9 at random moments during every operation that writes several files: afterwards the
// store holds all of the operation or none of it, and lore validate finds it valid. The bench runs
// 100 kills of graph apply; the suite runs fewer of each.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crashRuns } from './helpers/crash.js';
import { CRASH_CASES } from './helpers/crash-cases.js';

const RUNS: Record<string, number> = { graph: 12, import: 8 };

describe('kill -9 during an operation that writes many files', () => {
  for (const [index, c] of CRASH_CASES.entries()) {
    it(`leaves all or none of ${c.name}, and a valid store`, async (t) => {
      const runs = RUNS[c.args[0]!] ?? 5;
      const summary = await crashRuns(c, { runs, seed: 1100 + index, parallel: 3 });
      t.diagnostic(`${runs} kills within ${summary.durationMs.toFixed(0)} ms: ${summary.none} left none, ${summary.all} left all`);
      assert.deepEqual(summary.partial, []);
      assert.deepEqual(summary.invalid, []);
      assert.equal(summary.none + summary.all, runs);
    });
  }
});

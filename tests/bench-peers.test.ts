// `npm run bench -- --only peers`: lore and pre-commit on the same blocked commit, the guarded commit on
// many prohibitions (300 here, --prohibitions), and the skip when pre-commit is missing. Figures vary; the rows and checks do not.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { tempDir, testEnv } from './helpers/temp.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const hasPreCommit = spawnSync('pre-commit', ['--version']).status === 0;

/** Runs the peers section with 2 runs and 300 prohibitions (the label follows the count); returns the exit code, stderr and the table's rows as cells. */
function bench(env: NodeJS.ProcessEnv): { code: number; stderr: string; rows: string[][] } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--only', 'peers', '--entries', '10', '--runs', '2', '--prohibitions', '300'], { cwd: ROOT, env, encoding: 'utf8' });
  const rows = result.stdout.split('\n').filter((line) => line.startsWith('| ')).slice(1).map((line) => line.slice(2, -2).split(' | ').map((cell) => cell.trim()));
  return { code: result.status ?? -1, stderr: result.stderr, rows };
}

const TIME = /^\d+(\.\d+)? (ms|s)$/;
const GUARDED = [
  '300 prohibitions: git commit of 300 files, no hook',
  "300 prohibitions: node -e ''",
  "300 prohibitions: node + the hook's git reads alone (no rules, no scan)",
  '300 prohibitions: git commit of 300 files, lore hook (warm)',
  '300 prohibitions: git commit of 300 files, the hook answered by lore serve',
  '300 prohibitions: guarded ÷ (no hook + node), per pair / of medians',
  '300 prohibitions: answered by lore serve ÷ (no hook + node), per pair / of medians',
  "300 prohibitions: (no hook + the hook's git reads alone) ÷ (no hook + node), per pair / of medians",
];

describe('the peers bench section', () => {
  it('times lore and pre-commit blocking the same commit, then the guarded commit on 300 prohibitions', { skip: !hasPreCommit && 'pre-commit is not installed' }, (t) => {
    const version = execFileSync('pre-commit', ['--version'], { encoding: 'utf8' }).trim();
    const { code, stderr, rows } = bench(testEnv({ TMPDIR: tempDir(t) }));
    assert.equal(code, 0, stderr);
    assert.deepEqual(rows.map((row) => row[0]), [
      'peers: git commit blocked by lore (warm)',
      'peers: git commit blocked by lore, the hook answered by lore serve',
      `peers: git commit blocked by ${version} (pygrep + fail hooks)`,
      'peers: git commit, no hook',
      "peers: node -e ''",
      `peers: ${version} ÷ lore, median of 2 pairs / of medians`,
      `peers: ${version} ÷ lore answered by lore serve, per pair / of medians`,
      ...GUARDED,
    ]);
    for (const row of [...rows.slice(0, 5), ...rows.slice(7, 12)]) assert.match(row![1]!, TIME, row![0]);
    for (const row of [rows[5], rows[6], rows[12], rows[13], rows[14]]) assert.match(row![1]!, /^\d+\.\d\d× \/ \d+\.\d\d×$/, row![0]);
    for (const row of [rows[5], rows[6]]) assert.match(row![4]!, /^≥ 2\.5× faster than pre-commit's pygrep hook: (met|\*\*missed\*\*)$/);
    for (const row of [rows[12], rows[13]]) assert.match(row![4]!, /^≤ 1\.5× \(no hook \+ node -e ''\): (met|\*\*missed\*\*)$/);
    assert.equal(rows[14]![4], 'what reading alone costs against the same target');
  });

  it('says skipped when pre-commit is not on PATH, and still times the guarded commit', (t) => {
    // A PATH with git, node, dirname and perl (lore's hook shim uses them) but no pre-commit.
    const bin = join(tempDir(t), 'bin');
    mkdirSync(bin);
    for (const tool of ['git', 'dirname', 'perl']) symlinkSync(execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim(), join(bin, tool));
    symlinkSync(process.execPath, join(bin, 'node'));
    const { code, stderr, rows } = bench(testEnv({ TMPDIR: tempDir(t), PATH: bin }));
    assert.equal(code, 0, stderr);
    assert.match(stderr, /^peers: skipped: pre-commit is not installed \(apt-get install pre-commit\)$/m);
    assert.deepEqual(rows[0], ['peers: lore against pre-commit', 'skipped', 'pre-commit is not installed (apt-get install pre-commit)', '', "≥ 2.5× faster than pre-commit's pygrep hook"]);
    assert.deepEqual(rows.slice(1).map((row) => row[0]), GUARDED);
  });
});

// The commit guard: `lore hook pre-commit` on the generated store with 1,000 staged files, cold
// and warm, next to the floors (`node -e ''`, `git diff --cached`), and a real `git commit` with
// the hook installed against one without it.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateStore } from '../generate.js';
import { addRow, exec, LORE, ms, percentile, processBench, RUNS, type BenchContext } from '../harness.js';

const FILES = 1000;

/** Stages `count` files of 30 lines; `hitEvery` lines in N carry a prefilter literal (api_token_) that is not a match. */
function stageFiles(store: string, hitEvery: number, count = FILES): void {
  for (let i = 0; i < count; i++) {
    const dir = join(store, 'src', `m${i % 40}`);
    mkdirSync(dir, { recursive: true });
    const lines = Array.from({ length: 30 }, (_, l) => `export const value${l} = compute(${i}, ${l});${(i * 30 + l) % hitEvery === 0 ? ' // api_token_ is not a token here' : ' // ordinary comment'}`);
    writeFileSync(join(dir, `f${i}.ts`), `${lines.join('\n')}\n`);
  }
  execFileSync('git', ['add', '-A', 'src'], { cwd: store });
}

async function timeGit(args: string[], cwd: string, runs: number, before?: () => void): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    before?.();
    const started = process.hrtime.bigint();
    execFileSync('git', args, { cwd, stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@e', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@e' } });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times;
}

export async function guardBench({ dir, store }: BenchContext): Promise<void> {
  process.stderr.write(`commit guard: ${FILES} staged files...\n`);
  stageFiles(store, 100);
  const cache = join(store, '.knowledge', '.cache');
  await processBench("node -e '' (floor, guard section)", ['-e', ''], 'the floor', store, 10);
  addRow('git diff --cached -U0 (floor)', await timeGit(['diff', '--cached', '-U0', '--no-ext-diff'], store, 10), undefined, 'floor');
  const cold: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    rmSync(cache, { recursive: true, force: true });
    cold.push((await exec([LORE, 'hook', 'pre-commit'], store)).ms);
  }
  addRow(`lore hook pre-commit, cold (no cache), ${FILES} staged files`, cold, undefined, 'under 1.5 s');
  await exec([LORE, 'hook', 'pre-commit'], store);
  await processBench(`lore hook pre-commit, warm, ${FILES} staged files (30,000 lines)`, [LORE, 'hook', 'pre-commit'], 'under 1.5× floor, well under 150 ms', store, Math.max(RUNS, 10));

  // A real commit, with and without the hook (undone after each run).
  const hooks = join(dir, 'hooks');
  mkdirSync(hooks);
  writeFileSync(join(hooks, 'pre-commit'), `#!/bin/sh\nexec "${process.execPath}" "${LORE}" hook pre-commit\n`);
  chmodSync(join(hooks, 'pre-commit'), 0o755);
  const undo = (): void => {
    try {
      execFileSync('git', ['reset', '-q', '--soft', 'HEAD~1'], { cwd: store, stdio: 'ignore' });
    } catch {
      // nothing committed yet
    }
  };
  const commitArgs = ['-c', `core.hooksPath=${join(dir, 'no-hooks')}`, 'commit', '-q', '--no-verify', '-m', 'bench'];
  const bare = await timeGit(commitArgs, store, RUNS, undo);
  undo();
  const hooked = await timeGit(['-c', `core.hooksPath=${hooks}`, 'commit', '-q', '-m', 'bench'], store, RUNS, undo);
  undo();
  addRow(`git commit of ${FILES} files, no hook`, bare, undefined, 'floor');
  addRow(`git commit of ${FILES} files, with the lore hook (warm)`, hooked, undefined, `+${(percentile(hooked, 50) - percentile(bare, 50)).toFixed(0)} ms over no hook`);

  // Adversarial: every added line carries a prefilter literal, so the regexes run on all of them.
  stageFiles(store, 1);
  await processBench('lore hook pre-commit, warm, every line a prefilter hit', [LORE, 'hook', 'pre-commit'], 'figure (worst case)', store, RUNS);
  await guardedCommitBench(dir, hooks);
}

/**
 * Issue 15's row: a store of 3,000 prohibitions and 300 staged files, a commit with the hook
 * against one without it plus a bare node start, interleaved run by run (medians of each).
 */
async function guardedCommitBench(dir: string, hooks: string): Promise<void> {
  process.stderr.write('commit guard: 3,000 prohibitions, 300 staged files...\n');
  const { root } = await generateStore(join(dir, 'prohibitions'), 3000, { prohibitionsOnly: true });
  stageFiles(root, 100, 300);
  const undo = (): void => {
    execFileSync('git', ['reset', '-q', '--soft', 'HEAD~1'], { cwd: root, stdio: 'ignore' });
  };
  const hookless = ['-c', `core.hooksPath=${join(dir, 'no-hooks')}`, 'commit', '-q', '--no-verify', '-m', 'bench'];
  const hooked = ['-c', `core.hooksPath=${hooks}`, 'commit', '-q', '-m', 'bench'];
  await timeGit(hooked, root, 1);
  undo();
  const bare: number[] = [];
  const floor: number[] = [];
  const guarded: number[] = [];
  for (let i = 0; i < Math.max(RUNS, 10); i++) {
    bare.push(...(await timeGit(hookless, root, 1)));
    undo();
    floor.push((await exec(['-e', ''], root)).ms);
    guarded.push(...(await timeGit(hooked, root, 1)));
    undo();
  }
  const sum = percentile(bare, 50) + percentile(floor, 50);
  addRow('git commit, 3,000 prohibitions, 300 staged files, no hook', bare, undefined, 'floor');
  addRow("node -e '' (same run)", floor, undefined, 'floor');
  addRow('git commit, 3,000 prohibitions, 300 staged files, with the lore hook (warm)', guarded, undefined, `≤ 1.5× (no hook + node -e '' = ${ms(sum)}): ${(percentile(guarded, 50) / sum).toFixed(2)}×`);
}

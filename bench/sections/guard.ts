// The commit guard: `lore hook pre-commit` on the generated store with 1,000 staged files, cold
// and warm, next to the floors (`node -e ''`, `git diff --cached`), the hook `lore hook install`
// writes answered by lore serve, and a real `git commit` with the hook installed against one without it.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeSourceFiles } from '../generate.js';
import { addRow, exec, installHook, LORE, loreOnPath, percentile, processBench, ROOT, RUNS, served, timed, type BenchContext } from '../harness.js';

const FILES = 1000;

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
  writeSourceFiles(store, FILES, 100);
  const cache = join(store, '.knowledge', '.cache');
  await processBench("node -e '' (floor, guard section)", ['-e', ''], 'the floor', store, 10);
  addRow('git diff --cached -U0 (floor)', await timeGit(['diff', '--cached', '-U0', '--no-ext-diff'], store, 10), undefined, 'floor');
  await processBench(`node + the hook's git reads alone, ${FILES} staged files (no rules, no scan)`, [join(ROOT, 'bench/hook-git-floor.mjs')], "the floor of a Node hook reading what lore's reads", store, 10);
  const cold: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    rmSync(cache, { recursive: true, force: true });
    cold.push((await exec([LORE, 'hook', 'pre-commit'], store)).ms);
  }
  addRow(`lore hook pre-commit, cold (no cache), ${FILES} staged files`, cold, undefined, 'under 1.5 s');
  await exec([LORE, 'hook', 'pre-commit'], store);
  await processBench(`lore hook pre-commit, warm, ${FILES} staged files (30,000 lines)`, [LORE, 'hook', 'pre-commit'], 'under 1.5× floor, well under 150 ms', store, Math.max(RUNS, 10));

  // The hook `lore hook install` writes, run as git runs it, answered by lore serve: it must print
  // what lore itself prints, and the daemon must have answered every run. The store is shared with
  // later sections: the hook comes out again, and the daemon stops, whatever happens.
  const env = loreOnPath(dir);
  await installHook(store, env);
  try {
    const hookScript = join(store, '.git', 'hooks', 'pre-commit');
    const itself = timed('sh', [hookScript], store, { ...env, LORE_NO_DAEMON: '1' });
    const daemon = await served(store, env, join(dir, 'guard-serve.log'));
    const answered: number[] = [];
    try {
      for (let i = 0; i <= Math.max(RUNS, 10); i++) {
        const run = timed('sh', [hookScript], store, env);
        if (run.code !== itself.code || run.output !== itself.output) throw new Error(`the hook answered by lore serve in ${store} printed another outcome:\n${run.output}\nthan lore itself:\n${itself.output}`);
        if (i > 0) answered.push(run.ms); // the first answer warms the daemon
      }
    } finally {
      await daemon.stop();
    }
    if (daemon.answered() !== answered.length + 1) throw new Error(`lore serve answered ${daemon.answered()} of the ${answered.length + 1} hooks of ${store}`);
    addRow(`the installed hook answered by lore serve, warm, ${FILES} staged files`, answered, undefined, 'under 1.5× floor');
  } finally {
    const removed = await exec([LORE, 'hook', 'uninstall'], store, undefined, env);
    if (removed.code !== 0) throw new Error(`lore hook uninstall in ${store}: exit ${removed.code}\n${removed.stdout}${removed.stderr}`);
  }

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
  writeSourceFiles(store, FILES, 1);
  await processBench('lore hook pre-commit, warm, every line a prefilter hit', [LORE, 'hook', 'pre-commit'], 'figure (worst case)', store, RUNS);

  // A minified bundle: one line of 5 MB whose code names a rule's literal every 2 KB or so (the
  // rules' matches are bounded, so the line is searched around those places only).
  execFileSync('git', ['reset', '-q', '--', 'src'], { cwd: store });
  const chunk = 'function(a,b){var c=a.map(function(x){return x*2});return b.reduce(function(s,y){return s+y},0)+c.length};';
  const words = ['api', 'auth', 'cache', 'token', 'user', 'deploy'];
  let bundle = '';
  for (let i = 0; bundle.length < 5_000_000; i++) bundle += i % 20 === 0 ? `var k${i}="${words[i % words.length]}_token_not-a-hex-value";` : chunk;
  writeFileSync(join(store, 'bundle.min.js'), `${bundle}\n`);
  execFileSync('git', ['add', 'bundle.min.js'], { cwd: store });
  try {
    await processBench('lore hook pre-commit, warm, one staged line of 5 MB (a minified bundle)', [LORE, 'hook', 'pre-commit'], 'figure', store, RUNS);
  } finally {
    execFileSync('git', ['rm', '-q', '-f', 'bundle.min.js'], { cwd: store });
    execFileSync('git', ['add', '-A', 'src'], { cwd: store });
  }
}

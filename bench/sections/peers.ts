// Side by side: the same blocked commit guarded by lore and by pre-commit's pygrep hook, run
// interleaved with a hookless commit and a bare node start; then a guarded commit on a store of
// 3,000 prohibitions against that floor. Every measured commit's outcome is checked.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseEntry, commitAll, generateProhibitions, initStore, rng, writeEntry, writeSourceFiles } from '../generate.js';
import { addFigure, addRow, installHook, interleave, loreOnPath, PROHIBITIONS, ratios, ROOT, RUNS, served, timed, type BenchContext } from '../harness.js';

// The same regex for both tools: RE2 (lore) and Python's re (pygrep) read it alike.
const AWS_KEY = String.raw`\bAKIA[0-9A-Z]{16}\b`;
const SKIPPED = 'skipped: pre-commit is not installed (apt-get install pre-commit)';

const PRE_COMMIT_CONFIG = `repos:
  - repo: local
    hooks:
      - id: aws-access-key
        name: AWS access key id
        language: pygrep
        entry: '${AWS_KEY}'
      - id: env-file
        name: .env file
        language: fail
        entry: never commit a .env file
        files: (^|/)\\.env$
`;

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' });

/** The peer fixture: 200 committed files, the two rules as lore records and as pre-commit hooks. */
async function peerBase(dir: string): Promise<string> {
  const root = join(dir, 'peer-base');
  await initStore(root);
  const next = rng(15);
  writeEntry(root, 'prohibition', { ...baseEntry(next, 'prohibition', 0), id: 'peer-aws-access-key', priority: 'critical', content: [AWS_KEY] });
  writeEntry(root, 'prohibition', { ...baseEntry(next, 'prohibition', 1), id: 'peer-env-file', priority: 'critical', globs: ['**/.env'] });
  writeFileSync(join(root, '.pre-commit-config.yaml'), PRE_COMMIT_CONFIG);
  writeSourceFiles(root, 200, 100);
  commitAll(root, 'peer fixture');
  return root;
}

/** A clone of the fixture with the change staged: 18 edited files, an AWS key id added to one more, a `.env`. */
function peerClone(base: string, to: string): string {
  git(base, 'clone', '-q', base, to);
  for (let i = 0; i < 19; i++) appendFileSync(join(to, 'src', `m${i % 40}`, `f${i}.ts`), i === 18 ? 'const key = "AKIAV65Z5FOTYPVYMRYS";\n' : `export const edited${i} = ${i};\n`);
  writeFileSync(join(to, '.env'), 'DATABASE_PASSWORD=hunter2\n');
  git(to, 'add', '-A');
  return to;
}

/** A timed `git commit` that must end with `code` (0 or not) and print every one of `proofs`; undone after when it commits. */
function commitStep(repo: string, env: NodeJS.ProcessEnv, blocked: boolean, proofs: RegExp[], extra: string[] = []): () => number {
  return () => {
    const result = timed('git', ['commit', '-q', ...extra, '-m', 'bench'], repo, env);
    if ((result.code !== 0) !== blocked || !proofs.every((proof) => proof.test(result.output))) {
      throw new Error(`git commit in ${repo}: expected ${blocked ? 'a blocked' : 'a passing'} commit printing ${proofs.join(', ')}; got exit ${result.code}:\n${result.output}`);
    }
    if (!blocked) git(repo, 'reset', '-q', '--soft', 'HEAD~1');
    return result.ms;
  };
}

export async function peersBench({ dir }: BenchContext): Promise<void> {
  const env = { ...loreOnPath(dir), PRE_COMMIT_HOME: join(dir, 'pre-commit-home') };
  const install = (repo: string): Promise<void> => installHook(repo, env);
  const node = (cwd: string) => () => timed(process.execPath, ['-e', ''], cwd).ms;

  const version = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) {
    process.stderr.write(`peers: ${SKIPPED}\n`);
    addFigure('peers: lore against pre-commit', 'skipped', SKIPPED.slice('skipped: '.length), "≥ 2.5× faster than pre-commit's pygrep hook");
  } else {
    process.stderr.write('peers: lore against pre-commit, 200-file repository, 20 staged files...\n');
    const base = await peerBase(dir);
    const [withLore, withPreCommit, hookless, withServe] = ['lore', 'pre-commit', 'none', 'serve'].map((name) => peerClone(base, join(dir, `peer-${name}`)));
    await install(withLore!);
    await install(withServe!);
    const daemon = await served(withServe!, env, join(dir, 'peer-serve.log'));
    execFileSync('pre-commit', ['install'], { cwd: withPreCommit, env: { ...process.env, ...env }, stdio: 'ignore' });
    const blockedBy = [/^BLOCKED peer-aws-access-key /m, /^BLOCKED peer-env-file /m];
    const steps = [
      commitStep(withLore!, env, true, blockedBy),
      commitStep(withPreCommit!, env, true, [/^AWS access key id\.+Failed$/m, /^\.env file\.+Failed$/m]),
      commitStep(hookless!, env, false, [], ['--no-verify']),
      node(hookless!),
      commitStep(withServe!, env, true, blockedBy),
    ];
    const [lore, preCommit, bare, floor, answered] = await interleave(steps, RUNS);
    await daemon.stop();
    if (daemon.answered() !== RUNS + 1) throw new Error(`lore serve answered ${daemon.answered()} of the ${RUNS + 1} hooks of ${withServe}`);
    const name = version.stdout.trim();
    const { paired, medians } = ratios(preCommit!, lore!);
    const byServe = ratios(preCommit!, answered!);
    addRow('peers: git commit blocked by lore (warm)', lore!, undefined, 'figure');
    addRow('peers: git commit blocked by lore, the hook answered by lore serve', answered!, undefined, 'figure');
    addRow(`peers: git commit blocked by ${name} (pygrep + fail hooks)`, preCommit!, undefined, 'the peer');
    addRow('peers: git commit, no hook', bare!, undefined, 'floor');
    addRow("peers: node -e ''", floor!, undefined, 'floor');
    addFigure(`peers: ${name} ÷ lore, median of ${RUNS} pairs / of medians`, `${paired.toFixed(2)}× / ${medians.toFixed(2)}×`, '', `≥ 2.5× faster than pre-commit's pygrep hook: ${paired >= 2.5 ? 'met' : '**missed**'}`);
    addFigure(`peers: ${name} ÷ lore answered by lore serve, per pair / of medians`, `${byServe.paired.toFixed(2)}× / ${byServe.medians.toFixed(2)}×`, '', `≥ 2.5× faster than pre-commit's pygrep hook: ${byServe.paired >= 2.5 ? 'met' : '**missed**'}`);
  }

  const many = `${PROHIBITIONS.toLocaleString('en-US')} prohibitions`;
  process.stderr.write(`peers: a guarded commit on ${many}, 300 staged files...\n`);
  const store = join(dir, 'prohibitions');
  await generateProhibitions(store, PROHIBITIONS);
  writeSourceFiles(store, 300, 100);
  await install(store);
  const gitFloor = (cwd: string) => () => timed(process.execPath, [join(ROOT, 'bench/hook-git-floor.mjs')], cwd).ms;
  const daemon = await served(store, env, join(dir, 'prohibitions-serve.log'));
  const passed = [new RegExp(`^lore: passed: no match for ${PROHIBITIONS} prohibitions in 300 files`, 'm')];
  // The same hook, told not to ask the daemon (LORE_NO_DAEMON=1), and answered by it.
  const steps = [commitStep(store, env, false, [], ['--no-verify']), node(store), commitStep(store, { ...env, LORE_NO_DAEMON: '1' }, false, passed), gitFloor(store), commitStep(store, env, false, passed)];
  const [bare, floor, guarded, reads, answered] = await interleave(steps, RUNS);
  await daemon.stop();
  if (daemon.answered() !== RUNS + 1) throw new Error(`lore serve answered ${daemon.answered()} of the ${RUNS + 1} hooks of ${store}`);
  const byServe = ratios(answered!, bare!.map((x, i) => x + floor![i]!));
  const sum = bare!.map((x, i) => x + floor![i]!);
  const { paired, medians } = ratios(guarded!, sum);
  // The same ratio for a hook that reads what lore's reads and does nothing else: what is left to Node and git.
  const readsOnly = ratios(bare!.map((x, i) => x + reads![i]!), sum);
  addRow(`${many}: git commit of 300 files, no hook`, bare!, undefined, 'floor');
  addRow(`${many}: node -e ''`, floor!, undefined, 'floor');
  addRow(`${many}: node + the hook's git reads alone (no rules, no scan)`, reads!, undefined, 'floor of a Node hook');
  addRow(`${many}: git commit of 300 files, lore hook (warm)`, guarded!, undefined, 'figure');
  addRow(`${many}: git commit of 300 files, the hook answered by lore serve`, answered!, undefined, 'figure');
  addFigure(`${many}: guarded ÷ (no hook + node), per pair / of medians`, `${paired.toFixed(2)}× / ${medians.toFixed(2)}×`, '', `≤ 1.5× (no hook + node -e ''): ${paired <= 1.5 ? 'met' : '**missed**'}`);
  addFigure(`${many}: answered by lore serve ÷ (no hook + node), per pair / of medians`, `${byServe.paired.toFixed(2)}× / ${byServe.medians.toFixed(2)}×`, '', `≤ 1.5× (no hook + node -e ''): ${byServe.paired <= 1.5 ? 'met' : '**missed**'}`);
  addFigure(`${many}: (no hook + the hook's git reads alone) ÷ (no hook + node), per pair / of medians`, `${readsOnly.paired.toFixed(2)}× / ${readsOnly.medians.toFixed(2)}×`, '', 'what reading alone costs against the same target');
}

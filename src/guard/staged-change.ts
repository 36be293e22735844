// The staged change is the hook's slowest step and needs none of lore's code, so bin/lore.js starts
// reading it (the raw diff, then its blobs) before the CLI loads, and lore serve before it runs the
// hook's command; checkStaged takes that read when it is for the same directory and environment.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { forgetPrestartedGit, type GitOptions } from '../git/exec.js';
import { CACHE_DIR, KNOWLEDGE_DIR } from '../store/layout.js';
import { readStaged, startStagedRead, type StagedStart } from './changes.js';
import { isGuardPath, prestartHookGit, prestartRuleListings, RULE_SNAPSHOT } from './hook-git.js';

let early: { cwd: string; env: NodeJS.ProcessEnv; start: StagedStart } | undefined;

/**
 * Starts reading the staged change in `cwd` with `env` (this process's environment, or the hook's
 * that lore serve answers), and the check's other git commands: a check given the same directory
 * and the same env object takes them. The promise settles (never rejects) once git has answered at
 * HEAD: from then on git is mostly reading blobs, and this thread waiting for them.
 */
export function prestartStagedChange(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { listed, heads, read, index, diff } = startStagedRead({ cwd, env });
  // The caller that takes it sees a failure; until then it must not count as unhandled.
  heads.catch(() => undefined);
  read.catch(() => undefined);
  diff.catch(() => undefined);
  early = { cwd, env, start: { heads, read, index, diff } };
  // Starting a process holds this thread for 5-15 ms: the other commands wait until the diff is in
  // and cat-file has its ids (the longest read), so that they do not hold up the diff's output.
  // (From lore serve's stubs they cost nothing, but starting them at once gained nothing measurable.)
  prestartHookGit(cwd, env, listed);
  // No rule snapshot yet (a first commit, a cleared cache), or one lore cannot look at: the check
  // will list the rule files. The listings are registered as `heads` settles, one reaction ahead
  // of the check's own (which reads the snapshot first); a run dropped meanwhile starts none.
  let noSnapshot = true;
  try {
    noSnapshot = lstatSync(join(cwd, KNOWLEDGE_DIR, CACHE_DIR, RULE_SNAPSHOT), { throwIfNoEntry: false }) === undefined;
  } catch {
    // a folder lore cannot enter, a loop of links: the check says what is wrong, if anything
  }
  prestartRuleListings(cwd, env, heads.then(({ paths }) => !dropped.has(env) && (noSnapshot || paths.some(isGuardPath))));
  return heads.then(() => undefined, () => undefined);
}

/** Environments whose prestarted runs were dropped: nothing more is started for them. */
const dropped = new WeakSet<NodeJS.ProcessEnv>();

/** Drops what prestartStagedChange started with `env` and nobody took (the reads themselves run out). */
export function forgetPrestarted(env: NodeJS.ProcessEnv): void {
  if (early?.env === env) early = undefined;
  dropped.add(env);
  forgetPrestartedGit(env);
}

/** The staged change in `options.cwd`: the early read when it matches, else a new one. */
export function stagedRead(options: GitOptions): StagedStart {
  const env = options.env ?? process.env;
  if (early !== undefined && early.cwd === options.cwd && early.env === env) {
    const { start } = early;
    early = undefined;
    return start;
  }
  return readStaged(options);
}

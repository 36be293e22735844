// The git commands a check of the staged change runs besides the diff and the blobs, named once:
// bin/lore.js starts them while the CLI loads (prestartHookGit; lore serve before it runs the
// hook's command), once the diff is in, and the check takes those runs
// (git() hands a prestarted run to the first call with the same arguments, directory and env).
// Every git process costs a fork and an exec on the hook's path, so the check asks for as much as
// it can per process: the branch with the top level, the rule trees with the blobs.
import { git, prestartGit, type GitOptions } from '../git/exec.js';
import { listIndexArgs, listTreeArgs, refExistsArgs } from '../git/objects.js';
import { gitListingPaths, KNOWLEDGE_DIR, LOGS } from '../store/layout.js';

/** The guard's rule snapshot in `.knowledge/.cache/` (rule-snapshot.ts). */
export const RULE_SNAPSHOT = 'guard-rules.json';

/** The kinds of record the commit guard reads. */
export const GUARD_KINDS = ['prohibition', 'allow', 'role', 'override'] as const;

/** Where they live, with config.yaml, the extends lock and lore's cache (whose being tracked changes what is read). */
export const GUARD_PATHS: readonly string[] = gitListingPaths(GUARD_KINDS);

/** Whether `path` is one of GUARD_PATHS or under one. */
export function isGuardPath(path: string): boolean {
  return GUARD_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
}

/**
 * The names `git cat-file --batch` looks up for GUARD_PATHS at HEAD: the answers (a tree or blob id
 * each, or missing) identify everything below them, so they identify the committed rules.
 */
export const RULE_TREES_AT_HEAD: readonly string[] = GUARD_PATHS.map((path) => `HEAD:${path}`);

/** The turn logs' folder at HEAD: the role guard reads a turn log only when it is there. */
export const TURNS_AT_HEAD = `HEAD:${KNOWLEDGE_DIR}/${LOGS.turnsDir}`;

/** The top level, the common git folder and the branch HEAD names, in one run (it fails on an unborn HEAD). */
export const TOP_LEVEL_ARGS: readonly string[] = ['rev-parse', '--show-toplevel', '--git-common-dir', '--symbolic-full-name', 'HEAD'];

/** The role guard's lore.* settings (role.ts). */
export const CONFIG_ARGS: readonly string[] = ['config', '-z', '--get-regexp', '^lore\\.'];

/** Starts, in `cwd`, the commands a check of the staged change runs when `cwd` is the top level (once `after` settles). */
export function prestartHookGit(cwd: string, env: NodeJS.ProcessEnv, after?: Promise<unknown>): void {
  for (const args of [TOP_LEVEL_ARGS, CONFIG_ARGS]) prestartGit(args, { cwd, env }, after);
}

/**
 * Starts the listings of the rule files at HEAD and in the index, once `wanted` says the check
 * will read them: when no rule snapshot was saved yet, or when the change names a rule file.
 * Started early, while this process is small: a fork costs more the more memory the process maps.
 */
export function prestartRuleListings(cwd: string, env: NodeJS.ProcessEnv, wanted: Promise<boolean>): void {
  wanted.then((yes) => {
    if (yes) for (const args of [refExistsArgs('HEAD'), listTreeArgs('HEAD', GUARD_PATHS), listIndexArgs(GUARD_PATHS)]) prestartGit(args, { cwd, env });
  }, () => undefined);
}

/** Where a check runs: the work tree's top level, git's common folder, and the branch checked out. */
export interface TopLevel {
  root: string;
  /** Undefined when git's answer cannot be read line by line (a path holding a line break). */
  commonDir?: string;
  /** The full name of the branch HEAD names (`refs/heads/main`); undefined when HEAD is detached. */
  branch?: string;
}

/** Reads the top level of the repository holding `options.cwd`; throws when there is none. */
export async function readTopLevel(options: GitOptions): Promise<TopLevel> {
  const both = await git(TOP_LEVEL_ARGS, options).catch(() => undefined);
  if (both !== undefined) {
    const lines = both.split('\n');
    if (lines.length !== 4 || lines[3] !== '') return { root: both.slice(0, both.indexOf('\n')) };
    return { root: lines[0]!, commonDir: lines[1]!, ...(lines[2] === 'HEAD' ? {} : { branch: lines[2]! }) };
  }
  // An unborn HEAD names a branch that has no commit yet: rev-parse fails on it, symbolic-ref does not.
  const [top, branch] = await Promise.all([git(TOP_LEVEL_ARGS.slice(0, 3), options), git(['symbolic-ref', '-q', 'HEAD'], options).catch(() => '')]);
  const lines = top.split('\n');
  const named = branch.trim() === '' ? {} : { branch: branch.trim() };
  if (lines.length !== 3 || lines[2] !== '') return { root: top.slice(0, top.indexOf('\n')), ...named };
  return { root: lines[0]!, commonDir: lines[1]!, ...named };
}

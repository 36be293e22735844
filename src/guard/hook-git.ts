// The git commands a check of the staged change runs besides the diff and the blobs, named once:
// bin/lore.js starts them while the CLI loads (prestartHookGit), and the check takes those runs
// (git() hands a prestarted run to the first call with the same arguments, directory and env).
import { prestartGit } from '../git/exec.js';
import { CACHE_DIR, EXTENDS_LOCK, KINDS, KNOWLEDGE_DIR, LOGS } from '../store/layout.js';

/** The kinds of record the commit guard reads. */
export const GUARD_KINDS = ['prohibition', 'allow', 'role', 'override'] as const;

/** Where they live, with config.yaml, the extends lock and lore's cache (whose being tracked changes what is read). */
export const GUARD_PATHS: readonly string[] = [
  `${KNOWLEDGE_DIR}/config.yaml`, `${KNOWLEDGE_DIR}/${EXTENDS_LOCK}`, ...GUARD_KINDS.map((kind) => `${KNOWLEDGE_DIR}/${KINDS[kind].dir}`), `${KNOWLEDGE_DIR}/${CACHE_DIR}`,
];

/** Whether `path` is one of GUARD_PATHS or under one. */
export function isGuardPath(path: string): boolean {
  return GUARD_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
}

/** The top level and the common git folder (repoRoot), in one run. */
export const TOP_LEVEL_ARGS: readonly string[] = ['rev-parse', '--show-toplevel', '--git-common-dir'];

/**
 * The entries of GUARD_PATHS at HEAD, not recursive: one line per folder (its tree id) or file.
 * Tree ids identify everything below them, so these few lines identify the committed rules.
 */
export const RULE_TREES_ARGS: readonly string[] = ['--literal-pathspecs', 'ls-tree', '-z', '--full-tree', 'HEAD', '--', ...GUARD_PATHS];

/** The role guard's context (role.ts): lore.* settings, the branch, the committed turn logs. */
export const CONTEXT_ARGS = {
  config: ['config', '-z', '--get-regexp', '^lore\\.'],
  branch: ['symbolic-ref', '--short', '-q', 'HEAD'],
  turns: ['ls-tree', '-r', '-z', '--full-tree', 'HEAD', '--', `${KNOWLEDGE_DIR}/${LOGS.turnsDir}`],
} as const;

/** Starts, in `cwd`, the commands a check of the staged change runs when `cwd` is the top level. */
export function prestartHookGit(cwd: string): void {
  for (const args of [TOP_LEVEL_ARGS, RULE_TREES_ARGS, ...Object.values(CONTEXT_ARGS)]) prestartGit(args, { cwd });
}

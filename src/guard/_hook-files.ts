// The files behind a repository's pre-commit hook, as install, uninstall and status read them:
// which file git runs, who manages it, whether husky's runner runs the user hook, whether git
// tracks a file. Reads only.
import { access, constants, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { isErrno } from '../errors.js';
import { readTextIfExists } from '../fs/read-text.js';
import { git } from '../git/exec.js';
import { repoRoot } from './_evaluate.js';
import { LORE_HOOK, MARKER, NEVER_ASKS, SOCKET_MODULE, SOCKET_MODULE_LORE_HOOK, UNCHECKED, UNCHECKED_LORE_HOOK, type Previous } from './_hook-script.js';

export type Where = { cwd: string; env: NodeJS.ProcessEnv };

/** The name of the hook lore's shim runs first: the one that was there before. */
export const CHAINED = 'pre-commit.lore-chained';

/** Where `lefthook install` moves a hook it does not own (and `lefthook uninstall` puts it back from). */
export const LEFTHOOK_OLD = 'pre-commit.old';

/**
 * The shim: runs the hook it replaced (if any), then lore (answered by `lore serve` when it runs),
 * and fails closed when lore is missing.
 * Under `lore hook status`'s probe the chained hook is not run: only lore's reach is proved.
 */
export const SHIM = shim(LORE_HOOK, 'case $0 in */*) hooks_dir=${0%/*} ;; *) hooks_dir=. ;; esac');

/** How earlier shims found their folder: `dirname`, a process of its own on every commit (5 ms here). */
const HOOKS_DIR_BY_DIRNAME = 'hooks_dir=$(dirname "$0")';

function shim(loreHook: string, hooksDir = HOOKS_DIR_BY_DIRNAME): string {
  return `#!/bin/sh
${MARKER}: installed by "lore hook install"; "lore hook uninstall" restores the hook it chains.
${hooksDir}
if [ -z "\${LORE_HOOK_PROBE:-}" ] && [ -x "$hooks_dir/${CHAINED}" ]; then "$hooks_dir/${CHAINED}" "$@" || exit $?; fi
if [ "\${LORE_SKIP:-}" = "1" ]; then echo "lore: LORE_SKIP=1: the pre-commit check was skipped" >&2; exit 0; fi
${loreHook}
if [ -x ./node_modules/.bin/lore ]; then lore_hook ./node_modules/.bin/lore hook pre-commit; exit $?; fi
if command -v lore >/dev/null 2>&1; then lore_hook lore hook pre-commit; exit $?; fi
echo "lore: the pre-commit hook cannot find lore (install it in this repository: npm install); LORE_SKIP=1 skips it" >&2
exit 2
`;
}

/** The shims lore wrote before, and why install replaces each with SHIM. */
export const PREVIOUS_SHIMS: readonly Previous[] = [{
  text: `#!/bin/sh
${MARKER}: installed by "lore hook install"; "lore hook uninstall" restores the hook it chains.
hooks_dir=$(dirname "$0")
if [ -z "\${LORE_HOOK_PROBE:-}" ] && [ -x "$hooks_dir/${CHAINED}" ]; then "$hooks_dir/${CHAINED}" "$@" || exit $?; fi
if [ "\${LORE_SKIP:-}" = "1" ]; then echo "lore: LORE_SKIP=1: the pre-commit check was skipped" >&2; exit 0; fi
if [ -x ./node_modules/.bin/lore ]; then exec ./node_modules/.bin/lore hook pre-commit; fi
if command -v lore >/dev/null 2>&1; then exec lore hook pre-commit; fi
echo "lore: the pre-commit hook cannot find lore (install it in this repository: npm install); LORE_SKIP=1 skips it" >&2
exit 2
`,
  why: NEVER_ASKS,
}, { text: shim(UNCHECKED_LORE_HOOK), why: UNCHECKED }, { text: shim(SOCKET_MODULE_LORE_HOOK), why: SOCKET_MODULE }];

export interface HookPlace {
  /** The file lore writes or edits. */
  file: string;
  /** husky: a line in husky's user hook; hooks: a shim (or, in a tracked file, a line) in a hooks folder. */
  style: 'husky' | 'hooks';
  /** Which manager owns the folder, when one is recognised. */
  manager?: 'husky' | 'lefthook';
  /** husky: the file git runs, husky's runner, which runs `file`. */
  runner?: string;
  /** git tracks `file`: a change to it must be committed for the team to get it. */
  tracked: boolean;
}

/** Whether a path exists (a file under a non-folder does not). */
export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return false;
    throw error;
  }
}

/** Whether this process may execute the file (git skips a hook that is not executable). */
export async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Something other than a folder where git looks for hooks (core.hooksPath=/dev/null turns hooks off). */
export async function notAFolder(dir: string): Promise<boolean> {
  try {
    return !(await stat(dir)).isDirectory();
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return false;
    if (isErrno(error, 'ENOTDIR')) return true;
    throw error;
  }
}

/** A hook file's text, or undefined when there is none. */
export async function readHook(path: string): Promise<string | undefined> {
  try {
    return await readTextIfExists(path);
  } catch (error) {
    if (isErrno(error, 'ENOTDIR')) return undefined;
    throw error;
  }
}

/** The shim's second line; a file that has it is (or was) lore's shim, even if edited since. */
export const isShim = (text: string | undefined): boolean => text?.split('\n')[1]?.startsWith(`${MARKER}: installed by`) === true;

/** Whether git tracks the file (one inside the work tree, in the index). */
async function isTracked(root: string, file: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const path = relative(root, file);
  if (path === '' || path.startsWith('..') || isAbsolute(path)) return false;
  return (await git(['--literal-pathspecs', 'ls-files', '-z', '--', path], { cwd: root, env })) !== '';
}

/** The repository's top level, the file git runs for pre-commit, and where lore puts its hook. */
export async function locate(where: Where): Promise<{ root: string; runs: string; place: HookPlace }> {
  const { root } = await repoRoot(where);
  // git says which file it runs: core.hooksPath (relative to the top level, ~ expanded) or .git/hooks.
  const runs = resolve(root, (await git(['rev-parse', '--git-path', 'hooks/pre-commit'], { cwd: root, env: where.env })).replace(/\n$/, ''));
  const dir = dirname(runs);
  // husky 9 points core.hooksPath at .husky/_ and runs the user's hooks from .husky/.
  if (basename(dir) === '_' && ((await exists(join(dir, 'h'))) || (await exists(join(dir, 'husky.sh'))))) {
    const file = join(dirname(dir), 'pre-commit');
    return { root, runs, place: { file, style: 'husky', manager: 'husky', runner: runs, tracked: await isTracked(root, file, where.env) } };
  }
  const current = await readHook(runs);
  const manager = current?.includes('lefthook') ? { manager: 'lefthook' as const } : {};
  return { root, runs, place: { file: runs, style: 'hooks', ...manager, tracked: await isTracked(root, runs, where.env) } };
}

/** Why husky's runner would not run the user hook with node_modules/.bin on PATH, or undefined when it provably does (husky 9.1+). */
export async function huskyRunnerProblem(runner: string): Promise<string | undefined> {
  const text = await readHook(runner);
  if (text === undefined) return `${runner} does not exist`;
  if (!(await isExecutable(runner))) return `${runner} is not executable (git skips it)`;
  // husky 9.0: . "${0%/*}/h"; 9.1: . "$(dirname "$0")/h"
  if (!/^\. "(\$\{0%\/\*\}|\$\(dirname "\$0"\))\/h"$/m.test(text)) return `${runner} is not husky's runner (it does not source h)`;
  const h = join(dirname(runner), 'h');
  const runs = await readHook(h);
  // husky 9 runs the user hook with sh -e "$s" (9.1.0 and 9.1.1 source it: . "$s").
  if (runs === undefined || !/^\s*(sh -e "\$s"|\. "\$s")/m.test(runs)) return `${h} does not run husky's user hooks as husky 9 does`;
  // 9.1.0-9.1.1: PATH=node_modules/.bin:$PATH; 9.1.2: export PATH=...; 9.1.3 and later quote it. 9.0 has none.
  if (!/^\s*(export )?PATH="?node_modules\/\.bin:\$PATH"?\s*$/m.test(runs)) return `${h} does not put node_modules/.bin on PATH (husky 9.0; lore's line needs husky 9.1 or later)`;
  return undefined;
}

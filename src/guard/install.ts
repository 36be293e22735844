// Installing lore's pre-commit hook into a repository without breaking what is there, and only
// where lore can prove that git will run it. husky's user hook gets lore's line as its first
// command (after an `exit 0` or an `exec` it would never run); any other existing hook is chained
// behind lore's shim; lefthook's hooks are left to lefthook. After writing, lore reads the files
// back and proves the flow (the line comes first, the file git runs is executable and runs it);
// what it cannot prove it puts back and refuses, saying what to edit by hand.
import { access, chmod, constants, rename, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { LoreError, isErrno } from '../errors.js';
import { unlinkDurable, writeFileAtomic } from '../fs/atomic-write.js';
import { readTextIfExists } from '../fs/read-text.js';
import { git } from '../git/exec.js';
import { repoRoot } from './_evaluate.js';
import { HOOK_LINE, MARKER, foreignShebang, provesFirst, withLoreLine, withoutLoreLines } from './_hook-script.js';
import { lefthookConfigs, lefthookSnippet } from './_lefthook.js';

export { HOOK_LINE, MARKER };

const CHAINED = 'pre-commit.lore-chained';

/** The shim: runs the hook it replaced (if any), then lore, and fails closed when lore is missing. */
export const SHIM = `#!/bin/sh
${MARKER}: installed by "lore hook install"; "lore hook uninstall" restores the hook it chains.
hooks_dir=$(dirname "$0")
if [ -x "$hooks_dir/${CHAINED}" ]; then "$hooks_dir/${CHAINED}" "$@" || exit $?; fi
if [ "\${LORE_SKIP:-}" = "1" ]; then echo "lore: LORE_SKIP=1: the pre-commit check was skipped" >&2; exit 0; fi
if [ -x ./node_modules/.bin/lore ]; then exec ./node_modules/.bin/lore hook pre-commit; fi
if command -v lore >/dev/null 2>&1; then exec lore hook pre-commit; fi
echo "lore: the pre-commit hook cannot find lore (npm install lore-knowledge); LORE_SKIP=1 skips it" >&2
exit 2
`;

export interface HookPlace {
  /** The file lore writes or edits. */
  file: string;
  /** husky: a line in husky's user hook; hooks: a shim in a hooks folder. */
  style: 'husky' | 'hooks';
  /** Which manager owns the folder, when one is recognised. */
  manager?: 'husky' | 'lefthook';
  /** husky: the file git runs, husky's runner, which runs `file`. */
  runner?: string;
}

/** Why lore refused to install: see the README's "Setting up the hook". */
export type RefusalReason = 'lefthook' | 'not-a-shell-script' | 'husky-runner' | 'hooks-disabled' | 'unproven';

export type InstallResult = HookPlace &
  (
    | {
        status: 'installed' | 'already-installed';
        /** The existing hook that now runs before lore. */
        chained?: string;
        /** Line numbers (in the file as it was) of earlier lore lines that were replaced. */
        replaced?: number[];
      }
    | {
        /** Nothing was written (or it was put back): lore's hook would not provably run. */
        status: 'refused';
        reason: RefusalReason;
        /** Why, as a sentence without the final full stop. */
        message: string;
        /** What to do by hand. */
        fix: string;
        /** The exact text the fix adds, when it adds text to a file. */
        text?: string;
      }
  );

type Where = { cwd: string; env: NodeJS.ProcessEnv };

const refuse = (place: HookPlace, reason: RefusalReason, message: string, fix: string, text?: string): InstallResult => ({ ...place, status: 'refused', reason, message, fix, ...(text === undefined ? {} : { text }) });

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return false;
    throw error;
  }
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Something other than a folder where git looks for hooks (core.hooksPath=/dev/null turns hooks off). */
async function notAFolder(dir: string): Promise<boolean> {
  try {
    return !(await stat(dir)).isDirectory();
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return false;
    if (isErrno(error, 'ENOTDIR')) return true;
    throw error;
  }
}

const readHook = async (path: string): Promise<string | undefined> => {
  try {
    return await readTextIfExists(path);
  } catch (error) {
    if (isErrno(error, 'ENOTDIR')) return undefined;
    throw error;
  }
};

async function locate(where: Where): Promise<{ root: string; runs: string; place: HookPlace }> {
  const root = await repoRoot(where);
  // git says which file it runs: core.hooksPath (relative to the top level, ~ expanded) or .git/hooks.
  const runs = resolve(root, (await git(['rev-parse', '--git-path', 'hooks/pre-commit'], { cwd: root, env: where.env })).replace(/\n$/, ''));
  const dir = dirname(runs);
  // husky 9 points core.hooksPath at .husky/_ and runs the user's hooks from .husky/.
  if (basename(dir) === '_' && (await exists(join(dir, 'h')) || await exists(join(dir, 'husky.sh')))) {
    return { root, runs, place: { file: join(dirname(dir), 'pre-commit'), style: 'husky', manager: 'husky', runner: runs } };
  }
  const current = await readHook(runs);
  return { root, runs, place: { file: runs, style: 'hooks', ...(current?.includes('lefthook') ? { manager: 'lefthook' as const } : {}) } };
}

/** Where the pre-commit hook of this repository lives (core.hooksPath, husky, or .git/hooks). */
export async function hookPlace(where: Where): Promise<HookPlace> {
  return (await locate(where)).place;
}

/** Why husky's runner would not run the user hook, or undefined when it provably does (husky 9). */
async function huskyRunnerProblem(runner: string): Promise<string | undefined> {
  const text = await readHook(runner);
  if (text === undefined) return `${runner} does not exist`;
  if (!(await isExecutable(runner))) return `${runner} is not executable (git skips it)`;
  // husky 9.0: . "${0%/*}/h"; 9.1: . "$(dirname "$0")/h"
  if (!/^\. "(\$\{0%\/\*\}|\$\(dirname "\$0"\))\/h"$/m.test(text)) return `${runner} is not husky's runner (it does not source h)`;
  const h = join(dirname(runner), 'h');
  const runs = await readHook(h);
  // husky 9 runs the user hook with sh -e "$s" (9.1.0 and 9.1.1 source it: . "$s").
  if (runs === undefined || !/^\s*(sh -e "\$s"|\. "\$s")/m.test(runs)) return `${h} does not run husky's user hooks as husky 9 does`;
  return undefined;
}

async function writeKeepingMode(path: string, text: string, mode: number): Promise<void> {
  await writeFileAtomic(path, text);
  await chmod(path, mode);
}

async function installHusky(place: HookPlace & { runner: string }): Promise<InstallResult> {
  const line = `this line by hand before every other command of ${place.file}`;
  const problem = await huskyRunnerProblem(place.runner);
  if (problem !== undefined) {
    return refuse(place, 'husky-runner', `${problem}, so lore cannot prove that git runs ${place.file}`, `Run npx husky to restore husky's files in ${dirname(place.runner)}, then lore hook install again; or, once husky runs it, add ${line}`, `${HOOK_LINE}\n`);
  }
  const current = await readTextIfExists(place.file);
  const foreign = current === undefined ? undefined : foreignShebang(current);
  if (foreign !== undefined) {
    return refuse(place, 'not-a-shell-script', `${place.file} is not a shell script (${foreign}), and husky runs it with sh, so lore cannot add its line to it`, `Make ${place.file} a shell script by hand: move its code to a file of its own, call that file from ${place.file}, and put this line before every other command`, `${HOOK_LINE}\n`);
  }
  if (current !== undefined && provesFirst(current, HOOK_LINE).ok) return { ...place, status: 'already-installed' };
  const next = withLoreLine(current, HOOK_LINE);
  // husky runs the file with sh, so its mode does not matter to git: keep it (a chmod shows in git status).
  const mode = current === undefined ? 0o644 : (await stat(place.file)).mode & 0o7777;
  await writeKeepingMode(place.file, next.text, mode);
  const proof = provesFirst((await readTextIfExists(place.file)) ?? '', HOOK_LINE);
  const runner = await huskyRunnerProblem(place.runner);
  if (!proof.ok || runner !== undefined) {
    if (current === undefined) await unlinkDurable(place.file);
    else await writeKeepingMode(place.file, current, mode);
    return refuse(place, 'unproven', `lore wrote ${place.file} but could not prove that git runs lore's line first (${proof.ok ? runner : proof.why}), so it put the file back`, `Add ${line}`, `${HOOK_LINE}\n`);
  }
  return { ...place, status: 'installed', ...(next.replaced.length === 0 ? {} : { replaced: next.replaced }) };
}

// The shim's second line; a file that has it is (or was) lore's shim, even if edited since.
const isShim = (text: string): boolean => text.split('\n')[1]?.startsWith(`${MARKER}: installed by`) === true;

async function installChained(place: HookPlace): Promise<InstallResult> {
  const current = await readTextIfExists(place.file);
  if (current?.includes(MARKER)) {
    const ours = current === SHIM || (!isShim(current) && provesFirst(current, HOOK_LINE).ok);
    if (!ours) {
      return refuse(place, 'unproven', `${place.file} carries lore's marker but is not lore's shim or line as lore writes them, so lore cannot prove what it runs`, 'Run lore hook uninstall (it removes what lore added and restores the hook it chained), then lore hook install again');
    }
    if (await isExecutable(place.file)) return { ...place, status: 'already-installed' };
    await chmod(place.file, 0o755);
    if (await isExecutable(place.file)) return { ...place, status: 'installed' };
    return refuse(place, 'unproven', `${place.file} is lore's hook but cannot be made executable, so git skips it`, `Make ${place.file} executable (chmod +x)`);
  }
  let chained: string | undefined;
  if (current !== undefined) {
    chained = join(dirname(place.file), CHAINED);
    if (await exists(chained)) throw new LoreError('CONFLICT', `${chained} already exists; remove it or run lore hook uninstall first`);
    await rename(place.file, chained);
  }
  await writeFileAtomic(place.file, SHIM);
  await chmod(place.file, 0o755);
  const written = await readTextIfExists(place.file);
  if (written !== SHIM || !(await isExecutable(place.file))) {
    await unlinkDurable(place.file);
    if (chained !== undefined) await rename(chained, place.file);
    return refuse(place, 'unproven', `lore wrote its shim to ${place.file} but could not prove that git runs it (${written === SHIM ? 'it is not executable' : 'it reads back different'}), so it put the hook back`, `Make ${place.file} an executable script that runs your hook, then lore hook pre-commit`);
  }
  return { ...place, status: 'installed', ...(chained === undefined ? {} : { chained }) };
}

async function lefthookRefusal(root: string, place: HookPlace): Promise<InstallResult | undefined> {
  const configs = await lefthookConfigs(root);
  const chained = await readTextIfExists(join(dirname(place.file), CHAINED));
  const inHook = place.manager === 'lefthook' || chained?.includes('lefthook') === true;
  if (configs.length === 0 && !inHook) return undefined;
  const config = configs[0] ?? join(root, 'lefthook.yml');
  const evidence = configs[0] ?? `lefthook's hook ${chained?.includes('lefthook') === true ? join(dirname(place.file), CHAINED) : place.file}`;
  const undo = chained === undefined ? '' : '; lore hook uninstall gives lefthook its hook back';
  return refuse({ ...place, manager: 'lefthook' }, 'lefthook', `lefthook manages this repository's git hooks (${evidence}); lore does not edit them, since lefthook install would replace what it wrote${undo}`, `Add lore to ${config} by hand (merge it into the pre-commit section, if there is one)`, lefthookSnippet(config));
}

/** Installs the hook where it provably runs; idempotent; refuses (changing nothing) what it cannot prove. */
export async function installHook(where: Where): Promise<InstallResult> {
  const { root, runs, place } = await locate(where);
  if (await notAFolder(dirname(runs))) {
    return refuse(place, 'hooks-disabled', `git looks for hooks in ${dirname(runs)}, which is not a folder (core.hooksPath), so git runs no hooks in this repository`, 'Point core.hooksPath at a folder, or unset it (git config --unset core.hooksPath), then run lore hook install again');
  }
  if (place.style === 'husky') return installHusky(place as HookPlace & { runner: string });
  return (await lefthookRefusal(root, place)) ?? installChained(place);
}

/** Removes what install added (lore's line, or its shim, restoring the hook it chained); returns what it did. */
export async function uninstallHook(where: Where): Promise<{ file: string; status: 'removed' | 'not-installed'; restored?: string }> {
  const place = await hookPlace(where);
  const current = await readHook(place.file);
  if (current === undefined || !current.includes(MARKER)) return { file: place.file, status: 'not-installed' };
  if (place.style === 'husky' || !isShim(current)) {
    const rest = withoutLoreLines(current) ?? current;
    // A file that held only lore's line was created by install.
    if (rest.trim() === '') await unlinkDurable(place.file);
    else await writeKeepingMode(place.file, rest, (await stat(place.file)).mode & 0o7777);
    return { file: place.file, status: 'removed' };
  }
  const chained = join(dirname(place.file), CHAINED);
  if (await exists(chained)) {
    await rename(chained, place.file);
    return { file: place.file, status: 'removed', restored: place.file };
  }
  await unlinkDurable(place.file);
  return { file: place.file, status: 'removed' };
}

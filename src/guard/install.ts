// Installing lore's pre-commit hook into a repository without breaking what is there, and only
// where lore can prove that git will run it. husky's user hook gets lore's line as its first
// command (after an `exit 0` or an `exec` it would never run); any other existing hook is chained
// behind lore's shim; lefthook's hooks are left to lefthook. After writing, lore reads the files
// back and proves the flow (the line comes first, the file git runs is executable and runs it);
// what it cannot prove it puts back and refuses, saying what to edit by hand.
import { chmod, rename, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LoreError } from '../errors.js';
import { unlinkDurable, writeFileAtomic } from '../fs/atomic-write.js';
import { readTextIfExists } from '../fs/read-text.js';
import { CHAINED, LEFTHOOK_OLD, PREVIOUS_SHIMS, SHIM, exists, huskyRunnerProblem, isExecutable, isShim, locate, notAFolder, readHook, type HookPlace, type Where } from './_hook-files.js';
import { HOOK_LINE, HUSKY_LINE, MARKER, PREVIOUS_HOOK_LINES, foreignShebang, provesFirst, withLoreLine, withoutLoreLines } from './_hook-script.js';
import { lefthookConfigs, lefthookSnippet } from './_lefthook.js';

export { HOOK_LINE, HUSKY_LINE, MARKER, SHIM, type HookPlace };

/** Why lore refused to install: see docs/guides/adopting.md, "Setting up the hook". */
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

const refuse = (place: HookPlace, reason: RefusalReason, message: string, fix: string, text?: string): InstallResult => ({ ...place, status: 'refused', reason, message, fix, ...(text === undefined ? {} : { text }) });

/** Where the pre-commit hook of this repository lives (core.hooksPath, husky, or .git/hooks). */
export async function hookPlace(where: Where): Promise<HookPlace> {
  return (await locate(where)).place;
}

async function writeKeepingMode(path: string, text: string, mode: number): Promise<void> {
  await writeFileAtomic(path, text);
  await chmod(path, mode);
}

/** How a line goes in: the line, why another language cannot take it, and a check of what runs the file. */
interface LineStyle {
  line: string;
  /** Why a script in another language cannot take lore's line, after "is not a shell script (#!...)". */
  foreignWhy: string;
  /** What else must hold for git to run the file, or undefined when it holds. */
  problem: () => Promise<string | undefined>;
  /** git runs the file itself, so it must be executable (husky runs it with sh). */
  executable: boolean;
}

/** Puts lore's line first in a shell hook (husky's user hook, or a tracked hook file), proves it, or puts the file back. */
async function installLine(place: HookPlace, style: LineStyle): Promise<InstallResult> {
  const byHand = `this line by hand before every other command of ${place.file}`;
  const current = await readTextIfExists(place.file);
  const foreign = current === undefined ? undefined : foreignShebang(current);
  if (foreign !== undefined) {
    return refuse(place, 'not-a-shell-script', `${place.file} is not a shell script (${foreign}), ${style.foreignWhy}, so lore cannot add its line to it`, `Make ${place.file} a shell script by hand: move its code to a file of its own, call that file from ${place.file}, and put this line before every other command`, `${style.line}\n`);
  }
  const mode = current === undefined ? (style.executable ? 0o755 : 0o644) : (await stat(place.file)).mode & 0o7777;
  const runnable = async (): Promise<boolean> => !style.executable || (await isExecutable(place.file));
  if (current !== undefined && provesFirst(current, style.line).ok && (await runnable())) return { ...place, status: 'already-installed' };
  const next = withLoreLine(current, style.line);
  // husky runs the file with sh, so its mode does not matter to git: keep it (a chmod shows in git status).
  await writeKeepingMode(place.file, next.text, style.executable ? mode | 0o111 : mode);
  const proof = provesFirst((await readTextIfExists(place.file)) ?? '', style.line);
  const problem = proof.ok ? ((await runnable()) ? await style.problem() : `${place.file} is not executable`) : proof.why;
  if (problem !== undefined) {
    if (current === undefined) await unlinkDurable(place.file);
    else await writeKeepingMode(place.file, current, mode);
    return refuse(place, 'unproven', `lore wrote ${place.file} but could not prove that git runs lore's line first (${problem}), so it put the file back`, `Add ${byHand}`, `${style.line}\n`);
  }
  return { ...place, status: 'installed', ...(next.replaced.length === 0 ? {} : { replaced: next.replaced }) };
}

async function installHusky(place: HookPlace & { runner: string }): Promise<InstallResult> {
  const problem = await huskyRunnerProblem(place.runner);
  if (problem !== undefined) {
    return refuse(place, 'husky-runner', `${problem}, so lore cannot prove that git runs ${place.file} with lore on PATH`, `Install husky 9.1 or later and run npx husky to restore husky's files in ${dirname(place.runner)}, then lore hook install again`, `${HUSKY_LINE}\n`);
  }
  return installLine(place, { line: HUSKY_LINE, foreignWhy: 'and husky runs it with sh', problem: () => huskyRunnerProblem(place.runner), executable: false });
}

async function installChained(place: HookPlace): Promise<InstallResult> {
  const current = await readTextIfExists(place.file);
  // A tracked hook is the team's: lore edits it in place (one line to review and commit), since
  // moving it aside would leave teammates a shim that chains nothing.
  if (place.tracked && !isShim(current)) {
    return installLine(place, { line: HOOK_LINE, foreignWhy: 'and lore does not move a tracked hook aside (the team would lose it)', problem: async () => undefined, executable: true });
  }
  if (current?.includes(MARKER)) {
    // What an earlier lore wrote is brought up to date: the same checks, and the hook asks lore serve.
    if (PREVIOUS_HOOK_LINES.some((line) => !isShim(current) && provesFirst(current, line.text).ok)) {
      return installLine(place, { line: HOOK_LINE, foreignWhy: '', problem: async () => undefined, executable: true });
    }
    if (PREVIOUS_SHIMS.some((shim) => shim.text === current)) {
      await writeKeepingMode(place.file, SHIM, ((await stat(place.file)).mode & 0o7777) | 0o111);
      if ((await readTextIfExists(place.file)) === SHIM && (await isExecutable(place.file))) return { ...place, status: 'installed' };
      await writeKeepingMode(place.file, current, 0o755);
      return refuse(place, 'unproven', `lore could not update its shim ${place.file}, so it put the old one back (it still runs lore)`, 'Run lore hook uninstall, then lore hook install');
    }
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
  const moved = join(dirname(place.file), LEFTHOOK_OLD);
  // lefthook install moves a hook it does not own to pre-commit.old, lore's shim included.
  const undo = isShim(await readHook(moved))
    ? `; lefthook install moved lore's shim to ${moved}, and lore hook uninstall removes it`
    : chained === undefined ? '' : '; lore hook uninstall gives lefthook its hook back';
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
  if (current === undefined || !current.includes(MARKER)) return uninstallMovedShim(place.file);
  if (place.style === 'husky' || !isShim(current)) {
    const rest = withoutLoreLines(current) ?? current;
    // A file that held only lore's line was created by install.
    if (rest.trim() === '') await unlinkDurable(place.file);
    else await writeKeepingMode(place.file, rest, (await stat(place.file)).mode & 0o7777);
    return { file: place.file, status: 'removed' };
  }
  return removeShim(place.file, place.file);
}

/** Removes lore's shim at `shim`, putting the hook it chained there instead (or at `restoreTo`). */
async function removeShim(shim: string, restoreTo: string): Promise<{ file: string; status: 'removed'; restored?: string }> {
  const chained = join(dirname(shim), CHAINED);
  if (await exists(chained)) {
    await rename(chained, restoreTo);
    if (restoreTo !== shim) await unlinkDurable(shim);
    return { file: shim, status: 'removed', restored: restoreTo };
  }
  await unlinkDurable(shim);
  return { file: shim, status: 'removed' };
}

/**
 * lefthook install moved lore's shim to pre-commit.old: remove it, and put the hook it chained
 * there instead, where lefthook keeps the hook it replaced (lefthook uninstall restores it).
 */
async function uninstallMovedShim(file: string): Promise<{ file: string; status: 'removed' | 'not-installed'; restored?: string }> {
  const moved = join(dirname(file), LEFTHOOK_OLD);
  if (!isShim(await readHook(moved))) return { file, status: 'not-installed' };
  return removeShim(moved, moved);
}

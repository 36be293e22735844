// Installing lore's pre-commit hook into another repository without breaking what is there:
// husky's hook folder gets a line added; any other existing hook is chained, not overwritten.
import { chmod, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { LoreError, isErrno } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { readTextIfExists } from '../fs/read-text.js';
import { git } from '../git/exec.js';
import { repoRoot } from './_evaluate.js';

const MARKER = '# lore-hook-shim';
const LINE = `npx --no-install lore hook pre-commit ${MARKER}`;
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
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return false;
    throw error;
  }
}

/** Where the pre-commit hook of this repository lives (core.hooksPath, husky, or .git/hooks). */
export async function hookPlace(where: { cwd: string; env: NodeJS.ProcessEnv }): Promise<HookPlace> {
  const root = await repoRoot(where);
  const opts = { cwd: root, env: where.env };
  let dir: string;
  try {
    const configured = (await git(['config', '--get', 'core.hooksPath'], opts)).trim();
    dir = isAbsolute(configured) ? configured : resolve(root, configured);
  } catch {
    dir = resolve(root, (await git(['rev-parse', '--git-path', 'hooks'], opts)).trim());
  }
  // husky 9 points core.hooksPath at .husky/_ and runs the user's hooks from .husky/.
  if (basename(dir) === '_' && (await exists(join(dir, 'h')) || await exists(join(dir, 'husky.sh')))) {
    return { file: join(dirname(dir), 'pre-commit'), style: 'husky', manager: 'husky' };
  }
  const file = join(dir, 'pre-commit');
  const current = await readTextIfExists(file);
  return { file, style: 'hooks', ...(current?.includes('lefthook') ? { manager: 'lefthook' as const } : {}) };
}

export interface InstallResult extends HookPlace {
  status: 'installed' | 'already-installed';
  /** The existing hook that now runs before lore. */
  chained?: string;
}

/** Installs the hook; idempotent. */
export async function installHook(where: { cwd: string; env: NodeJS.ProcessEnv }): Promise<InstallResult> {
  const place = await hookPlace(where);
  const current = await readTextIfExists(place.file);
  if (current?.includes(MARKER)) return { ...place, status: 'already-installed' };
  if (place.style === 'husky') {
    const base = current === undefined || current === '' ? '' : current.endsWith('\n') ? current : `${current}\n`;
    await writeFileAtomic(place.file, `${base}${LINE}\n`);
    await chmod(place.file, 0o755);
    return { ...place, status: 'installed' };
  }
  let chained: string | undefined;
  if (current !== undefined) {
    chained = join(dirname(place.file), CHAINED);
    if (await exists(chained)) throw new LoreError('CONFLICT', `${chained} already exists; remove it or run lore hook uninstall first`);
    await rename(place.file, chained);
  }
  await writeFileAtomic(place.file, SHIM);
  await chmod(place.file, 0o755);
  return { ...place, status: 'installed', ...(chained === undefined ? {} : { chained }) };
}

/** Removes the hook and restores the one it chained; returns what it did. */
export async function uninstallHook(where: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ file: string; status: 'removed' | 'not-installed'; restored?: string }> {
  const place = await hookPlace(where);
  const current = await readTextIfExists(place.file);
  if (current === undefined || !current.includes(MARKER)) return { file: place.file, status: 'not-installed' };
  if (place.style === 'husky') {
    await writeFileAtomic(place.file, current.split('\n').filter((line) => !line.includes(MARKER)).join('\n'));
    return { file: place.file, status: 'removed' };
  }
  const chained = join(dirname(place.file), CHAINED);
  if (await exists(chained)) {
    await rename(chained, place.file);
    return { file: place.file, status: 'removed', restored: place.file };
  }
  await unlink(place.file);
  return { file: place.file, status: 'removed' };
}

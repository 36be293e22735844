// The diff the commit guard scans, and starting it early: the staged diff is the hook's slowest
// step and needs none of lore's code, so bin/lore.js starts it before loading the CLI.
import { prestartGit } from '../git/exec.js';

/** Added lines only, no external diff or textconv drivers, renames followed; deletions have nothing to scan. */
export const DIFF_FLAGS = ['-U0', '--no-ext-diff', '--no-color', '--no-textconv', '-M', '--diff-filter=ACMR'];

/** The change `git commit` will record: the index against HEAD (GIT_INDEX_FILE is respected). */
export const STAGED_DIFF = ['-c', 'core.quotePath=false', 'diff', '--cached', ...DIFF_FLAGS];

/** Starts the staged diff in `cwd`; checkStaged takes it when that is the top level (where git runs hooks). */
export function prestartStagedDiff(cwd: string): void {
  prestartGit(STAGED_DIFF, { cwd });
}

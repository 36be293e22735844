// The commit guard's one entry: check a change, wherever it comes from. The staged change (what
// `git commit` will record), a range of commits (CI), or whole working-tree files.
import type { CheckOptions, CheckReport } from './_evaluate.js';

/** Where the change the guard checks comes from. */
export type ChangeSource =
  | { kind: 'staged' }
  | { kind: 'range'; range: string }
  | { kind: 'files'; paths: readonly string[] };

/**
 * Checks a change against the prohibitions (and the role guard): findings, what was scanned,
 * whether it is blocked.
 *
 * @example
 * const report = await checkChange({ kind: 'range', range: 'origin/main...HEAD' }, { cwd, env: process.env });
 * if (report.blocked) process.exitCode = 1;
 */
export async function checkChange(source: ChangeSource, options: CheckOptions): Promise<CheckReport> {
  if (source.kind === 'range') return (await import('./check-range.js')).checkRange({ ...options, range: source.range });
  const { checkFiles, checkStaged } = await import('./check.js');
  return source.kind === 'files' ? checkFiles({ ...options, paths: source.paths }) : checkStaged(options);
}

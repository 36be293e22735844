// The commit guard's checks of the staged change (what `git commit` will record) and of files
// in the working tree. Ranges of commits (CI) are in check-range.ts.
import type { ChangedFile } from './added-lines.js';
import { stagedFiles } from './changes.js';
import { isGuardPath } from './hook-git.js';
import { stagedRead } from './staged-change.js';
import { allowsOf, evaluate, lineReader, readBothSides, repoRoot, uniqueProblems, type CheckOptions, type CheckReport } from './_evaluate.js';
import { changedLogs, changedRecords, knowledgeProblems, localFileProblems } from './knowledge-files.js';

/** Checks the staged change exactly as git will commit it (GIT_INDEX_FILE is respected). */
export async function checkStaged(options: CheckOptions): Promise<CheckReport> {
  const root = await repoRoot(options);
  const where = { cwd: root, env: options.env };
  const read = stagedRead(where);
  // A change that names no rule file leaves the index's rules as HEAD has them.
  const sameRules = read.then((staged) => !staged.paths.some(isGuardPath));
  const [staged, { committed, change, cache, snapshot, git: context, changeProblems, notes }] = await Promise.all([
    read,
    readBothSides(where, { ref: 'HEAD' }, { index: true }, sameRules),
  ]);
  const files = stagedFiles(staged);
  const invalid = uniqueProblems([...changeProblems, ...(await knowledgeProblems(where, cache, changedRecords(files), changedLogs(files).map((file) => ({ file })))), ...(await localFileProblems(files))]);
  const result = await evaluate(where, options, {
    committed, change, cache, snapshot, git: context, changes: [{ files }], invalid, notes,
    allowsFor: () => allowsOf(committed.records),
    lineText: lineReader(where, () => ':'),
  });
  return { mode: 'staged', root, ...result };
}

/** Checks files of the working tree, whole, against the rules at HEAD and in the index. */
export async function checkFiles(options: CheckOptions & { paths: readonly string[] }): Promise<CheckReport> {
  const root = await repoRoot(options);
  const where = { cwd: root, env: options.env };
  const { readWorkingFiles } = await import('./working-files.js');
  const { committed, change, cache, snapshot, git: context, changeProblems, notes } = await readBothSides(where, { ref: 'HEAD' }, { index: true });
  const files: ChangedFile[] = await readWorkingFiles(root, options.cwd, options.paths);
  const result = await evaluate(where, options, {
    committed, change, cache, snapshot, git: context, changes: [{ files }], invalid: changeProblems, notes,
    allowsFor: () => allowsOf([...committed.records, ...change.records]),
    lineText: async (finding, line) => files.find((f) => f.path === finding.path)?.added[line - 1]?.text,
  });
  return { mode: 'files', root, ...result };
}


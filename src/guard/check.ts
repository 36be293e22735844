// The commit guard's checks of the staged change (what `git commit` will record) and of files
// in the working tree. Ranges of commits (CI) are in check-range.ts.
import { LoreError } from '../errors.js';
import type { ChangedFile } from './added-lines.js';
import { sameStagedChange, stagedFiles } from './changes.js';
import { isGuardPath, RULE_TREES_AT_HEAD } from './hook-git.js';
import { stagedRead } from './staged-change.js';
import { allowsOf, evaluate, lineReader, readBothSides, repoRoot, uniqueProblems, type CheckOptions, type CheckReport } from './_evaluate.js';
import { changedLogs, changedRecords, knowledgeProblems, localFileProblems } from './knowledge-files.js';

/** Checks the staged change exactly as git will commit it (GIT_INDEX_FILE is respected). */
export async function checkStaged(options: CheckOptions): Promise<CheckReport> {
  const top = await repoRoot(options);
  const where = { cwd: top.root, env: options.env };
  const start = stagedRead(where);
  const { heads, read } = start;
  // A change that names no rule file leaves the index's rules as HEAD has them: git's answers for
  // the rule folders at HEAD identify both sides. They come before the staged blobs, so the rules
  // are read (or parsed, when cold) while git is still reading the change.
  const atHead = heads.then(({ paths, looks }) => {
    const answers = looks.map((answer) => (answer === undefined ? 'missing' : `${answer.id} ${answer.type}`));
    return { ...(paths.some(isGuardPath) ? {} : { rules: answers.slice(0, RULE_TREES_AT_HEAD.length).join('\n') }), turns: looks[RULE_TREES_AT_HEAD.length] !== undefined };
  });
  const [staged, { committed, change, rules, cache, snapshot, git: context, changeProblems, notes }] = await Promise.all([
    read,
    readBothSides(where, top, { ref: 'HEAD' }, { index: true }, atHead),
  ]);
  const files = stagedFiles(staged);
  const invalid = uniqueProblems([...changeProblems, ...(await knowledgeProblems(where, cache, changedRecords(files), changedLogs(files).map((file) => ({ file })))), ...(await localFileProblems(files))]);
  // A finding's file is one the diff named: its staged text was read with the change.
  const blobOf = new Map(files.map((file) => [file.path, file.blob]));
  const result = await evaluate(where, options, {
    committed, change, rules, cache, snapshot, git: context, changes: [{ files }], invalid, notes,
    allowsFor: () => allowsOf(committed.records),
    lineText: lineReader((finding) => ({ key: finding.path, read: async () => staged.read.blobs.get(blobOf.get(finding.path) ?? '') })),
  });
  // The staged change git will commit must be the one read: refused (exit 2, the commit blocked)
  // when the index was written meanwhile with another staged change. What is staged after this
  // look, before git reads the index again (a hook chained after lore's, another process), only
  // CI's range check sees.
  if (!(await sameStagedChange(where, start))) {
    throw new LoreError('CONFLICT', 'the staged change changed while lore checked it (the index was written meanwhile: a git add, or another hook)', { hint: 'run git commit again: lore checks the staged change as it is then' });
  }
  return { mode: 'staged', root: top.root, ...result };
}

/** Checks files of the working tree, whole, against the rules at HEAD and in the index. */
export async function checkFiles(options: CheckOptions & { paths: readonly string[] }): Promise<CheckReport> {
  const top = await repoRoot(options);
  const where = { cwd: top.root, env: options.env };
  const { readWorkingFiles } = await import('./working-files.js');
  const { committed, change, rules, cache, snapshot, git: context, changeProblems, notes } = await readBothSides(where, top, { ref: 'HEAD' }, { index: true });
  const files: ChangedFile[] = await readWorkingFiles(top.root, options.cwd, options.paths);
  const result = await evaluate(where, options, {
    committed, change, rules, cache, snapshot, git: context, changes: [{ files }], invalid: changeProblems, notes,
    allowsFor: () => allowsOf([...committed.records, ...change.records]),
    lineText: async (finding, line) => files.find((f) => f.path === finding.path)?.added[line - 1]?.text,
  });
  return { mode: 'files', root: top.root, ...result };
}


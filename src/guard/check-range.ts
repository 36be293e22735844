// `lore check --range BASE...HEAD` for CI: every commit from the merge base to HEAD (merges
// included), each with its own added lines, so something added and later removed is still caught.
import { LoreError } from '../errors.js';
import { KNOWLEDGE_DIR } from '../store/layout.js';
import { listTree } from '../git/objects.js';
import { allowsOf, evaluate, readBothSides, refLineReader, repoRoot, uniqueProblems, type CheckOptions, type CheckReport } from './_evaluate.js';
import { changedLogs, changedRecords, knowledgeProblems, localFileProblems } from './knowledge-files.js';
import { rangeChangeSets } from './changes.js';
import { resolveRange } from './range.js';

/** Checks every commit of a range (merges for what they introduce) against the rules at the merge base and at its head. */
export async function checkRange(options: CheckOptions & { range: string }): Promise<CheckReport> {
  const top = await repoRoot(options);
  const where = { cwd: top.root, env: options.env };
  const { base, head, mergeBase } = await resolveRange(where, options.range);
  const [{ commits: inRange, changes }, sides] = await Promise.all([rangeChangeSets(where, mergeBase, head, options.onProgress), readBothSides(where, top, { ref: mergeBase }, { ref: head })]);
  const commits = inRange.map((c) => c.commit);
  if (commits.length === 0) {
    throw new LoreError('EMPTY_RANGE', `the range ${options.range} has no commits to check (merge base ${mergeBase.slice(0, 12)} is its head)`, { hint: 'an empty range is not a pass: check that CI fetched the branch and its base' });
  }
  const { committed, change, rules, cache, snapshot, git: context, changeProblems } = sides;
  // Records and config as they are at the head; log lines as each commit added them.
  const touched = [...new Set(changes.flatMap((c) => changedRecords(c.files).map((f) => f.path)))];
  const atHead = touched.length === 0 ? [] : await listTree(where, head, touched);
  const logs = changes.flatMap((c) => changedLogs(c.files).map((file) => ({ file, commit: c.commit! })));
  const local = (await Promise.all(changes.map((c) => localFileProblems(c.files, c.commit)))).flat();
  const invalid = uniqueProblems([...changeProblems, ...(await knowledgeProblems(where, cache, atHead, logs)), ...local]);
  // An allowlist record applies from the commit after the one that last changed it.
  const order = new Map(changes.map((c, i) => [c.commit!, i]));
  const lastTouched = new Map<string, number>();
  changes.forEach((c, i) => c.files.forEach((f) => f.path.startsWith(`${KNOWLEDGE_DIR}/allow/`) && lastTouched.set(f.path, i)));
  const baseAllows = allowsOf(committed.records);
  const headAllows = allowsOf(change.records).filter((a) => lastTouched.has(a.file));
  const result = await evaluate(where, options, {
    committed, change, rules, cache, snapshot, git: context, changes, invalid,
    allowsFor: (finding) => {
      const at = order.get(finding.commit!) ?? Infinity;
      const fromRange = headAllows.filter((a) => lastTouched.get(a.file)! < at);
      return [...baseAllows.filter((a) => !fromRange.some((r) => r.file === a.file)), ...fromRange];
    },
    lineText: refLineReader(where, (finding) => finding.commit!),
  });
  return { mode: 'range', root: top.root, range: { spec: options.range, base, head, mergeBase, commits }, ...result };
}

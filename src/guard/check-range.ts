// `lore check --range BASE...HEAD` for CI: every commit from the merge base to HEAD, each with its
// own added lines, so something added and later removed within the range is still caught.
import { LoreError } from '../errors.js';
import { git } from '../git/exec.js';
import { parseDiff } from '../git/diff.js';
import { KNOWLEDGE_DIR } from '../store/layout.js';
import { allowsOf, evaluate, lineReader, readBothSides, repoRoot, type CheckOptions, type CheckReport } from './_evaluate.js';
import type { ChangeSet } from './scan.js';
import { DIFF_FLAGS } from './staged-diff.js';

async function resolveRef(where: { cwd: string; env: NodeJS.ProcessEnv }, ref: string): Promise<string> {
  try {
    return (await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], where)).trim();
  } catch {
    throw new LoreError('USAGE', `unknown revision ${JSON.stringify(ref)}`, { hint: 'give the range as BASE...HEAD, e.g. origin/main...HEAD (fetch the base first in CI)' });
  }
}

/** Checks every non-merge commit of a range against the rules at the merge base and at its head. */
export async function checkRange(options: CheckOptions & { range: string }): Promise<CheckReport> {
  const root = await repoRoot(options);
  const where = { cwd: root, env: options.env };
  const match = /^(.+?)\.{2,3}(.+)$/.exec(options.range);
  if (match === null) throw new LoreError('USAGE', `cannot read the range ${JSON.stringify(options.range)}`, { hint: 'give it as BASE...HEAD' });
  const [base, head] = await Promise.all([resolveRef(where, match[1]!), resolveRef(where, match[2]!)]);
  const mergeBase = (await git(['merge-base', base, head], where)).trim();
  const commits = (await git(['rev-list', '--reverse', '--no-merges', `${mergeBase}..${head}`], where)).split('\n').filter(Boolean);
  if (commits.length === 0) {
    throw new LoreError('EMPTY_RANGE', `the range ${options.range} has no commits to check (merge base ${mergeBase.slice(0, 12)} is its head)`, { hint: 'an empty range is not a pass: check that CI fetched the branch and its base' });
  }
  const log = await git(['-c', 'core.quotePath=false', 'log', '-p', ...DIFF_FLAGS, '--reverse', '--no-merges', '--format=%x00%H', `${mergeBase}..${head}`], where);
  const changes: ChangeSet[] = log.split('\0').filter((chunk) => chunk.trim() !== '').map((chunk) => {
    const newline = chunk.indexOf('\n');
    return { commit: chunk.slice(0, newline === -1 ? undefined : newline).trim(), files: parseDiff(chunk.slice(newline + 1)) };
  });
  const { committed, change, cache, git: context } = await readBothSides(where, { ref: mergeBase }, { ref: head });
  // An allowlist record applies from the commit after the one that last changed it.
  const order = new Map(changes.map((c, i) => [c.commit!, i]));
  const lastTouched = new Map<string, number>();
  changes.forEach((c, i) => c.files.forEach((f) => f.path.startsWith(`${KNOWLEDGE_DIR}/allow/`) && lastTouched.set(f.path, i)));
  const baseAllows = allowsOf(committed.records);
  const headAllows = allowsOf(change.records).filter((a) => lastTouched.has(a.file));
  const result = await evaluate(where, options, {
    committed, change, cache, git: context, changes,
    allowsFor: (finding) => {
      const at = order.get(finding.commit!) ?? Infinity;
      const fromRange = headAllows.filter((a) => lastTouched.get(a.file)! < at);
      return [...baseAllows.filter((a) => !fromRange.some((r) => r.file === a.file)), ...fromRange];
    },
    lineText: lineReader(where, (finding) => finding.commit!),
  });
  return { mode: 'range', root, range: { spec: options.range, base, head, mergeBase, commits }, ...result };
}

// `BASE...HEAD` as CI gives it: both ends resolved to commits, and their merge base. A revision
// that could pass for an option (`-x`) is refused before it reaches git.
import { LoreError } from '../errors.js';
import { git } from '../git/exec.js';

export interface ResolvedRange {
  spec: string;
  base: string;
  head: string;
  mergeBase: string;
}

async function resolveCommit(where: { cwd: string; env: NodeJS.ProcessEnv }, ref: string): Promise<string> {
  const unknown = new LoreError('USAGE', `unknown revision ${JSON.stringify(ref)}`, { hint: 'give the range as BASE...HEAD, e.g. origin/main...HEAD (fetch the base first in CI)' });
  if (ref.startsWith('-')) throw unknown;
  try {
    return (await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], where)).trim();
  } catch {
    throw unknown;
  }
}

/** Resolves `BASE...HEAD` (or `BASE..HEAD`): both commits and their merge base. */
export async function resolveRange(where: { cwd: string; env: NodeJS.ProcessEnv }, spec: string): Promise<ResolvedRange> {
  const match = /^(.+?)\.{2,3}(.+)$/.exec(spec);
  if (match === null) throw new LoreError('USAGE', `cannot read the range ${JSON.stringify(spec)}`, { hint: 'give it as BASE...HEAD' });
  const [base, head] = await Promise.all([resolveCommit(where, match[1]!), resolveCommit(where, match[2]!)]);
  let mergeBase: string;
  try {
    mergeBase = (await git(['merge-base', base, head], where)).trim();
  } catch (error) {
    throw new LoreError('USAGE', `${match[1]} and ${match[2]} have no common history, so the range ${spec} cannot be checked`, { cause: error, hint: 'CI needs the base branch fetched with its history (actions/checkout: fetch-depth: 0)' });
  }
  return { spec, base, head, mergeBase };
}

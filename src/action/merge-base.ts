// The pull request's base in a checkout that may be shallow or lack it (actions/checkout fetches
// one commit by default): fetch the base branch, then deepen both sides step by step until they
// meet, then the whole history; a checkout that still cannot be completed fails with the fix.
import { LoreError } from '../errors.js';
import { git } from '../git/exec.js';

type Where = { cwd: string; env: NodeJS.ProcessEnv };

const DEEPEN = ['--deepen=50', '--deepen=500', '--unshallow'];

/** What to put in actions/checkout so that nothing needs fetching. */
export const CHECKOUT_FIX = 'fetch the whole history in the checkout step:\n  - uses: actions/checkout@v4\n    with:\n      fetch-depth: 0';

async function commitOf(where: Where, ref: string): Promise<string | undefined> {
  if (ref.startsWith('-')) return undefined;
  try {
    return (await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], where)).trim();
  } catch {
    return undefined;
  }
}

async function connected(where: Where, base: string): Promise<boolean> {
  try {
    await git(['merge-base', base, 'HEAD'], where);
    return true;
  } catch {
    return false;
  }
}

async function fetchOrigin(where: Where, args: string[], what: string): Promise<void> {
  try {
    await git(['fetch', '--no-tags', '--quiet', ...args], where);
  } catch (error) {
    throw new LoreError('GIT', `cannot find ${what} in this checkout, and fetching it from origin failed`, { cause: error, hint: CHECKOUT_FIX });
  }
}

/**
 * Makes `<base>...HEAD` checkable: returns the ref that names the base in the checkout (the
 * remote-tracking branch `origin/<base>` when the base is a branch of origin), having fetched
 * the base and enough history for a merge base. `log` says what was fetched.
 */
export async function baseInCheckout(where: Where, base: string, log: (line: string) => void): Promise<string> {
  const branch = base.replace(/^origin\//, '');
  const tracking = `origin/${branch}`;
  let ref = (await commitOf(where, tracking)) !== undefined ? tracking : (await commitOf(where, base)) !== undefined ? base : undefined;
  const shallow = async (): Promise<boolean> => (await git(['rev-parse', '--is-shallow-repository'], where)).trim() === 'true';
  const refspec = `+refs/heads/${branch}:refs/remotes/${tracking}`;
  if (ref === undefined) {
    log(`lore: fetching ${branch} from origin`);
    await fetchOrigin(where, [...((await shallow()) ? ['--depth=1'] : []), 'origin', refspec], `the base ${base}`);
    ref = tracking;
  }
  const head = (await git(['rev-parse', 'HEAD'], where)).trim();
  for (const deepen of DEEPEN) {
    if ((await connected(where, ref)) || !(await shallow())) return ref;
    log(`lore: the checkout is shallow and holds no merge base of ${ref} and HEAD: git fetch ${deepen}`);
    await fetchOrigin(where, [deepen, 'origin', ...(ref === tracking ? [refspec] : []), head], `the merge base of ${ref} and HEAD`);
  }
  return ref;
}

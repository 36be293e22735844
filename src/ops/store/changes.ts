// What a pull request of the current branch will show of .knowledge/: the uncommitted changes
// (git status) and the knowledge diff of the branch against the default branch (lore diff).
import { relative, sep } from 'node:path';
import { git, gitTopLevel } from '../../git/exec.js';
import { knowledgeDiff, type KnowledgeDiff } from '../../guard/knowledge-diff.js';
import { LoreError } from '../../errors.js';
import { CACHE_DIR, KINDS, KNOWLEDGE_DIR, RECORD_KINDS } from '../../store/layout.js';
import { isTransient } from '../../store/leftovers.js';
import { logKind } from '../../store/log-kinds.js';
import { defineOp } from '../_define.js';
import { byText } from '../../text-order.js';

export interface ChangesInput {
  base?: string;
}

export type FileChange = 'added' | 'modified' | 'deleted' | 'conflicted';

export interface UncommittedFile {
  /** Relative to the repository's top level, forward slashes. */
  path: string;
  change: FileChange;
  /** Part of the change is in the index (git add). */
  staged: boolean;
  /** Part of the change is only in the working tree (or the file is untracked). */
  unstaged: boolean;
  /** What the file is: a record kind, `log`, `config`, or `other`. */
  area: string;
}

export interface ChangesOutput {
  /** The current branch, null when HEAD is detached. */
  branch: string | null;
  /** The branch compared with, null when none was found. */
  base: string | null;
  uncommitted: UncommittedFile[];
  /** The knowledge diff of `base...HEAD`, null when there is nothing to compare with. */
  diff: KnowledgeDiff | null;
  /** Why diff is null, for people. */
  note: string | null;
}

type Where = { cwd: string; env: NodeJS.ProcessEnv };

async function quiet(args: string[], where: Where): Promise<string | undefined> {
  try {
    return (await git(args, where)).trim();
  } catch {
    return undefined;
  }
}

/** The default branch: origin's HEAD when the clone knows it, else main, else master. */
async function defaultBranch(where: Where): Promise<string | undefined> {
  const remote = await quiet(['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD'], where);
  if (remote !== undefined && remote !== '') return remote.replace(/^refs\/remotes\//, '');
  for (const name of ['main', 'master']) {
    if ((await quiet(['rev-parse', '--verify', '--quiet', `refs/heads/${name}^{commit}`], where)) !== undefined) return name;
  }
  return undefined;
}

function changeOf(x: string, y: string): FileChange {
  if (x === 'U' || y === 'U' || (x === 'A' && y === 'A') || (x === 'D' && y === 'D')) return 'conflicted';
  if (x === '?' || x === 'A') return 'added';
  if (x === 'D' || y === 'D') return 'deleted';
  return 'modified';
}

/** What a path under .knowledge/ (relative to it) holds. */
function areaOf(inStore: string): string {
  if (inStore === 'config.yaml') return 'config';
  if (logKind(inStore) !== undefined) return 'log';
  const kind = RECORD_KINDS.find((k) => inStore.startsWith(`${KINDS[k].dir}/`) && inStore.slice(KINDS[k].dir.length + 1).indexOf('/') === -1);
  return kind ?? 'other';
}

/** `git status -z` of the store's folder, one entry per file. */
async function uncommitted(where: Where, storeDir: string): Promise<UncommittedFile[]> {
  // -z: paths exactly as they are (no quoting); without renames, a moved record is a deletion and an addition.
  const out = await git(['--literal-pathspecs', 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--', storeDir], where);
  const fields = out.split('\0');
  const files: UncommittedFile[] = [];
  for (const field of fields) {
    if (field.length < 4) continue;
    const [x, y, path] = [field[0]!, field[1]!, field.slice(3)];
    const inStore = path.slice(storeDir.length + 1);
    // The cache, temp and lock files are never committed, even where no .gitignore says so.
    if (inStore.startsWith(`${CACHE_DIR}/`) || isTransient(inStore.slice(inStore.lastIndexOf('/') + 1))) continue;
    files.push({ path, change: changeOf(x, y), staged: x !== ' ' && x !== '?', unstaged: y !== ' ', area: areaOf(inStore) });
  }
  return files.sort((a, b) => byText(a.path, b.path));
}

export const op = defineOp<ChangesInput, ChangesOutput>({
  name: 'store.changes',
  async run(input, { ws }) {
    const store = await ws.store({ allowInvalidConfig: true });
    const top = await gitTopLevel(store.root, ws.env);
    if (top === undefined) throw new LoreError('NOT_A_GIT_REPO', `${store.root} is not inside a git repository`, { hint: 'changes are what git sees: run git init, or open a store inside a repository' });
    const where = { cwd: top, env: ws.env };
    const storeDir = [relative(top, store.root), KNOWLEDGE_DIR].filter((p) => p !== '').join(sep).split(sep).join('/');
    const branch = (await quiet(['symbolic-ref', '--quiet', '--short', 'HEAD'], where)) ?? null;
    const files = await uncommitted(where, storeDir);
    const base = input.base ?? (await defaultBranch(where));
    if (base === undefined) return { branch, base: null, uncommitted: files, diff: null, note: 'no default branch to compare with (neither origin/HEAD, main nor master exists)' };
    if ((await quiet(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], where)) === undefined) {
      return { branch, base, uncommitted: files, diff: null, note: 'nothing is committed yet' };
    }
    const diff = await knowledgeDiff({ cwd: top, env: ws.env, spec: `${base}...HEAD` });
    return { branch, base, uncommitted: files, diff, note: null };
  },
});

// Real temp directories and real git repositories for tests, removed when the test ends.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, type TestContext } from 'node:test';

/** The environment tests run git and lore with: no user config, a fixed identity, no colours. */
export function testEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: tmpdir(),
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    // Wide enough that no pinned output wraps; tests/terminal.test.ts pins wrapping at 40 and 80.
    COLUMNS: '1000',
    // Every command over an operation checks its output against the operation's output schema.
    LORE_CHECK_OUTPUT: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Test Author',
    GIT_AUTHOR_EMAIL: 'author@example.com',
    GIT_COMMITTER_NAME: 'Test Author',
    GIT_COMMITTER_EMAIL: 'author@example.com',
    ...extra,
  };
  return env;
}

/** What each test started that may still write into its temp directories: stopped before they are removed. */
const running = new WeakMap<TestContext, Array<() => Promise<unknown>>>();

/**
 * Stops a process the test started (a daemon, an MCP server) when the test ends, before its temp
 * directories are removed: a long-lived lore writes its caches after its last answer. `stop` runs once.
 */
export function stopWithTest(t: TestContext, stop: () => Promise<unknown>): void {
  let stopped: Promise<unknown> | undefined;
  const once = (): Promise<unknown> => (stopped ??= stop());
  running.set(t, [...(running.get(t) ?? []), once]);
  t.after(once);
}

/** A fresh temp directory, removed after the test (once what the test started has stopped). */
export function tempDir(t: TestContext, prefix = 'lore-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(async () => {
    await Promise.all((running.get(t) ?? []).map((stop) => stop()));
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Writes files (path relative to root → content) into root. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** A temp directory holding `.knowledge/` with the given files (paths relative to the root). */
export function tempStore(t: TestContext, files: Record<string, string> = {}): string {
  const root = tempDir(t);
  mkdirSync(join(root, '.knowledge'), { recursive: true });
  writeFiles(root, files);
  return root;
}

/** Runs git in `cwd` with the test environment; returns stdout. */
export function gitSync(cwd: string, args: string[], env: NodeJS.ProcessEnv = testEnv()): string {
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A git repository on branch main with user, no gc, and the files committed (when any). */
export function gitRepo(t: TestContext, files: Record<string, string> = {}): string {
  return gitRepoIn(tempDir(t, 'lore-repo-'), files);
}

/** gitRepo in a folder that exists and is empty (one the caller removes). */
export function gitRepoIn(root: string, files: Record<string, string> = {}): string {
  gitSync(root, ['init', '-q', '-b', 'main']);
  gitSync(root, ['config', 'user.name', 'Test Author']);
  gitSync(root, ['config', 'user.email', 'author@example.com']);
  gitSync(root, ['config', 'gc.auto', '0']);
  gitSync(root, ['config', 'commit.gpgsign', 'false']);
  if (Object.keys(files).length > 0) {
    writeFiles(root, files);
    gitSync(root, ['add', '-A']);
    gitSync(root, ['commit', '-q', '-m', 'initial']);
  }
  return root;
}

/**
 * The test's own copy of a folder that a test file built once (a repository and a store that
 * several lore commands made), removed after the test. The copy keeps the folder's name, which
 * lore takes for the project's; git's index is refreshed, since every file of the copy is a new
 * inode, so git sees the work tree as it saw the original's.
 */
export function copyOf(t: TestContext, source: string): string {
  const root = join(tempDir(t, 'lore-copy-'), basename(source));
  cpSync(source, root, { recursive: true, verbatimSymlinks: true });
  if (existsSync(join(root, '.git'))) gitSync(root, ['update-index', '-q', '--refresh']);
  return root;
}

/**
 * A git repository (with `files` committed) that `build` fills once for the test file, the first
 * time a test asks; each test then gets its own copy (copyOf). For a store that several lore
 * commands make and that every test goes on to change.
 */
export function repoFixture(build: (root: string) => Promise<void>, files: Record<string, string> = {}): (t: TestContext) => Promise<string> {
  const parent = mkdtempSync(join(tmpdir(), 'lore-fixture-'));
  after(() => rmSync(parent, { recursive: true, force: true }));
  let built: Promise<string> | undefined;
  return async (t) => {
    built ??= (async () => {
      const root = gitRepoIn(mkdtempSync(join(parent, 'lore-repo-')), files);
      await build(root);
      return root;
    })();
    return copyOf(t, await built);
  };
}

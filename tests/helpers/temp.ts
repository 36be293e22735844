// Real temp directories and real git repositories for tests, removed when the test ends.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestContext } from 'node:test';

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
  const root = tempDir(t, 'lore-repo-');
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

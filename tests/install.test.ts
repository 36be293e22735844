// Installing lore the ways the README shows, each into a fresh consumer repository with the real npm,
// git and pre-commit: a release tag from git, a tarball made by `npm pack`, the pre-commit framework.
// The release is made once, by `npm run release`, in a clone of this repository in a temp folder.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LORE_BIN } from './helpers/cli.js';
import { gitRun } from './helpers/guard.js';
import { gitRepo, gitSync, tempDir, testEnv } from './helpers/temp.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VERSION = '0.9.0-test.1';
const TAG = `v${VERSION}`;
const NPM_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline'];
/** What only a development install brings: none of it may reach a consumer. */
const DEV_ONLY = ['typescript', 'husky', 'tsx', 'playwright-core', 'dependency-cruiser'];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The test environment with the machine's network settings, which npm needs to reach the registry (a proxy, its CA). */
function npmEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const network = ['NODE_EXTRA_CA_CERTS', 'HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
  return testEnv({ ...Object.fromEntries(network.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]])), ...extra });
}

/** Runs a command; reports its exit code and output instead of throwing. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = npmEnv()): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }));
  });
}

/** The repository's state that a release must not change: HEAD, the branch, the index, the work tree. */
function repoState(dir: string): string[] {
  return [gitSync(dir, ['rev-parse', 'HEAD']), gitSync(dir, ['symbolic-ref', 'HEAD']), gitSync(dir, ['ls-files', '--stage']), gitSync(dir, ['status', '--porcelain'])];
}

/**
 * dist/ as the build makes it from the sources committed at `rev`: a .js and a .d.ts per module,
 * .js for the UI, a generated validator (.cjs) per record schema and operation input schema, and
 * the bundled CLI (scripts/bundle-cli.mjs; never a code cache, which a run writes).
 */
function expectedDist(dir: string, rev: string): string[] {
  const sources = gitSync(dir, ['ls-tree', '-r', '--name-only', rev, 'src']).split('\n').filter((path) => path.endsWith('.ts'));
  const schemas = gitSync(dir, ['ls-tree', '-r', '--name-only', rev, 'schemas']).split('\n').filter((path) => /^schemas\/(ops\/[^/_][^/]*\.input|[^/_][^/]*)\.schema\.json$/.test(path));
  return [
    ...sources.flatMap((path) => {
      const base = path.replace(/^src\//, 'dist/').replace(/\.ts$/, '');
      return path.startsWith('src/ui/') ? [`${base}.js`] : [`${base}.js`, `${base}.d.ts`];
    }),
    ...schemas.map((path) => path.replace(/^schemas\//, 'dist/schema/generated/').replace(/\.json$/, '.cjs')),
    'dist/cli.cjs', 'dist/cli-load.cjs', 'dist/cli-import.cjs', 'dist/cli.inputs.json',
  ];
}

/** A consumer repository with a package.json and node_modules/ ignored, committed. */
function consumer(t: TestContext): string {
  return gitRepo(t, { 'package.json': '{ "name": "consumer", "version": "1.0.0", "private": true }\n', '.gitignore': 'node_modules/\n' });
}

/** `npm install --save-dev <spec>` in `dir`, with npm's debug logs in a folder of their own: one log per npm run. */
async function npmInstall(t: TestContext, dir: string, spec: string): Promise<Run & { npmRuns: number }> {
  const logs = tempDir(t, 'lore-npm-logs-');
  const result = await run('npm', ['install', '--save-dev', ...NPM_FLAGS, spec], dir, npmEnv({ npm_config_logs_dir: logs }));
  return { ...result, npmRuns: readdirSync(logs).length };
}

/** Paths under node_modules of packages only a development install needs. */
function devOnlyPackages(dir: string): string[] {
  return readdirSync(join(dir, 'node_modules'), { recursive: true, encoding: 'utf8' }).filter((path) => DEV_ONLY.some((name) => path === name || path.endsWith(`node_modules/${name}`)));
}

const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');

describe('installing lore into another repository', () => {
  const base = mkdtempSync(join(tmpdir(), 'lore-install-'));
  after(() => rmSync(base, { recursive: true, force: true }));
  const clone = join(base, 'lore');
  let stateBefore: string[] = [];
  let release: Run;
  /** stderr lines of installing a trivial local package: npm's own noise on this machine, not lore's. */
  let baseline: string[] = [];

  before(async () => {
    gitSync(base, ['clone', '-q', ROOT, clone]);
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
    stateBefore = repoState(clone);
    release = await run('npm', ['run', 'release', '--', VERSION], clone);
    mkdirSync(join(base, 'trivial'));
    writeFileSync(join(base, 'trivial', 'package.json'), '{ "name": "trivial", "version": "1.0.0" }\n');
    mkdirSync(join(base, 'baseline'));
    writeFileSync(join(base, 'baseline', 'package.json'), '{ "name": "baseline", "version": "1.0.0", "private": true }\n');
    baseline = lines((await run('npm', ['install', '--save-dev', ...NPM_FLAGS, '../trivial'], join(base, 'baseline'))).stderr);
  });

  it('npm run release tags a commit of HEAD + dist/ + an install-only package.json, and leaves branch, index and work tree as they were', () => {
    assert.equal(release.code, 0, release.stderr);
    const commit = gitSync(clone, ['rev-parse', `${TAG}^{commit}`]).trim();
    assert.equal(lines(release.stdout).at(-1), `release: tagged ${TAG} (commit ${commit.slice(0, 12)}); publish it with: git push origin ${TAG}`);
    assert.deepEqual(repoState(clone), stateBefore);
    assert.equal(gitSync(clone, ['rev-parse', `${commit}^`]), stateBefore[0]);
    assert.equal(gitSync(clone, ['cat-file', '-t', TAG]), 'tag\n');
    const changed = lines(gitSync(clone, ['diff-tree', '-r', '--name-only', 'HEAD', commit])).sort();
    assert.deepEqual(changed, ['package.json', ...expectedDist(clone, 'HEAD')].sort());
    const dev = JSON.parse(gitSync(clone, ['show', 'HEAD:package.json'])) as Record<string, unknown>;
    const { scripts: _scripts, devDependencies: _dev, ...kept } = dev;
    assert.deepEqual(JSON.parse(gitSync(clone, ['show', `${commit}:package.json`])), { ...kept, version: VERSION });
  });

  it('npm run release refuses a bad version, a dirty work tree and an existing tag, and changes nothing', async () => {
    const release = (version: string) => run(process.execPath, ['scripts/release.mjs', version], clone);
    assert.deepEqual(await release('next'), { code: 2, stdout: '', stderr: 'release: usage: npm run release -- <version>, e.g. 0.2.0 (found "next")\n' });
    writeFileSync(join(clone, 'notes.txt'), 'draft\n');
    assert.deepEqual(await release('9.9.9'), { code: 1, stdout: '', stderr: 'release: the working tree has changes (git status): commit or stash them first\n' });
    rmSync(join(clone, 'notes.txt'));
    assert.deepEqual(await release(VERSION), { code: 1, stdout: '', stderr: `release: the tag ${TAG} already exists\n` });
    assert.equal(gitSync(clone, ['tag', '--list']), `${TAG}\n`);
    assert.deepEqual(repoState(clone), stateBefore);
  });

  it('npm pack of a release tag ships bin, dist without source maps, schemas, packs, the UI files, the word vectors, LICENSE and README, and nothing else', async (t) => {
    const checkout = join(tempDir(t), 'lore');
    gitSync(base, ['-c', 'advice.detachedHead=false', 'clone', '-q', '--branch', TAG, clone, checkout]);
    const packed = await run('npm', ['pack', '--json', '--pack-destination', base], checkout);
    assert.equal(packed.code, 0, packed.stderr);
    const [pack] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    assert.equal(pack!.filename, `lore-knowledge-${VERSION}.tgz`);
    const tracked = lines(gitSync(checkout, ['ls-files', '--', 'schemas', 'packs', 'src/ui/static', 'data']));
    const expected = ['LICENSE', 'README.md', 'bin/lore.js', 'package.json', ...tracked, ...expectedDist(checkout, 'HEAD')];
    assert.deepEqual(pack!.files.map((file) => file.path).sort(), expected.sort());
  });

  // The three installs share nothing but the release and its tarball, made above: they run at once.
  describe('into a consumer repository', { concurrency: true }, () => {
    it('a consumer installs the tarball with no build, no dev dependencies and no warning from lore, and lore guards its commits', async (t) => {
      const dir = consumer(t);
      const installed = await npmInstall(t, dir, join(base, `lore-knowledge-${VERSION}.tgz`));
      assert.equal(installed.code, 0, installed.stderr);
      assert.deepEqual(lines(installed.stderr).filter((line) => !baseline.includes(line)), []);
      assert.equal(installed.npmRuns, 1, 'npm ran a nested npm (a build or a dev install)');
      assert.deepEqual(devOnlyPackages(dir), []);
      const lore = (args: string[]) => run(join(dir, 'node_modules', '.bin', 'lore'), args, dir);
      assert.deepEqual(await lore(['--version']), { code: 0, stdout: `${VERSION}\n`, stderr: '' });
      assert.equal((await lore(['init'])).code, 0);
      const added = await lore(['add', 'prohibition', '--title', 'Never commit forbidden.txt', '--description', 'A test rule.', '--glob', '**/forbidden.txt', '--priority', 'critical']);
      assert.deepEqual(added, { code: 0, stdout: 'added pro-never-commit-forbidden-txt (.knowledge/knowledge/prohibitions/pro-never-commit-forbidden-txt.yaml)\n', stderr: '' });
      // The word vectors ship in the package: the query ranks by meaning too.
      const queried = await lore(['query', 'keep a banned file out of the repository', '--json']);
      assert.deepEqual([queried.code, (JSON.parse(queried.stdout) as { semantic: { model: string } }).semantic.model], [0, 'glove-6b-100d']);
      // So does the vector kernel, whole: the installed copy scans with it, not with the JavaScript loop.
      const scan = pathToFileURL(join(dir, 'node_modules', 'lore-knowledge', 'dist', 'knowledge', 'vector-scan.js')).href;
      const kernel = await run(process.execPath, ['--input-type=module', '-e', `const { VectorRows } = await import(${JSON.stringify(scan)}); console.log(new VectorRows(1, 4).kernel);`], dir);
      assert.deepEqual(kernel, { code: 0, stdout: 'true\n', stderr: '' });
      // Its exact output belongs to the hook-manager tests; the blocked commit below is the proof.
      assert.equal((await lore(['hook', 'install'])).code, 0);
      gitSync(dir, ['add', '-A']);
      assert.equal((await gitRun(dir, ['commit', '-q', '-m', 'lore'], testEnv())).code, 0);
      const head = gitSync(dir, ['rev-parse', 'HEAD']);
      writeFileSync(join(dir, 'forbidden.txt'), 'no\n');
      gitSync(dir, ['add', 'forbidden.txt']);
      const blocked = await gitRun(dir, ['commit', '-q', '-m', 'forbidden'], testEnv());
      assert.equal(blocked.code, 1);
      assert.match(blocked.stderr, /^BLOCKED pro-never-commit-forbidden-txt \[critical\] Never commit forbidden\.txt$/m);
      assert.equal(gitSync(dir, ['rev-parse', 'HEAD']), head);
    });

    it('a consumer installs a release tag from git with no build, no dev dependencies and no warning from lore', async (t) => {
      const dir = consumer(t);
      const installed = await npmInstall(t, dir, `git+file://${clone}#${TAG}`);
      assert.equal(installed.code, 0, installed.stderr);
      assert.deepEqual(lines(installed.stderr).filter((line) => !baseline.includes(line)), []);
      assert.doesNotMatch(installed.stdout, /husky|lore|tsc/);
      assert.equal(installed.npmRuns, 1, 'npm ran a nested npm (a build or a dev install)');
      assert.deepEqual(devOnlyPackages(dir), []);
      assert.deepEqual(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).devDependencies, { 'lore-knowledge': `git+file://${clone}#${TAG}` });
      assert.deepEqual(await run(join(dir, 'node_modules', '.bin', 'lore'), ['--version'], dir), { code: 0, stdout: `${VERSION}\n`, stderr: '' });
      assert.equal((await run(join(dir, 'node_modules', '.bin', 'lore'), ['init'], dir)).code, 0);
    });

    it('the pre-commit framework installs the hook from a release tag; it blocks a forbidden commit and passes a harmless one', async (t) => {
      requirePreCommit();
      const dir = consumer(t);
      const env = npmEnv({ PRE_COMMIT_HOME: tempDir(t, 'lore-pre-commit-home-') });
      execFileSync(process.execPath, [LORE_BIN, 'init'], { cwd: dir, env, stdio: 'ignore' });
      execFileSync(process.execPath, [LORE_BIN, 'add', 'prohibition', '--title', 'Never commit forbidden.txt', '--description', 'A test rule.', '--glob', '**/forbidden.txt', '--priority', 'critical'], { cwd: dir, env, stdio: 'ignore' });
      writeFileSync(join(dir, '.pre-commit-config.yaml'), `repos:\n  - repo: ${clone}\n    rev: ${TAG}\n    hooks:\n      - id: lore\n`);
      gitSync(dir, ['add', '-A']);
      gitSync(dir, ['commit', '-q', '-m', 'lore']);
      assert.deepEqual(await run('pre-commit', ['install'], dir, env), { code: 0, stdout: 'pre-commit installed at .git/hooks/pre-commit\n', stderr: '' });
      const head = gitSync(dir, ['rev-parse', 'HEAD']);
      writeFileSync(join(dir, 'forbidden.txt'), 'no\n');
      gitSync(dir, ['add', 'forbidden.txt']);
      const blocked = await gitRun(dir, ['commit', '-q', '-m', 'forbidden'], env);
      assert.equal(blocked.code, 1, blocked.stdout + blocked.stderr);
      assert.match(blocked.stdout + blocked.stderr, /^lore commit guard\.+Failed$/m);
      assert.match(blocked.stdout + blocked.stderr, /^BLOCKED pro-never-commit-forbidden-txt \[critical\] Never commit forbidden\.txt$/m);
      assert.equal(gitSync(dir, ['rev-parse', 'HEAD']), head);
      gitSync(dir, ['rm', '-q', '--cached', 'forbidden.txt']);
      writeFileSync(join(dir, 'notes.txt'), 'fine\n');
      gitSync(dir, ['add', 'notes.txt']);
      const passed = await gitRun(dir, ['commit', '-q', '-m', 'notes'], env);
      assert.equal(passed.code, 0, passed.stdout + passed.stderr);
      assert.match(passed.stdout + passed.stderr, /^lore commit guard\.+Passed$/m);
    });
  });
});

/** Fails (never skips) when the pre-commit tool is missing: .ci/run installs it. */
function requirePreCommit(): void {
  try {
    execFileSync('pre-commit', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('pre-commit is not installed: apt-get install pre-commit');
  }
}

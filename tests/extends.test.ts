// Org-wide knowledge through git: config.yaml's extends, lore sync and extends.lock, and every reader
// of the store (list, show, query, the hook, CI's range check, lore diff, validate) using the pinned
// sources offline. The organisation's source is a real bare repository on disk.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { inProcess, lore } from './helpers/cli.js';
import { envWithLore, gitRun, prohibition, prohibitionPath } from './helpers/guard.js';
import { entry, entryFiles } from './helpers/knowledge.js';
import { gitRepo, gitSync, tempDir, testEnv, writeFiles } from './helpers/temp.js';

const EVAL = prohibition('pro-no-eval', { priority: 'critical', title: 'Never use eval', content: ['\\beval\\('] });
const CONFIG = '# our settings\nversion: 1\nproject: app # this repository\n';

/** The organisation's knowledge as a bare repository: its .knowledge/ holds a critical prohibition and a recommendation. */
function orgSource(t: TestContext): { bare: string; work: string; head: () => string } {
  const work = gitRepo(t, {
    '.knowledge/config.yaml': 'version: 1\n',
    [prohibitionPath('pro-no-eval')]: EVAL,
    ...entryFiles([entry({ id: 'rec-small-prs', title: 'Prefer small PRs', description: 'Small pull requests get reviewed.' })]),
  });
  const bare = join(tempDir(t, 'lore-org-'), 'knowledge.git');
  gitSync(work, ['clone', '-q', '--bare', work, bare]);
  gitSync(work, ['remote', 'add', 'origin', bare]);
  return { bare, work, head: () => gitSync(bare, ['rev-parse', 'HEAD']).trim() };
}

/** The application repository: lore initialised (no starter pack), hook installed, committed. */
async function app(t: TestContext): Promise<{ repo: string; env: NodeJS.ProcessEnv }> {
  const repo = gitRepo(t, { '.knowledge/config.yaml': CONFIG, '.knowledge/.gitignore': '.cache/\n', 'README.md': 'app\n' });
  const env = envWithLore(t);
  assert.equal((await lore(['hook', 'install'], { cwd: repo, env })).code, 0);
  return { repo, env };
}

const run = (repo: string, args: string[], env?: NodeJS.ProcessEnv) => lore(args, { cwd: repo, ...(env === undefined ? {} : { env }) });

/** Extends `repo` with the organisation's source as org, syncs, and commits both files through the hook (which must pass). */
async function extendAndCommit(repo: string, org: { bare: string }, env: NodeJS.ProcessEnv): Promise<void> {
  await run(repo, ['extends', 'add', org.bare, '--name', 'org']);
  await run(repo, ['sync']);
  gitSync(repo, ['add', '-A']);
  const committed = await gitRun(repo, ['commit', '-q', '-m', 'extend org'], env);
  assert.equal(committed.code, 0, committed.stderr);
}

describe('extends: org-wide knowledge through git', () => {
  it('adds a source to config.yaml as written, pins it with lore sync, and keeps the pin until --update', async (t) => {
    const org = orgSource(t);
    const { repo } = await app(t);
    const added = await run(repo, ['extends', 'add', org.bare, '--ref', 'main']);
    assert.deepEqual([added.code, added.stdout, added.stderr], [0, `added knowledge: main of ${org.bare}, folder .knowledge\nnext: run lore sync to fetch it and pin it in .knowledge/extends.lock, then commit both files\n`, '']);
    assert.equal(readFileSync(join(repo, '.knowledge/config.yaml'), 'utf8'), `${CONFIG}extends:\n  - name: knowledge\n    url: ${org.bare}\n    ref: main\n`);
    assert.equal((await run(repo, ['extends', 'list'])).stdout, `knowledge  main of ${org.bare}  folder .knowledge  not pinned: lore sync\n`);

    const first = org.head();
    const synced = await run(repo, ['sync']);
    assert.deepEqual([synced.code, synced.stdout], [0, `pinned knowledge at ${first.slice(0, 12)}\nwrote .knowledge/extends.lock: commit it\n`]);
    const lock = { version: 1, sources: [{ name: 'knowledge', url: org.bare, ref: 'main', path: '.knowledge', commit: first }] };
    assert.equal(readFileSync(join(repo, '.knowledge/extends.lock'), 'utf8'), `${JSON.stringify(lock, null, 2)}\n`);
    assert.equal((await run(repo, ['extends', 'list'])).stdout, `knowledge  main of ${org.bare}  folder .knowledge  ${first.slice(0, 12)}\n`);

    // The organisation moves on: a plain sync keeps the pin, --update moves it.
    writeFiles(org.work, entryFiles([entry({ id: 'rec-tests-first', title: 'Tests first', description: 'Write the test first.' })]));
    gitSync(org.work, ['add', '-A']);
    gitSync(org.work, ['commit', '-q', '-m', 'more']);
    gitSync(org.work, ['push', '-q', 'origin', 'main']);
    assert.equal((await run(repo, ['sync'])).stdout, `kept knowledge at ${first.slice(0, 12)}\n.knowledge/extends.lock is up to date\n`);
    const moved = await run(repo, ['sync', '--update']);
    assert.equal(moved.stdout, `moved knowledge from ${first.slice(0, 12)} to ${org.head().slice(0, 12)}\nwrote .knowledge/extends.lock: commit it\n`);

    // Removing the last source and syncing removes the lock.
    assert.equal((await run(repo, ['extends', 'rm', 'knowledge'])).code, 0);
    assert.equal(readFileSync(join(repo, '.knowledge/config.yaml'), 'utf8'), CONFIG);
    assert.equal((await run(repo, ['sync'])).stdout, 'removed .knowledge/extends.lock (no source left): commit that\n');
  });

  it("lists, shows and ranks a source's entries, labelled with the source; the store's own entry of the same id wins", async (t) => {
    const org = orgSource(t);
    const { repo } = await app(t);
    await run(repo, ['extends', 'add', org.bare, '--name', 'org']);
    await run(repo, ['sync']);
    assert.equal((await run(repo, ['list', 'entries'])).stdout, 'prohibition     pro-no-eval    [critical] Never use eval\nrecommendation  rec-small-prs  [medium] Prefer small PRs\n');
    const shown = await run(repo, ['show', 'rec-small-prs']);
    assert.match(shown.stdout, /^# extends:org\/\.knowledge\/knowledge\/recommendations\/rec-small-prs\.yaml\nid: rec-small-prs\n/);
    const query = await run(repo, ['query', 'small pull requests', '--json']);
    assert.deepEqual((JSON.parse(query.stdout) as { recommendations: Array<{ id: string; from?: string }> }).recommendations.map((r) => [r.id, r.from]), [['rec-small-prs', 'org']]);
    assert.match((await run(repo, ['query', 'small pull requests'])).stdout, /\n {2}[0-9.]+ {2}rec-small-prs {2}\[medium\] Prefer small PRs \(from org\)\n/);
    assert.match((await run(repo, ['prime'])).stdout, /\n- \*\*pro-no-eval\*\* Never use eval: Do not\. \(from org\)\n/);
    const refused = await run(repo, ['disable', 'rec-small-prs']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /^error: rec-small-prs comes from an extends source \(extends:org\/\.knowledge\/knowledge\/recommendations\/rec-small-prs\.yaml\), not from this store\n/);
    // A local entry of the same id replaces the source's.
    writeFiles(repo, entryFiles([entry({ id: 'rec-small-prs', title: 'Our own take', description: 'Ours.' })]));
    assert.equal((await run(repo, ['list', 'recommendations'])).stdout, 'recommendation  rec-small-prs  [medium] Our own take\n');
  });

  it("blocks a commit against a source's critical prohibition, even one disabled locally; an allowlist record lets it through", async (t) => {
    const org = orgSource(t);
    const { repo, env } = await app(t);
    await extendAndCommit(repo, org, env);

    writeFiles(repo, { 'a.js': 'const x = eval("1");\n' });
    gitSync(repo, ['add', 'a.js']);
    const blocked = await gitRun(repo, ['commit', '-q', '-m', 'eval'], env);
    assert.equal(blocked.code, 1);
    assert.match(blocked.stderr, /\nBLOCKED pro-no-eval \[critical\] Never use eval \(from org\)\n {2}a\.js:1:11: matched "eval\(" /);

    // Disabled locally (the same id, committed): the source's critical version still binds the guard.
    gitSync(repo, ['reset', '-q']);
    writeFiles(repo, { [prohibitionPath('pro-no-eval')]: prohibition('pro-no-eval', { priority: 'critical', title: 'Never use eval', content: ['\\beval\\('], enabled: false }) });
    gitSync(repo, ['add', '.knowledge']);
    assert.equal((await gitRun(repo, ['commit', '-q', '-m', 'disable locally'], env)).code, 0);
    // The knowledge base shows the version the guard applies: the source's.
    const listed = JSON.parse((await run(repo, ['list', 'prohibitions', '--json'])).stdout) as Array<{ id: string; file: string; value: { enabled: boolean } }>;
    assert.deepEqual(listed.map((r) => [r.id, r.file, r.value.enabled]), [['pro-no-eval', 'extends:org/.knowledge/knowledge/prohibitions/pro-no-eval.yaml', true]]);
    gitSync(repo, ['add', 'a.js']);
    assert.equal((await gitRun(repo, ['commit', '-q', '-m', 'eval'], env)).code, 1);

    // An allowlist record, committed first, applies.
    gitSync(repo, ['reset', '-q']);
    writeFiles(repo, { '.knowledge/allow/allow-sandbox-eval.yaml': 'id: allow-sandbox-eval\nentry: pro-no-eval\npaths: [a.js]\nreason: the sandboxed evaluator\nauthor: Test Author\n' });
    gitSync(repo, ['add', '.knowledge']);
    const allow = await gitRun(repo, ['commit', '-q', '-m', 'allow'], env);
    assert.equal(allow.code, 0, allow.stderr);
    gitSync(repo, ['add', 'a.js']);
    const allowed = await gitRun(repo, ['commit', '-q', '-m', 'eval'], env);
    assert.equal(allowed.code, 0, allowed.stderr);
  });

  it('refuses to guard without the pinned sources: not fetched, or a config the lock does not match', async (t) => {
    const org = orgSource(t);
    const { repo, env } = await app(t);
    await extendAndCommit(repo, org, env);
    const pin = org.head().slice(0, 12);

    rmSync(join(repo, '.git/lore'), { recursive: true });
    rmSync(join(repo, '.knowledge/.cache'), { recursive: true });
    writeFiles(repo, { 'b.txt': 'fine\n' });
    gitSync(repo, ['add', 'b.txt']);
    const unfetched = await gitRun(repo, ['commit', '-q', '-m', 'b'], env);
    assert.equal(unfetched.code, 1);
    assert.match(unfetched.stderr, new RegExp(`\\.knowledge/extends\\.lock: error: the pinned commit of org \\(${pin}\\) is not fetched in this clone: run lore sync\\n`));
    assert.match((await run(repo, ['validate'])).stdout, new RegExp(`\\.knowledge/extends\\.lock: warning: the pinned commit of org \\(${pin}\\) is not fetched in this clone: run lore sync\\n`));
    await run(repo, ['sync']);

    // A second source in config.yaml, staged without lore sync: the change is blocked.
    await run(repo, ['extends', 'add', org.bare, '--name', 'again']);
    gitSync(repo, ['add', '-A']);
    const unsynced = await gitRun(repo, ['commit', '-q', '-m', 'again'], env);
    assert.equal(unsynced.code, 1);
    assert.match(unsynced.stderr, /\.knowledge\/extends\.lock: error: source again is not pinned: run lore sync and commit \.knowledge\/extends\.lock/);
    const validate = await run(repo, ['validate']);
    assert.equal(validate.code, 1);
  });

  it("checks a range in a fresh clone only after lore sync, and lore diff reports a pin move with the source's changes", async (t) => {
    const org = orgSource(t);
    const { repo, env } = await app(t);
    await extendAndCommit(repo, org, env);
    gitSync(repo, ['checkout', '-q', '-b', 'feature']);
    writeFiles(repo, { 'a.js': 'eval("1");\n' });
    gitSync(repo, ['add', 'a.js']);
    gitSync(repo, ['commit', '-q', '--no-verify', '-m', 'eval']);

    const clone = join(tempDir(t, 'lore-clone-'), 'app');
    gitSync(repo, ['clone', '-q', '--no-local', repo, clone]);
    gitSync(clone, ['branch', '-q', 'main', 'origin/main']);
    const before = await run(clone, ['check', '--range', 'main...feature'], env);
    assert.equal(before.code, 2);
    assert.match(before.stderr, /the pinned commit of org \([0-9a-f]{12}\) is not fetched in this clone: run lore sync/);
    assert.equal((await run(clone, ['sync'], env)).code, 0);
    const after = await run(clone, ['check', '--range', 'main...feature'], env);
    assert.equal(after.code, 1);
    assert.match(after.stdout + after.stderr, /BLOCKED pro-no-eval \[critical\] Never use eval/);

    // The organisation raises a recommendation to high and adds a prohibition; the pin moves.
    const old = org.head();
    writeFiles(org.work, {
      ...entryFiles([entry({ id: 'rec-small-prs', title: 'Prefer small PRs', description: 'Small pull requests get reviewed.', priority: 'high' })]),
      [prohibitionPath('pro-no-console')]: prohibition('pro-no-console', { priority: 'high', title: 'No console.log', content: ['console\\.log'] }),
    });
    gitSync(org.work, ['add', '-A']);
    gitSync(org.work, ['commit', '-q', '-m', 'more']);
    gitSync(org.work, ['push', '-q', 'origin', 'main']);
    await run(repo, ['sync', '--update']);
    gitSync(repo, ['add', '.knowledge/extends.lock']);
    gitSync(repo, ['commit', '-q', '--no-verify', '-m', 'move the pin']);
    const diff = await run(repo, ['diff', 'HEAD~1...HEAD']);
    assert.equal(diff.stdout, [
      '## lore diff HEAD~1...HEAD', '', '### Extends sources', '',
      `- \`org\`: pin moved (${old.slice(0, 12)} → ${org.head().slice(0, 12)}); its changes are below, marked "from org"`, '',
      '### Recommendations', '', '- changed `rec-small-prs` Prefer small PRs (from org): priority changed from medium to high', '',
      '### Prohibitions', '', '- ⬆️ added `pro-no-console` No console.log (from org)', '',
    ].join('\n'));
  });

  it("keeps the fetched sources inside git's folder, where no clone can bring hooks or replaced objects", async (t) => {
    const org = orgSource(t);
    const { repo, env } = await app(t);
    await extendAndCommit(repo, org, env);
    assert.equal(existsSync(join(repo, '.git/lore/extends/org.git/HEAD')), true);
    assert.deepEqual(readdirSync(join(repo, '.git/lore/extends/org.git')).filter((f) => f === 'hooks'), []);
    assert.equal(existsSync(join(repo, '.knowledge/.cache/extends')), false);
    // A replace ref that swaps the pinned commit for one without the rule is not honoured.
    const bare = join(repo, '.git/lore/extends/org.git');
    const pin = org.head();
    // The empty tree, which every git repository knows.
    const empty = gitSync(bare, ['commit-tree', '4b825dc642cb6eb9a060e54bf8d69288fbee4904', '-m', 'nothing'], testEnv()).trim();
    gitSync(bare, ['replace', pin, empty]);
    rmSync(join(repo, '.knowledge/.cache'), { recursive: true, force: true });
    writeFiles(repo, { 'a.js': 'eval("1");\n' });
    gitSync(repo, ['add', 'a.js']);
    const blocked = await gitRun(repo, ['commit', '-q', '-m', 'eval'], env);
    assert.equal(blocked.code, 1);
    assert.match(blocked.stderr, /BLOCKED pro-no-eval \[critical\] Never use eval \(from org\)/);
  });

  it("applies a source's rules before .knowledge/ is first committed, and refuses two sources of one name", async (t) => {
    const org = orgSource(t);
    const repo = gitRepo(t, { 'README.md': 'app\n' });
    const env = envWithLore(t);
    assert.equal((await lore(['init', '--no-starter'], { cwd: repo })).code, 0);
    assert.equal((await lore(['hook', 'install'], { cwd: repo, env })).code, 0);
    await run(repo, ['extends', 'add', org.bare, '--name', 'org']);
    await run(repo, ['sync']);
    writeFiles(repo, { 'a.js': 'eval("1");\n' });
    gitSync(repo, ['add', 'a.js']);
    const blocked = await gitRun(repo, ['commit', '-q', '-m', 'eval'], env);
    assert.equal(blocked.code, 1);
    assert.match(blocked.stderr, /BLOCKED pro-no-eval \[critical\] Never use eval \(from org\)/);
    writeFiles(repo, { '.knowledge/config.yaml': `${readFileSync(join(repo, '.knowledge/config.yaml'), 'utf8')}  - name: org\n    url: ${org.bare}\n` });
    const validate = await run(repo, ['validate']);
    assert.equal(validate.code, 1);
    assert.match(validate.stdout, /\.knowledge\/config\.yaml: error: names the source org more than once: each source needs a name of its own/);
  });

  it('refuses what it cannot fetch or read, and writes no lock then', async (t) => {
    const org = orgSource(t);
    const { repo } = await app(t);
    await run(repo, ['extends', 'add', org.bare, '--name', 'org', '--ref', 'no-such-branch']);
    const fetch = await run(repo, ['sync']);
    assert.equal(fetch.code, 2);
    assert.match(fetch.stderr, new RegExp(`^error: could not fetch no-such-branch of source org from ${org.bare.replace(/[.]/g, '\\.')}: `));
    await run(repo, ['extends', 'rm', 'org']);
    await run(repo, ['extends', 'add', org.bare, '--name', 'org', '--path', 'teams/web']);
    const path = await run(repo, ['sync']);
    assert.equal(path.code, 2);
    assert.match(path.stderr, /^error: source org has no folder teams\/web at [0-9a-f]{12} \(HEAD of /);
    assert.equal(readFileSync(join(repo, '.knowledge/config.yaml'), 'utf8').includes('teams/web'), true);
    assert.throws(() => readFileSync(join(repo, '.knowledge/extends.lock')));
    // A remote helper runs a command: never fetched.
    await run(repo, ['extends', 'rm', 'org']);
    await run(repo, ['extends', 'add', 'ext::sh -c touch% /tmp/lore-pwned', '--name', 'evil']);
    const evil = await run(repo, ['sync']);
    assert.equal(evil.code, 2);
    assert.match(evil.stderr, /^error: source evil: ext::sh -c touch% \/tmp\/lore-pwned is not a git URL lore fetches/);
    // An option posing as a url, and a path that climbs out, are not sources.
    assert.match((await run(repo, ['extends', 'add', '--', '--upload-pack=touch x'])).stderr, /the source would make \.knowledge\/config\.yaml invalid/);
    assert.match((await run(repo, ['extends', 'add', org.bare, '--name', 'up', '--path', '../outside'])).stderr, /the source would make \.knowledge\/config\.yaml invalid/);
  });
});

describe('the folder of the fetched sources', () => {
  it('is asked of git again after git could not say it (a long-lived process is not stuck with the failure)', async (t) => {
    const { sourceRepo } = await import('../src/extends/sources.js');
    const dir = tempDir(t);
    const env = testEnv({ GIT_CEILING_DIRECTORIES: dir });
    await assert.rejects(sourceRepo(dir, 'org', env), /not a git repository/);
    gitSync(dir, ['init', '-q']);
    assert.equal(await sourceRepo(dir, 'org', env), join(dir, '.git', 'lore', 'extends', 'org.git'));
  });
});

describe('extends in a process whose own environment is not the command\'s (as in lore serve or a library)', () => {
  it('runs git with the command\'s environment: sync, extends list, validate and the entries', async (t) => {
    const org = orgSource(t);
    const { repo } = await app(t);
    assert.equal((await run(repo, ['extends', 'add', org.bare, '--name', 'org'])).code, 0);
    // This process's own PATH has no git: only the command's environment may be used.
    const env = testEnv();
    const head = org.head().slice(0, 12);
    const saved = process.env.PATH;
    process.env.PATH = join(tempDir(t), 'no-git-here');
    try {
      const here = (args: string[]) => inProcess.lore(args, { cwd: repo, env });
      const synced = await here(['sync']);
      assert.deepEqual([synced.code, synced.stderr], [0, '']);
      assert.equal(synced.stdout, `pinned org at ${head}\nwrote .knowledge/extends.lock: commit it\n`);
      assert.equal((await here(['extends', 'list'])).stdout, `org  HEAD of ${org.bare}  folder .knowledge  ${head}\n`);
      // The fixture's .gitignore is the one warning; a pin git could not find would be another.
      const gitignore = '.knowledge/.gitignore: warning: does not ignore *.tmp, *.stale, .write.lock, *.ndjson.lock, *.lock.break-*, .journal.json, so git add -A would commit what a crash leaves behind (lore doctor --fix)\n';
      assert.deepEqual(await here(['validate']), { code: 0, stdout: `${gitignore}checked 0 record files and 0 logs: 0 errors, 1 warning\n`, stderr: '' });
      assert.equal((await here(['list', 'entries'])).stdout, 'prohibition     pro-no-eval    [critical] Never use eval\nrecommendation  rec-small-prs  [medium] Prefer small PRs\n');
    } finally {
      process.env.PATH = saved;
    }
  });
});

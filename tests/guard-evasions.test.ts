// Ways to get a change past the commit guard that once worked, each tried against a real `git
// commit` with the hook installed and, after `--no-verify`, against `lore check --range` in CI.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { describe, it } from 'node:test';
import { checksum } from '../src/fs/checksum.js';
import { lore, loreJson } from './helpers/cli.js';
import { envWithLore, guardRepo, prohibition, prohibitionPath } from './helpers/guard.js';
import { gitSync, tempDir, testEnv, writeFiles } from './helpers/temp.js';
import { checkStaged } from '../src/guard/check.js';
import { TRACKED_CACHE_NOTE } from '../src/guard/_evaluate.js';
import { prestartStagedChange } from '../src/guard/staged-change.js';

// Built at run time, so this repository's own guard never sees an AWS key id in its source.
const AWS_KEY = ['AKIA', 'IOSFODNN7', 'EXAMPLE'].join('');
const RULES = {
  [prohibitionPath('pro-aws-key')]: prohibition('pro-aws-key', { content: ['AKIA[0-9A-Z]{16}'], secret: true }),
  [prohibitionPath('pro-env')]: prohibition('pro-env', { globs: ['**/.env'] }),
};

interface Finding {
  entryId: string;
  path: string;
  line?: number;
  commit?: string;
}
interface Report {
  blocked: boolean;
  range?: { commits: string[] };
  scanned: { commits: number; files: number; lines: number };
  outcome: { active: Finding[] };
}

function gitRun(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env }, (error, _stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stderr }));
  });
}

/** A repository with the two rules committed on main, lore's hook installed, and a feature branch. */
async function setup(t: TestContext, files: Record<string, string> = {}): Promise<{ repo: string; env: NodeJS.ProcessEnv }> {
  const repo = guardRepo(t, { ...RULES, ...files });
  const env = envWithLore(t);
  const installed = await lore(['hook', 'install'], { cwd: repo, env });
  assert.equal(installed.code, 0, installed.stderr);
  gitSync(repo, ['checkout', '-q', '-b', 'feature']);
  return { repo, env };
}

/** `git commit` with the hook must fail, with lore's verdict; then the same commit made with --no-verify. */
async function refusedThenForced(repo: string, env: NodeJS.ProcessEnv, message = 'try'): Promise<string> {
  const attempt = await gitRun(repo, ['commit', '-q', '-m', message], env);
  assert.equal(attempt.code, 1, attempt.stderr);
  assert.match(attempt.stderr, /lore: blocked: /);
  gitSync(repo, ['commit', '-q', '--no-verify', '-m', message], env);
  return gitSync(repo, ['rev-parse', 'HEAD'], env).trim();
}

async function rangeFindings(repo: string, env?: NodeJS.ProcessEnv): Promise<{ code: number; json: Report }> {
  return loreJson<Report>(['check', '--range', 'main...feature'], { cwd: repo, ...(env === undefined ? {} : { env }) });
}

const summary = (findings: readonly Finding[]): Array<[string, string, number | undefined]> => findings.map((f) => [f.entryId, f.path, f.line]);

describe('the commit guard, against attempts to hide a change', () => {
  it('refuses a staged change whose index was written while the check ran (a git add during git commit)', async (t) => {
    const { repo } = await setup(t);
    writeFiles(repo, { 'ok.txt': 'clean\n', 'f.txt': `key ${AWS_KEY}\n` });
    gitSync(repo, ['add', 'ok.txt']);
    // As in a hook: git names the index it commits from, and the check starts reading at once.
    const env = testEnv({ GIT_INDEX_FILE: '.git/index' });
    void prestartStagedChange(repo, env);
    gitSync(repo, ['add', 'f.txt']);
    await assert.rejects(checkStaged({ cwd: repo, env }), {
      code: 'CONFLICT',
      message: 'the staged change changed while lore checked it (the index was written meanwhile: a git add, or another hook)',
      hint: 'run git commit again: lore checks the staged change as it is then',
    });
    // Checked again, the index as it is now: the key blocks.
    const again = await checkStaged({ cwd: repo, env });
    assert.deepEqual([again.blocked, summary(again.outcome.active)], [true, [['pro-aws-key', 'f.txt', 1]]]);
  });

  it('takes an index rewritten meanwhile with the same staged change (a git status refreshing stat data): no refusal', async (t) => {
    const { repo } = await setup(t);
    writeFiles(repo, { 'ok.txt': 'clean\n' });
    gitSync(repo, ['add', 'ok.txt']);
    const env = testEnv({ GIT_INDEX_FILE: '.git/index' });
    const before = readFileSync(join(repo, '.git/index'));
    void prestartStagedChange(repo, env);
    // A tracked file's times change and the index is refreshed (rewritten): nothing staged changes.
    const later = new Date(Date.now() + 5000);
    utimesSync(join(repo, 'README.md'), later, later);
    gitSync(repo, ['update-index', '--refresh'], env);
    assert.notDeepEqual(readFileSync(join(repo, '.git/index')), before, 'the index was rewritten');
    const report = await checkStaged({ cwd: repo, env });
    assert.deepEqual([report.blocked, summary(report.outcome.active)], [false, []]);
  });

  it('reads a file whatever .gitattributes says about it: binary, -diff, a diff driver with textconv', async (t) => {
    const { repo, env } = await setup(t);
    gitSync(repo, ['config', 'diff.hide.textconv', 'true']);
    writeFiles(repo, {
      '.gitattributes': 'a.txt binary\nb.txt -diff\nc.txt diff=hide\n',
      'a.txt': `key ${AWS_KEY}\n`, 'b.txt': `key ${AWS_KEY}\n`, 'c.txt': `key ${AWS_KEY}\n`,
    });
    gitSync(repo, ['add', '-A']);
    const commit = await refusedThenForced(repo, env);
    const { code, json } = await rangeFindings(repo);
    assert.equal(code, 1);
    assert.deepEqual(summary(json.outcome.active), [['pro-aws-key', 'a.txt', 1], ['pro-aws-key', 'b.txt', 1], ['pro-aws-key', 'c.txt', 1]]);
    assert.deepEqual(json.outcome.active.map((f) => f.commit), [commit, commit, commit]);
  });

  it('reads a file a NUL byte makes binary', async (t) => {
    const { repo, env } = await setup(t);
    writeFileSync(join(repo, 'data.bin'), Buffer.concat([Buffer.from([0, 0, 0x0a]), Buffer.from(`token ${AWS_KEY}\n`)]));
    gitSync(repo, ['add', '-A']);
    await refusedThenForced(repo, env);
    assert.deepEqual(summary((await rangeFindings(repo)).json.outcome.active), [['pro-aws-key', 'data.bin', 2]]);
  });

  it('scans a path that changes type: a symlink that becomes a file, and a file that becomes a symlink', async (t) => {
    const repo = guardRepo(t, RULES);
    symlinkSync('README.md', join(repo, 'config.txt'));
    symlinkSync('README.md', join(repo, '.env'));
    writeFiles(repo, { 'notes.txt': 'notes\n' });
    gitSync(repo, ['add', '-A']);
    gitSync(repo, ['commit', '-q', '-m', 'links']);
    const env = envWithLore(t);
    await lore(['hook', 'install'], { cwd: repo, env });
    gitSync(repo, ['checkout', '-q', '-b', 'feature']);
    unlinkSync(join(repo, 'config.txt'));
    unlinkSync(join(repo, '.env'));
    writeFiles(repo, { 'config.txt': `aws_access_key_id = ${AWS_KEY}\n`, '.env': 'SECRET=1\n' });
    gitSync(repo, ['add', '-A']);
    const first = await refusedThenForced(repo, env, 'links become files');
    // A file that becomes a symlink: the link's target is its content.
    unlinkSync(join(repo, 'notes.txt'));
    symlinkSync(`../${AWS_KEY}`, join(repo, 'notes.txt'));
    gitSync(repo, ['add', '-A']);
    const second = await refusedThenForced(repo, env, 'a file becomes a link');
    const { code, json } = await rangeFindings(repo);
    assert.equal(code, 1);
    assert.deepEqual(json.range!.commits, [first, second]);
    assert.equal(json.scanned.commits, 2);
    assert.deepEqual(json.outcome.active.map((f) => [f.entryId, f.path, f.commit]), [
      ['pro-env', '.env', first], ['pro-aws-key', 'config.txt', first], ['pro-aws-key', 'notes.txt', second],
    ]);
  });

  it('scans what a merge commit introduces that neither parent had, and counts the merge', async (t) => {
    const { repo, env } = await setup(t, { 'app.cfg': 'a=1\nb=2\n' });
    writeFiles(repo, { 'app.cfg': 'a=feature\nb=2\n' });
    gitSync(repo, ['commit', '-q', '-am', 'feature side'], env);
    gitSync(repo, ['checkout', '-q', 'main']);
    writeFiles(repo, { 'app.cfg': 'a=main\nb=2\n', 'other.txt': 'x\n' });
    gitSync(repo, ['add', 'app.cfg', 'other.txt']);
    gitSync(repo, ['commit', '-q', '-m', 'main side'], env);
    gitSync(repo, ['checkout', '-q', 'feature']);
    const merge = await gitRun(repo, ['merge', '-q', '--no-edit', 'main'], env);
    assert.notEqual(merge.code, 0, 'the merge conflicts');
    // The conflict is resolved with a key that neither side had.
    writeFiles(repo, { 'app.cfg': `a=resolved\nkey=${AWS_KEY}\nb=2\n` });
    gitSync(repo, ['add', 'app.cfg']);
    const mergeCommit = await refusedThenForced(repo, env, 'merge main');
    assert.equal(gitSync(repo, ['rev-list', '--parents', '-n1', 'HEAD']).trim().split(' ').length, 3);
    // CI compares with the main the branch started from, so main's own commit is in the range too.
    const base = gitSync(repo, ['merge-base', 'HEAD^1', 'HEAD^2']).trim();
    const { code, json } = await loreJson<Report>(['check', '--range', `${base}...feature`], { cwd: repo });
    assert.equal(code, 1);
    assert.equal(json.range!.commits.length, 3);
    assert.equal(json.scanned.commits, 3);
    assert.deepEqual(json.outcome.active.map((f) => [f.entryId, f.path, f.line, f.commit]), [['pro-aws-key', 'app.cfg', 2, mergeCommit]]);
    // The merge's other lines came from a parent: only the key and the resolved line are new.
    const text = await lore(['check', '--range', `${base}...feature`], { cwd: repo });
    assert.match(text.stdout, /^lore: scanned [0-9a-f]+\.\.\.feature \(3 commits from [0-9a-f]{12}\): 4 files, 5 added lines, /);
  });

  it('matches paths holding any byte but NUL: a newline, a tab, a quote, non-ASCII', async (t) => {
    const { repo, env } = await setup(t);
    writeFiles(repo, { 'odd\nname/.env': 'A=1\n', 'tab\there/"q"/ü.txt': `k ${AWS_KEY}\n` });
    gitSync(repo, ['add', '-A']);
    await refusedThenForced(repo, env);
    const { json } = await rangeFindings(repo);
    assert.deepEqual(summary(json.outcome.active), [['pro-env', 'odd\nname/.env', undefined], ['pro-aws-key', 'tab\there/"q"/ü.txt', 1]]);
  });

  it('reads the same change whatever the user has in their git config', async (t) => {
    const { repo } = await setup(t);
    const home = tempDir(t, 'lore-home-');
    const attributes = join(home, 'attributes');
    writeFileSync(attributes, '* binary\n');
    const config = join(home, 'gitconfig');
    writeFileSync(config, [
      '[diff]', '\tmnemonicPrefix = true', '\tnoprefix = true', '\texternal = true', '\trenames = copies', '\trelative = true', '\tcontext = 0', '\talgorithm = histogram',
      '[color]', '\tdiff = always', '\tui = always',
      '[core]', '\tquotePath = true', `\tattributesFile = ${attributes}`,
      '[i18n]', '\tlogOutputEncoding = ISO-8859-1', '\tcommitEncoding = ISO-8859-1',
      '[log]', '\tshowSignature = true', '\tdecorate = full',
      '',
    ].join('\n'));
    const env = envWithLore(t, { GIT_CONFIG_GLOBAL: config });
    writeFiles(repo, { 'sub/dir/é.txt': `key ${AWS_KEY}\n`, 'sub/.env': 'A=1\n' });
    gitSync(repo, ['add', '-A']);
    await refusedThenForced(repo, env);
    // Run from a subdirectory, where diff.relative would narrow a porcelain diff.
    const { code, json } = await loreJson<Report>(['check', '--range', 'main...feature'], { cwd: join(repo, 'sub', 'dir'), env });
    assert.equal(code, 1);
    assert.deepEqual(summary(json.outcome.active), [['pro-env', 'sub/.env', undefined], ['pro-aws-key', 'sub/dir/é.txt', 1]]);
  });

  it('reads what a commit records, whatever `git replace` says about the staged blob or about HEAD', async (t) => {
    const { repo, env } = await setup(t);
    // The staged blob replaced by a clean one: git shows the clean text for the key's blob id.
    writeFiles(repo, { 'key.txt': `key ${AWS_KEY}\n` });
    gitSync(repo, ['add', 'key.txt']);
    const secret = gitSync(repo, ['rev-parse', ':key.txt']).trim();
    const clean = gitSync(repo, ['hash-object', '-w', 'README.md']).trim();
    gitSync(repo, ['replace', secret, clean]);
    assert.equal(gitSync(repo, ['cat-file', 'blob', secret]), '# demo\n');
    await refusedThenForced(repo, env, 'replaced blob');
    // HEAD replaced by a commit that already holds the staged file: the index shows no change against it.
    writeFiles(repo, { 'other.txt': `other ${AWS_KEY}\n` });
    gitSync(repo, ['add', 'other.txt']);
    const holding = gitSync(repo, ['commit-tree', gitSync(repo, ['write-tree']).trim(), '-p', 'HEAD', '-m', 'holds it']).trim();
    const head = gitSync(repo, ['rev-parse', 'HEAD']).trim();
    gitSync(repo, ['replace', head, holding]);
    assert.equal(gitSync(repo, ['diff', '--cached', '--name-only']), '');
    const attempt = await gitRun(repo, ['commit', '-q', '--allow-empty', '-m', 'replaced HEAD'], env);
    assert.deepEqual([attempt.code, /^BLOCKED pro-aws-key .*\n  other\.txt:1:7: /m.test(attempt.stderr)], [1, true], attempt.stderr);
    // Git itself sees nothing to commit against the replaced HEAD: forced without the replacement.
    gitSync(repo, ['replace', '-d', head]);
    gitSync(repo, ['commit', '-q', '--no-verify', '-m', 'replaced HEAD'], env);
    const { code, json } = await rangeFindings(repo, env);
    assert.equal(code, 1);
    assert.deepEqual(summary(json.outcome.active), [['pro-aws-key', 'key.txt', 1], ['pro-aws-key', 'other.txt', 1]]);
  });

  it('checks the range the commits record, whatever a graft file says about their parents', async (t) => {
    const { repo, env } = await setup(t);
    writeFiles(repo, { 'key.txt': `key ${AWS_KEY}\n` });
    gitSync(repo, ['add', 'key.txt']);
    const keyed = await refusedThenForced(repo, env, 'the key');
    writeFiles(repo, { 'ok.txt': 'fine\n' });
    gitSync(repo, ['add', 'ok.txt']);
    gitSync(repo, ['commit', '-q', '-m', 'fine'], env);
    // main moves on; a graft gives its new tip the key's commit as a second parent: git then reads
    // the key as merged into main already, and main...feature as the last commit alone.
    const base = gitSync(repo, ['rev-parse', 'main']).trim();
    gitSync(repo, ['checkout', '-q', 'main']);
    writeFiles(repo, { 'main.txt': 'main\n' });
    gitSync(repo, ['add', 'main.txt']);
    gitSync(repo, ['commit', '-q', '--no-verify', '-m', 'main moves on'], env);
    gitSync(repo, ['checkout', '-q', 'feature']);
    writeFileSync(join(repo, '.git/info/grafts'), `${gitSync(repo, ['rev-parse', 'main']).trim()} ${base} ${keyed}\n`);
    assert.equal(gitSync(repo, ['-c', 'advice.graftFileDeprecated=false', 'rev-list', 'main..feature']).trim().split('\n').length, 1);
    const { code, json } = await rangeFindings(repo, env);
    assert.equal(code, 1);
    assert.deepEqual([json.range?.commits.length, summary(json.outcome.active)], [2, [['pro-aws-key', 'key.txt', 1]]]);
  });

  /**
   * The guard's caches, rewritten to say the key rule has no record and that no rule has a
   * matcher: the parse cache, and the rule snapshot with a checksum that matches its new body.
   */
  function poisonCache(repo: string): void {
    const path = join(repo, '.knowledge/.cache/git-records.json');
    const cache = JSON.parse(readFileSync(path, 'utf8')) as { entries: Record<string, unknown> };
    for (const key of Object.keys(cache.entries)) if (key.startsWith('prohibition:pro-env.yaml:')) cache.entries[key] = { problems: [] };
    writeFileSync(path, JSON.stringify(cache));
    const snapshotPath = join(repo, '.knowledge/.cache/guard-rules.json');
    const [head, sides, versions] = readFileSync(snapshotPath, 'utf8').split('\n') as [string, string, string];
    const snapshot = JSON.parse(sides) as { table: Record<'paths' | 'content', unknown> };
    const none = { rule: [], kind: '', text: [], literal: [], ignoreCase: [] };
    snapshot.table.paths = none;
    snapshot.table.content = none;
    const body = `${JSON.stringify(snapshot)}\n${versions}`;
    writeFileSync(snapshotPath, `${head.slice(0, head.indexOf(' '))} ${checksum(Buffer.from(body))}\n${body}`);
  }

  it('does not take its parse cache from the repository: a committed one hides no rule and is refused', async (t) => {
    const { repo, env } = await setup(t);
    await lore(['check'], { cwd: repo, env });
    poisonCache(repo);
    writeFiles(repo, { 'config.txt': `key ${AWS_KEY}\n`, '.env': 'A=1\n' });
    gitSync(repo, ['add', '-A']);
    gitSync(repo, ['add', '-f', '.knowledge/.cache/git-records.json', '.knowledge/.cache/guard-rules.json']);
    const commit = await refusedThenForced(repo, env, 'a cache that came with the change');
    // CI checks out the branch, cache and all.
    const { code, json } = await loreJson<Report & { invalid: Array<{ file: string; message: string }> }>(['check', '--range', 'main...feature'], { cwd: repo });
    assert.equal(code, 1);
    assert.deepEqual(summary(json.outcome.active), [['pro-env', '.env', undefined], ['pro-aws-key', 'config.txt', 1]]);
    const refusal = "is lore's local cache (.knowledge/.cache/), which each clone rebuilds and git must not track: a committed one would decide what the commit guard reads (git rm --cached -r -- .knowledge/.cache)";
    assert.deepEqual(json.invalid.map((p) => [p.file, p.message]), ['git-records.json', 'guard-rules.json'].map((name) => [`${commit.slice(0, 12)}:.knowledge/.cache/${name}`, refusal]));
  });

  it('does not use a parse cache that git already tracks, in the hook and in CI', async (t) => {
    const repo = guardRepo(t, RULES);
    const env = envWithLore(t);
    await lore(['check'], { cwd: repo, env });
    poisonCache(repo);
    gitSync(repo, ['add', '-f', '.knowledge/.cache/git-records.json', '.knowledge/.cache/guard-rules.json']);
    gitSync(repo, ['commit', '-q', '--no-verify', '-m', 'the cache, tracked']);
    await lore(['hook', 'install'], { cwd: repo, env });
    gitSync(repo, ['checkout', '-q', '-b', 'feature']);
    poisonCache(repo);
    writeFiles(repo, { 'config.txt': `key ${AWS_KEY}\n`, '.env': 'A=1\n' });
    gitSync(repo, ['add', 'config.txt', '.env']);
    // The hook says why it reads everything afresh, and what to do.
    const hook = await lore(['hook', 'pre-commit'], { cwd: repo, env });
    assert.equal(hook.code, 1, hook.stderr);
    assert.ok(hook.stderr.includes(`lore: note: ${TRACKED_CACHE_NOTE}\n`), hook.stderr);
    await refusedThenForced(repo, env);
    poisonCache(repo);
    const { code, json } = await rangeFindings(repo);
    assert.equal(code, 1);
    assert.deepEqual(summary(json.outcome.active), [['pro-env', '.env', undefined], ['pro-aws-key', 'config.txt', 1]]);
    // The commit that follows the note's advice is not told it again.
    gitSync(repo, ['rm', '-r', '-q', '--cached', '.knowledge/.cache']);
    writeFiles(repo, { 'notes.txt': 'the cache is out of git\n' });
    gitSync(repo, ['add', 'notes.txt']);
    const untracking = await lore(['hook', 'pre-commit'], { cwd: repo, env });
    assert.equal(untracking.code, 0, untracking.stderr);
    assert.ok(!untracking.stderr.includes(TRACKED_CACHE_NOTE), untracking.stderr);
  });

  it("keeps the committed project's prohibitions when the change renames the project in config.yaml", async (t) => {
    const { repo, env } = await setup(t, { [prohibitionPath('pro-demo-token')]: prohibition('pro-demo-token', { scope: 'project', projectId: 'demo', content: ['DEMO_TOKEN_[0-9]{6}'] }) });
    writeFiles(repo, { '.knowledge/config.yaml': 'version: 1\nproject: elsewhere\n', 'app.env.txt': 'DEMO_TOKEN_123456\n' });
    gitSync(repo, ['add', '-A']);
    await refusedThenForced(repo, env);
    const { code, json } = await rangeFindings(repo);
    assert.equal(code, 1);
    assert.deepEqual(summary(json.outcome.active), [['pro-demo-token', 'app.env.txt', 1]]);
  });

  it('says a file is too large to scan instead of passing it', async (t) => {
    const { repo } = await setup(t);
    writeFileSync(join(repo, 'huge.bin'), Buffer.alloc(64 * 1024 * 1024 + 1, 0x61));
    gitSync(repo, ['add', '-A']);
    const result = await lore(['hook', 'pre-commit'], { cwd: repo });
    assert.equal(result.code, 2);
    assert.equal(result.stderr, 'error: the commit guard cannot scan a file over 64.0 MiB: huge.bin (64.0 MiB)\nhint: the guard never passes a file it has not read; keep large files out of git (Git LFS), or skip the hook visibly with LORE_SKIP=1\n');
  });

  it('says a change has too many lines to scan instead of running out of memory: 9 million short lines, the heap capped at 512 MB', async (t) => {
    const { repo } = await setup(t);
    const lines = Buffer.from('a\n'.repeat(3_000_000));
    for (const name of ['one.txt', 'two.txt', 'three.txt']) writeFileSync(join(repo, name), lines);
    gitSync(repo, ['add', '-A']);
    const result = await lore(['hook', 'pre-commit'], { cwd: repo, env: testEnv({ NODE_OPTIONS: '--max-old-space-size=512' }) });
    assert.equal(result.code, 2, result.stderr.slice(0, 500));
    assert.equal(result.stderr, 'error: the commit guard holds at most 8,000,000 added lines at once, and this change adds more (two.txt among them)\nhint: the guard never passes what it has not read; keep large data files out of git (Git LFS), or commit them apart (in a hook, LORE_SKIP=1 skips the check visibly)\n');
  });

  it('says a change holds too much text to scan instead of running out of memory: ten files of 60 MB in long lines', async (t) => {
    const { repo } = await setup(t);
    const text = Buffer.from(`${'x'.repeat(9999)}\n`.repeat(6000));
    for (let i = 0; i < 10; i++) writeFileSync(join(repo, `big${i}.txt`), Buffer.concat([Buffer.from(`file ${i}\n`), text]));
    gitSync(repo, ['add', '-A']);
    const result = await lore(['hook', 'pre-commit'], { cwd: repo, env: testEnv({ NODE_OPTIONS: '--max-old-space-size=1536' }) });
    assert.equal(result.code, 2, result.stderr.slice(0, 500));
    assert.match(result.stderr, /^error: the commit guard holds at most 512 MiB of changed files at once, and this change has more \(big\d\.txt among them\)\n/);
  });

  it('refuses a FIFO named to lore check --files at once, never waiting for a writer', async (t) => {
    const { repo } = await setup(t);
    execFileSync('mkfifo', [join(repo, 'fifo')]);
    const result = await lore(['check', '--files', 'fifo'], { cwd: repo });
    assert.deepEqual([result.code, result.stderr], [2, 'error: fifo is not a regular file\n']);
    // Named as a baseline, too.
    const baseline = await lore(['check', '--staged', '--baseline', 'fifo'], { cwd: repo });
    assert.deepEqual([baseline.code, baseline.stderr], [2, `error: ${join(repo, 'fifo')} is not a regular file\n`]);
  });

  it('counts what a range adds, not its files\' lines: a 200,000-line file changed by 45 commits is scanned', async (t) => {
    const { repo } = await setup(t);
    const lines = Array.from({ length: 200_000 }, (_, i) => `line ${i}`);
    writeFileSync(join(repo, 'lock.txt'), `${lines.join('\n')}\n`);
    gitSync(repo, ['add', '-A']);
    gitSync(repo, ['commit', '-q', '--no-verify', '-m', 'lock']);
    for (let k = 0; k < 45; k++) {
      lines[k] = `changed ${k}`;
      writeFileSync(join(repo, 'lock.txt'), `${lines.join('\n')}\n`);
      gitSync(repo, ['commit', '-q', '--no-verify', '-am', `bump ${k}`]);
    }
    const { code, json } = await rangeFindings(repo);
    assert.equal(code, 0);
    assert.deepEqual([json.scanned.commits, json.scanned.lines], [46, 200_000 + 45]);
  });
});

describe('the commit guard, against knowledge that does not validate', () => {
  const recommendation = (fields: string): string => ['id: rec-strict', 'type: recommendation', 'title: Use strict mode', 'description: Turn it on.', 'scope: global', 'keywords: []', fields, 'source: manual', 'createdAt: "2026-01-01T00:00:00.000Z"', 'updatedAt: "2026-01-01T00:00:00.000Z"', 'createdBy: test', 'enabled: true', ''].join('\n');
  const REC = '.knowledge/knowledge/recommendations/rec-strict.yaml';

  it('blocks a staged record with merge-conflict markers, naming the file and line', async (t) => {
    const { repo, env } = await setup(t, { [REC]: recommendation('priority: medium') });
    writeFiles(repo, { [REC]: recommendation('<<<<<<< HEAD\npriority: medium\n=======\npriority: high\n>>>>>>> other') });
    gitSync(repo, ['add', '-A']);
    const attempt = await gitRun(repo, ['commit', '-q', '-m', 'half-merged'], env);
    assert.equal(attempt.code, 1);
    assert.equal(attempt.stderr, [
      // "priority: medium" was there before: the markers and the other side are what is added.
      'lore: scanned the staged change: 1 file, 4 added lines, 50 bytes against 2 prohibitions (0 from the change itself)',
      '',
      'BLOCKED the knowledge this change brings must parse and validate, so the store stays valid:',
      `${REC}:7:1: error: the file has unresolved merge-conflict markers: resolve the conflict (keep one version, or combine them) and remove the <<<<<<<, ======= and >>>>>>> lines`,
      '    6 | keywords: []',
      '  > 7 | <<<<<<< HEAD',
      '      | ^^^^^^^',
      '  how to proceed: fix the files (lore validate shows the same problems), stage them again and commit',
      '',
      'lore: blocked: 1 knowledge file in the change does not validate (1 problem)',
      '',
    ].join('\n'));
  });

  it('blocks a staged record that breaks its schema and a log line that is not a turn, in the hook and in CI', async (t) => {
    const { repo, env } = await setup(t);
    writeFiles(repo, { [REC]: recommendation('priority: urgent'), '.knowledge/turns/demo/FEAT-1.ndjson': '{"id":"x"}\n' });
    gitSync(repo, ['add', '-A']);
    const commit = await refusedThenForced(repo, env, 'bad knowledge');
    const { code, json } = await loreJson<Report & { invalid: Array<{ file: string; line: number; pointer?: string; message: string }> }>(['check', '--range', 'main...feature'], { cwd: repo });
    assert.equal(code, 1);
    assert.equal(json.blocked, true);
    assert.deepEqual(json.invalid.map((p) => [p.file, p.line, p.pointer]), [[REC, 7, '/priority'], [`${commit.slice(0, 12)}:.knowledge/turns/demo/FEAT-1.ndjson`, 1, undefined]]);
    assert.match(json.invalid[0]!.message, /^priority must be one of/);
    assert.match(json.invalid[1]!.message, /^line 1 is invalid: feature_id is required but missing/);
  });

  it('blocks a staged log line that is not UTF-8, naming its line', async (t) => {
    const { repo } = await setup(t);
    const line = (id: string, reason: Buffer): Buffer => Buffer.concat([Buffer.from(`{"id":"${id}","title":"T","description":"D","reason":"`), reason, Buffer.from('","rejectedBy":"me","timestamp":"2026-01-01T00:00:00.000Z"}\n')]);
    // "caf" then a Latin-1 é: not UTF-8.
    mkdirSync(join(repo, '.knowledge/log'));
    writeFileSync(join(repo, '.knowledge/log/rejections.ndjson'), Buffer.concat([line('rej-1', Buffer.from('fine')), line('rej-2', Buffer.from([0x63, 0x61, 0x66, 0xe9]))]));
    gitSync(repo, ['add', '-A']);
    const { code, json } = await loreJson<Report & { invalid: Array<{ file: string; line: number; column: number; message: string }> }>(['check'], { cwd: repo });
    assert.equal(code, 1);
    assert.deepEqual(json.invalid.map((p) => [p.file, p.line, p.column, p.message]), [['.knowledge/log/rejections.ndjson', 2, 58, 'line 2 is not valid UTF-8']]);
  });

  it('lets a change with valid knowledge through', async (t) => {
    const { repo, env } = await setup(t);
    writeFiles(repo, { [REC]: recommendation('priority: high') });
    gitSync(repo, ['add', '-A']);
    const ok = await gitRun(repo, ['commit', '-q', '-m', 'fine'], env);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stderr, 'lore: passed: no match for 2 prohibitions in 1 file, 12 added lines\n');
  });
});

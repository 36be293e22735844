// Starter packs: what lore init writes by default, lore pack list and add, and protection from the
// first commit in a fresh repository with the hook installed.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { listPacks, PACKS_DIR, readPack } from '../src/entities/packs.js';
import { inProcess } from './helpers/cli.js';
import { envWithLore, gitRun } from './helpers/guard.js';
import { gitRepo, gitSync, tempStore } from './helpers/temp.js';

const { lore, loreJson } = inProcess;

const secrets = await readPack('secrets');
const ids = secrets.entries.map((e) => e.id);
const files = ids.map((id) => `.knowledge/knowledge/prohibitions/${id}.yaml`);
const testCount = secrets.entries.reduce((n, e) => n + (e.tests?.match?.length ?? 0) + (e.tests?.noMatch?.length ?? 0), 0);
const STORE = { '.knowledge/config.yaml': 'version: 1\nproject: shop\n' };

describe('the starter packs', () => {
  it('ship a secrets pack whose every rule is a critical or high, secret, enabled prohibition marked pack:secrets, with tests on both sides', async () => {
    assert.deepEqual((await listPacks()).map((p) => p.name), readdirSync(PACKS_DIR).sort());
    assert.ok(ids.length >= 15, `${ids.length} rules`);
    for (const entry of secrets.entries) {
      assert.equal(entry.sourceRef, 'pack:secrets', entry.id);
      assert.equal(entry.secret, true, entry.id);
      assert.equal(entry.enabled, true, entry.id);
      assert.ok(entry.id.startsWith('secrets-'), entry.id);
      assert.ok(['critical', 'high'].includes(entry.priority), entry.id);
      assert.ok((entry.tests?.match?.length ?? 0) > 0 && (entry.tests?.noMatch?.length ?? 0) > 0, `${entry.id} has tests that must match and must not`);
    }
  });

  it('are listed by lore pack list, each rule with its priority', async (t) => {
    const root = tempStore(t, STORE);
    const list = await lore(['pack', 'list'], { cwd: root });
    assert.equal(list.code, 0, list.stderr);
    const expected = [
      `secrets: ${secrets.description} (${ids.length} rules)`,
      ...secrets.entries.map((e) => `  ${e.id} [${e.priority}] ${e.title}`),
    ];
    assert.equal(list.stdout, `${expected.join('\n')}\n`);
    const { json } = await loreJson<{ packs: Array<{ name: string; rules: Array<{ id: string }> }> }>(['pack', 'list'], { cwd: root });
    assert.deepEqual(json.packs.map((p) => [p.name, p.rules.map((r) => r.id)]), [['secrets', ids]]);
  });

  it('are written by lore init by default, pass their own tests and validate; --no-starter writes none', async (t) => {
    const repo = gitRepo(t, { 'README.md': '# demo\n' });
    const init = await lore(['init'], { cwd: repo });
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, new RegExp(`\\n {2}created \\.knowledge/knowledge/prohibitions/ \\(${ids.length} prohibitions of the secrets starter pack: lore pack list\\)\\n`));
    for (const file of files) assert.ok(existsSync(join(repo, file)), file);
    assert.deepEqual(await lore(['test'], { cwd: repo }), { code: 0, stdout: `${testCount} rule tests of ${ids.length} prohibitions: all passed\n`, stderr: '' });
    assert.equal((await lore(['validate'], { cwd: repo })).code, 0);

    const bare = gitRepo(t, { 'README.md': '# demo\n' });
    const skipped = await lore(['init', '--no-starter'], { cwd: bare });
    assert.equal(skipped.code, 0, skipped.stderr);
    assert.doesNotMatch(skipped.stdout, /prohibitions/);
    assert.equal(existsSync(join(bare, '.knowledge/knowledge/prohibitions')), false);
  });

  it('are added by lore pack add once: records already there are kept, edited ones skipped, missing ones added', async (t) => {
    const root = tempStore(t, STORE);
    const first = await lore(['pack', 'add', 'secrets'], { cwd: root });
    assert.deepEqual(first, { code: 0, stdout: `${files.map((f) => `added ${f}`).join('\n')}\npack secrets: added ${ids.length}, 0 already there, skipped 0 edited records\n`, stderr: '' });
    const written = readFileSync(join(root, files[0]!), 'utf8');
    const second = readFileSync(join(root, files[1]!), 'utf8');

    const again = await lore(['pack', 'add', 'secrets'], { cwd: root });
    assert.equal(again.stdout.split('\n').at(-2), `pack secrets: added 0, ${ids.length} already there, skipped 0 edited records`);
    assert.equal(readFileSync(join(root, files[0]!), 'utf8'), written);

    // A team edits one rule and deletes another: the edit stays, the deleted one comes back.
    const edited = join(root, files[0]!);
    writeFileSync(edited, written.replace('priority: critical', 'priority: high'));
    rmSync(join(root, files[1]!));
    const third = await loreJson<{ pack: string; dryRun: boolean; items: Array<{ id: string; status: string; reason?: string }> }>(['pack', 'add', 'secrets'], { cwd: root });
    assert.equal(third.code, 0);
    assert.deepEqual(third.json.items.filter((i) => i.status !== 'kept'), [
      { kind: 'prohibition', id: ids[0], file: files[0], status: 'skipped', reason: 'differs from the secrets pack (edited by a person?)' },
      { kind: 'prohibition', id: ids[1], file: files[1], status: 'added' },
    ]);
    assert.equal(readFileSync(edited, 'utf8'), written.replace('priority: critical', 'priority: high'));
    assert.equal(readFileSync(join(root, files[1]!), 'utf8'), second);
  });

  it('write nothing on a dry run, and refuse a pack that does not exist (exit 2)', async (t) => {
    const root = tempStore(t, STORE);
    const dry = await lore(['pack', 'add', 'secrets', '--dry-run'], { cwd: root });
    assert.equal(dry.stdout.split('\n').at(-2), `pack secrets: would be added ${ids.length}, 0 already there, skipped 0 edited records`);
    assert.equal(existsSync(join(root, '.knowledge/knowledge')), false);
    assert.deepEqual(await lore(['pack', 'add', 'secret'], { cwd: root }), {
      code: 2, stdout: '', stderr: 'error: there is no pack named "secret" (packs: secrets)\nhint: did you mean secrets?\n',
    });
  });
});

/** A fresh repository after lore init and lore hook install, with a .env and a .env.example written (not staged). */
async function freshRepository(t: TestContext): Promise<{ repo: string; env: NodeJS.ProcessEnv }> {
  const repo = gitRepo(t);
  const env = envWithLore(t);
  assert.equal((await lore(['init'], { cwd: repo, env })).code, 0);
  assert.equal((await lore(['hook', 'install'], { cwd: repo, env })).code, 0);
  writeFileSync(join(repo, '.env'), 'DATABASE_PASSWORD=hunter2\n');
  writeFileSync(join(repo, '.env.example'), 'DATABASE_PASSWORD=\n');
  return { repo, env };
}

describe('protection from the first commit', () => {
  it('blocks a .env in a fresh repository after lore init and lore hook install, and lets .env.example and the store through', async (t) => {
    const { repo, env } = await freshRepository(t);

    // Everything at once: the .env blocks the commit, by the rule the same commit brings.
    gitSync(repo, ['add', '-A']);
    const all = await gitRun(repo, ['commit', '-q', '-m', 'start'], env);
    assert.equal(all.code, 1, all.stderr);
    assert.match(all.stderr, /\nBLOCKED secrets-env-files \[critical\] Never commit \.env files \[rule added by this change\]\n {2}\.env: path matches /);
    assert.match(all.stderr, /\nlore: blocked: 1 critical finding\n$/);

    // Without it, the store (whose records hold the fake secrets of their tests) and the template pass.
    gitSync(repo, ['rm', '-q', '--cached', '.env']);
    const first = await gitRun(repo, ['commit', '-q', '-m', 'start'], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, new RegExp(`^lore: passed: no match for ${ids.length} prohibitions \\(${ids.length} from the change\\) in \\d+ files, [\\d,]+ added lines\n$`));
    assert.equal(gitSync(repo, ['ls-files', '.env.example', '.env']), '.env.example\n');

    // Later: git add .env && git commit is blocked by the committed rule.
    gitSync(repo, ['add', '.env']);
    const later = await gitRun(repo, ['commit', '-q', '-m', 'config'], env);
    assert.equal(later.code, 1, later.stderr);
    assert.match(later.stderr, /\nBLOCKED secrets-env-files \[critical\] Never commit \.env files\n {2}\.env: path matches /);
    assert.equal(gitSync(repo, ['rev-list', '--count', 'HEAD']), '1\n');
  });

  it('blocks git add .env && git commit right after lore init and lore hook install, before .knowledge/ is committed or staged', async (t) => {
    const { repo, env } = await freshRepository(t);
    gitSync(repo, ['add', '.env']);
    const blocked = await gitRun(repo, ['commit', '-q', '-m', 'config'], env);
    assert.equal(blocked.code, 1, blocked.stderr);
    assert.equal(blocked.stderr, [
      `lore: scanned the staged change: 1 file, 1 added line, 26 bytes against ${ids.length} prohibitions (0 from the change itself)`,
      '',
      'BLOCKED secrets-env-files [critical] Never commit .env files',
      '  .env: path matches **/.env',
      '  how to proceed: take the file out of the commit (git rm --cached -- ".env"); if it must be committed, add an allowlist record in .knowledge/allow/ and have it reviewed',
      'lore: note: .knowledge/ is in the working tree but not yet committed: its prohibitions apply (commit .knowledge/ so that they apply for everyone)',
      '',
      'lore: blocked: 1 critical finding',
      '',
    ].join('\n'));
    gitSync(repo, ['rm', '-q', '--cached', '.env']);
    gitSync(repo, ['add', '.env.example']);
    const template = await gitRun(repo, ['commit', '-q', '-m', 'template'], env);
    assert.equal(template.code, 0, template.stderr);
    assert.equal(gitSync(repo, ['ls-files']), '.env.example\n');
  });

  it("keeps the working tree's prohibitions on when a first commit stages only .knowledge/config.yaml, until prohibitions are committed", async (t) => {
    const { repo, env } = await freshRepository(t);
    // The store arrives in part: a config and no prohibition, on neither side.
    gitSync(repo, ['add', '.env.example', '.knowledge/config.yaml']);
    assert.equal((await gitRun(repo, ['commit', '-q', '-m', 'start'], env)).code, 0);
    writeFileSync(join(repo, 'keys.txt'), 'aws_access_key_id = AKIAZZQQ3RT5WXYV7ABC\n');
    gitSync(repo, ['add', '.env', 'keys.txt']);
    const blocked = await gitRun(repo, ['commit', '-q', '-m', 'config'], env);
    assert.equal(blocked.code, 1, blocked.stderr);
    assert.match(blocked.stderr, new RegExp(`^lore: scanned the staged change: 2 files, 2 added lines, \\d+ bytes against ${ids.length} prohibitions \\(0 from the change itself\\)\n`));
    assert.match(blocked.stderr, /\nBLOCKED secrets-env-files \[critical\] Never commit \.env files\n {2}\.env: path matches /);
    assert.match(blocked.stderr, /\nBLOCKED secrets-aws-access-key \[critical\] Never commit AWS access keys\n {2}keys\.txt:1:/);
    assert.match(blocked.stderr, new RegExp(`\\nlore: note: ${ids.length} prohibitions in the working tree are neither committed nor staged: they apply here \\(commit them so that they apply for everyone, and in CI\\)\\n`));
    assert.equal(gitSync(repo, ['rev-list', '--count', 'HEAD']), '1\n');
    // Once the prohibitions are committed, they are the ones that apply, and the note is gone.
    gitSync(repo, ['reset', '-q']);
    gitSync(repo, ['add', '.knowledge']);
    assert.equal((await gitRun(repo, ['commit', '-q', '-m', 'rules'], env)).code, 0);
    gitSync(repo, ['add', 'keys.txt']);
    const later = await gitRun(repo, ['commit', '-q', '-m', 'keys'], env);
    assert.equal(later.code, 1, later.stderr);
    assert.doesNotMatch(later.stderr, /lore: note:/);
  });

  it('keeps every uncommitted prohibition on when a first commit stages only one of them', async (t) => {
    const { repo, env } = await freshRepository(t);
    gitSync(repo, ['add', '.knowledge/config.yaml', '.knowledge/knowledge/prohibitions/secrets-env-files.yaml']);
    writeFileSync(join(repo, 'a.txt'), 'k = "AKIAZZQQ3RT5WXYV7ABC"\n');
    gitSync(repo, ['add', 'a.txt']);
    const first = await gitRun(repo, ['commit', '-q', '-m', 'first'], env);
    assert.equal(first.code, 1, first.stderr);
    assert.match(first.stderr, /\nBLOCKED secrets-aws-access-key \[critical\] Never commit AWS access keys\n {2}a\.txt:1:/);
    assert.match(first.stderr, new RegExp(`\\nlore: note: ${ids.length - 1} prohibitions in the working tree are neither committed nor staged: they apply here`));
    // The key taken out, the partial store committed: the next commit is still checked against all of them.
    gitSync(repo, ['rm', '-q', '--cached', 'a.txt']);
    assert.equal((await gitRun(repo, ['commit', '-q', '-m', 'first'], env)).code, 0);
    writeFileSync(join(repo, 'b.txt'), 'k = "AKIAZZQQ3RT5WXYV7ABD"\n');
    gitSync(repo, ['add', 'b.txt']);
    const second = await gitRun(repo, ['commit', '-q', '-m', 'second'], env);
    assert.equal(second.code, 1, second.stderr);
    assert.match(second.stderr, /\nBLOCKED secrets-aws-access-key /);
  });

  it('takes a staged rename of a prohibition file for what it is: the same rule, counted once, no note', async (t) => {
    const { repo, env } = await freshRepository(t);
    gitSync(repo, ['add', '.knowledge']);
    assert.equal((await gitRun(repo, ['commit', '-q', '-m', 'store'], env)).code, 0);
    gitSync(repo, ['mv', '.knowledge/knowledge/prohibitions/secrets-env-files.yaml', '.knowledge/knowledge/prohibitions/secrets-env-files.yml']);
    const renamed = await lore(['hook', 'pre-commit'], { cwd: repo, env: { ...env, GIT_INDEX_FILE: '.git/index' } });
    assert.deepEqual([renamed.code, renamed.stderr], [0, `lore: passed: no match for ${ids.length} prohibitions in 1 file, 0 added lines\n`]);
  });

  it('keeps a store committed without prohibitions usable while one is drafted: a draft it cannot read is a note, an unstaged config edit nothing', async (t) => {
    const repo = gitRepo(t);
    const env = envWithLore(t);
    assert.equal((await lore(['init', '--no-starter'], { cwd: repo, env })).code, 0);
    assert.equal((await lore(['hook', 'install'], { cwd: repo, env })).code, 0);
    gitSync(repo, ['add', '-A']);
    assert.equal((await gitRun(repo, ['commit', '-q', '-m', 'knowledge only'], env)).code, 0);
    writeFileSync(join(repo, '.knowledge/config.yaml'), `${readFileSync(join(repo, '.knowledge/config.yaml'), 'utf8')}bogus_key: 1\n`);
    mkdirSync(join(repo, '.knowledge/knowledge/prohibitions'), { recursive: true });
    writeFileSync(join(repo, '.knowledge/knowledge/prohibitions/pro-draft.yaml'), 'id: pro-draft\ntitle: Half written\n');
    writeFileSync(join(repo, 'a.txt'), 'unrelated\n');
    gitSync(repo, ['add', 'a.txt']);
    const committed = await gitRun(repo, ['commit', '-q', '-m', 'unrelated'], env);
    assert.equal(committed.code, 0, committed.stderr);
    assert.equal(committed.stderr, [
      'lore: scanned the staged change: 1 file, 1 added line, 10 bytes against 0 prohibitions (0 from the change itself)',
      'lore: note: a prohibition in the working tree was not applied: .knowledge/knowledge/prohibitions/pro-draft.yaml does not validate (lore validate says why)',
      '',
      'lore: passed: no prohibition matched',
      '',
    ].join('\n'));
  });

  it('blocks with exit 2 before .knowledge/ is committed when .knowledge is a symlink, even a dangling one', async (t) => {
    const repo = gitRepo(t);
    const env = envWithLore(t);
    assert.equal((await lore(['hook', 'install'], { cwd: repo, env })).code, 0);
    symlinkSync(join(repo, 'nowhere'), join(repo, '.knowledge'));
    writeFileSync(join(repo, '.env'), 'DATABASE_PASSWORD=hunter2\n');
    gitSync(repo, ['add', '.env']);
    const refused = `.knowledge is a symbolic link (it points to ${join(repo, 'nowhere')}): lore never follows symlinks inside .knowledge/`;
    assert.deepEqual(await lore(['hook', 'pre-commit'], { cwd: repo, env }), {
      code: 2,
      stdout: '',
      stderr: [
        'error: the commit guard cannot run: the knowledge it checks against is invalid',
        `.knowledge/config.yaml: error: ${refused}`,
        `.knowledge/knowledge/prohibitions: error: ${refused}`,
        'hint: fix the files (lore validate), or skip the check visibly with LORE_SKIP=1',
        '',
      ].join('\n'),
    });
    const blocked = await gitRun(repo, ['commit', '-q', '-m', 'config'], env);
    assert.equal(blocked.code, 1, blocked.stderr);
    assert.equal(gitSync(repo, ['rev-list', '--all', '--count']), '0\n');
  });

  it('blocks a real key written into a rule\'s own record file, outside its tests and beside a test input', async (t) => {
    const repo = gitRepo(t);
    const env = envWithLore(t);
    assert.equal((await lore(['init'], { cwd: repo, env })).code, 0);
    assert.equal((await lore(['hook', 'install'], { cwd: repo, env })).code, 0);
    gitSync(repo, ['add', '-A']);
    assert.equal((await gitRun(repo, ['commit', '-q', '-m', 'start'], env)).code, 0);
    const file = '.knowledge/knowledge/prohibitions/secrets-aws-access-key.yaml';
    const text = readFileSync(join(repo, file), 'utf8');
    for (const [from, to, at] of [
      ['description: ', 'description: key AKIAV65Z5FOTYPVYMRYT. ', '5:18'],
      ['    - line: aws_access_key_id = AKIASTXRKDA73OA6MRLS\n', '    - line: aws_access_key_id = AKIASTXRKDA73OA6MRLS # AKIAV65Z5FOTYPVYMRYT\n', '15:56'],
    ] as const) {
      writeFileSync(join(repo, file), text.replace(from, to));
      gitSync(repo, ['add', file]);
      const blocked = await gitRun(repo, ['commit', '-q', '-m', 'leak'], env);
      assert.equal(blocked.code, 1, blocked.stderr);
      assert.match(blocked.stderr, new RegExp(`\\nBLOCKED secrets-aws-access-key \\[critical\\] Never commit AWS access keys\\n {2}${file.replace(/\./g, '\\.')}:${at}: matched\\n? +"\\[redacted: 20 characters\\]"`));
      assert.match(blocked.stderr, /\nlore: blocked: 1 critical finding\n$/);
    }
    // The record's own test inputs, as lore wrote them, still pass.
    writeFileSync(join(repo, file), text.replace('description: ', 'description: AWS. '));
    gitSync(repo, ['add', file]);
    const edited = await gitRun(repo, ['commit', '-q', '-m', 'edit'], env);
    assert.equal(edited.code, 0, edited.stderr);
    assert.equal(gitSync(repo, ['rev-list', '--count', 'HEAD']), '2\n');
  });
});

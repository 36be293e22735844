// A repository is untrusted input: a symlink inside `.knowledge/` may point anywhere. lore never
// reads or writes through one, and says which path it is.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, lutimesSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { inProcess, LORE_BIN, type CliResult } from './helpers/cli.js';
import { entry, entryFiles } from './helpers/knowledge.js';
import { tempDir, tempStore, testEnv } from './helpers/temp.js';

const { lore } = inProcess;

const CONFIG = { '.knowledge/config.yaml': 'version: 1\nproject: shop\n' };
const TOKEN = 'ghp_outsideTheRepository0123456789';

/** A folder outside the store with a file holding a token, as a record-shaped YAML file. */
function outside(t: Parameters<typeof tempDir>[0]): { dir: string; file: string } {
  const dir = tempDir(t, 'lore-outside-');
  const file = join(dir, 'secret.yaml');
  writeFileSync(file, `id: pro-x\ntitle: ${TOKEN}\n`);
  return { dir, file };
}

/** `lore <args>` in a process of its own, its heap capped at 256 MB, killed after 20 s (code null: it hung). */
function loreBounded(args: string[], cwd: string): Promise<Omit<CliResult, 'code'> & { code: number | null }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--max-old-space-size=256', LORE_BIN, ...args], { cwd, env: testEnv(), encoding: 'utf8', timeout: 20_000, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

describe('symlinks inside .knowledge/', () => {
  it('never reads a planted journal, write lock or schema copy through its link: no hang on a FIFO, no memory on /dev/zero', async (t) => {
    const root = tempStore(t, { ...CONFIG, ...entryFiles([entry({ id: 'rec-a', title: 'Retry uploads' })]) });
    const fifo = join(tempDir(t, 'lore-outside-'), 'fifo');
    execFileSync('mkfifo', [fifo]);
    // A journal: every command refuses it, naming it (opening the FIFO would wait for a writer forever).
    const journal = join(root, '.knowledge/.journal.json');
    symlinkSync(fifo, journal);
    const listed = await loreBounded(['list'], root);
    assert.equal(listed.code, 2, listed.stderr);
    assert.match(listed.stderr, /\.knowledge\/\.journal\.json is a symbolic link/);
    unlinkSync(journal);
    // A write lock that is a link to /dev/zero, planted an hour ago: unreadable, stale, broken; nothing read through it.
    const lock = join(root, '.knowledge/.write.lock');
    symlinkSync('/dev/zero', lock);
    const hourAgo = new Date(Date.now() - 3_600_000);
    lutimesSync(lock, hourAgo, hourAgo);
    const added = await loreBounded(['add', 'recommendation', '--title', 'Cap upload sizes', '--description', 'Large uploads time out.'], root);
    assert.equal(added.code, 0, added.stderr);
    assert.ok(existsSync(join(root, '.knowledge/knowledge/recommendations/rec-cap-upload-sizes.yaml')));
    // A schema copy that is a link to the FIFO: validate finishes, the copies said to be out of date.
    mkdirSync(join(root, '.knowledge/schemas'));
    symlinkSync(fifo, join(root, '.knowledge/schemas/config.schema.json'));
    const validated = await loreBounded(['validate'], root);
    assert.notEqual(validated.code, null, 'validate hung');
    assert.match(validated.stdout + validated.stderr, /the schema copies editors use are out of date/);
    // A FIFO where a record file should be: refused as not a file, never waited on.
    execFileSync('mkfifo', [join(root, '.knowledge/knowledge/recommendations/rec-fifo.yaml')]);
    const withFifo = await loreBounded(['validate'], root);
    assert.equal(withFifo.code, 1, withFifo.stderr);
    assert.match(withFifo.stdout, /rec-fifo\.yaml: error: could not read the file: .* is not a regular file/);
  });

  it('are reported by lore validate, with their path, and never read', async (t) => {
    const { file } = outside(t);
    const root = tempStore(t, { ...CONFIG, ...entryFiles([entry({ id: 'rec-ok' })]) });
    symlinkSync(file, join(root, '.knowledge/knowledge/recommendations/rec-leak.yaml'));
    const result = await lore(['validate'], { cwd: root });
    assert.equal(result.code, 1);
    assert.ok(!result.stdout.includes(TOKEN) && !result.stderr.includes(TOKEN), 'the token was printed');
    assert.match(result.stdout, new RegExp(`^\\.knowledge/knowledge/recommendations/rec-leak\\.yaml: error: is a symbolic link \\(it points to ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\): lore never follows symlinks inside \\.knowledge/$`, 'm'));
    const list = await lore(['list', '--json'], { cwd: root });
    assert.ok(!list.stdout.includes(TOKEN) && !list.stderr.includes(TOKEN));
  });

  it('refuses to write through a symlinked folder: lore add writes nothing outside', async (t) => {
    const { dir } = outside(t);
    const root = tempStore(t, CONFIG);
    mkdirSync(join(root, '.knowledge/knowledge'), { recursive: true });
    symlinkSync(dir, join(root, '.knowledge/knowledge/prohibitions'));
    const result = await lore(['add', 'prohibition', '--title', 'Never commit env files', '--description', 'No.', '--glob', '**/.env'], { cwd: root });
    assert.equal(result.code, 2);
    assert.equal(result.stderr, `error: .knowledge/knowledge/prohibitions is a symbolic link (it points to ${dir}): lore never follows symlinks inside .knowledge/\nhint: replace it with the real file or folder\n`);
    assert.deepEqual(readdirSync(dir), ['secret.yaml']);
  });

  it('refuses a record folder that is a file, naming it, for one write and for a transaction of many, planning nothing', async (t) => {
    const root = tempStore(t, { ...CONFIG, '.knowledge/knowledge/recommendations': 'not a folder\n' });
    const refusal = 'error: .knowledge/knowledge/recommendations is a file, not a folder, so nothing can be written under it\nhint: move that file away (lore keeps a folder there), then run the command again\n';
    const one = await lore(['add', 'recommendation', '--title', 'Retry uploads', '--description', 'Retry them.'], { cwd: root });
    assert.deepEqual([one.code, one.stderr], [2, refusal]);
    const incoming = [1, 2].map((n) => JSON.stringify({ type: 'recommendation', title: `Tip ${n}`, description: `Tip ${n}.` })).join('\n');
    const many = await lore(['import', '-'], { cwd: root, input: `${incoming}\n` });
    assert.deepEqual([many.code, many.stderr], [2, refusal]);
    assert.equal(readFileSync(join(root, '.knowledge/knowledge/recommendations'), 'utf8'), 'not a folder\n');
    assert.deepEqual(readdirSync(join(root, '.knowledge')).filter((name) => name.startsWith('.journal')), []);
  });

  it('refuses to append to a log that is a symlink, and leaves its target alone', async (t) => {
    const { dir } = outside(t);
    const target = join(dir, 'events.ndjson');
    writeFileSync(target, '');
    const root = tempStore(t, { ...CONFIG, ...entryFiles([entry({ id: 'rec-ok' })]) });
    mkdirSync(join(root, '.knowledge/log'), { recursive: true });
    symlinkSync(target, join(root, '.knowledge/log/applications.ndjson'));
    const result = await lore(['applied', 'rec-ok', '--task', 'T-1'], { cwd: root });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^error: \.knowledge\/log\/applications\.ndjson is a symbolic link \(it points to .*events\.ndjson\): lore never follows symlinks inside \.knowledge\/\n/);
    assert.equal(readFileSync(target, 'utf8'), '');
  });

  it('refuses a turn log folder that is a symlink', async (t) => {
    const { dir } = outside(t);
    const root = tempStore(t, CONFIG);
    mkdirSync(join(root, '.knowledge/turns'), { recursive: true });
    symlinkSync(dir, join(root, '.knowledge/turns/shop'));
    const result = await lore(['turn', 'record', '--feature', 'F-1', '--task', 'T-1', '--turn', '1', '--player-decision', 'p', '--coach-decision', 'approve', '--progress', 's'], { cwd: root });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^error: \.knowledge\/turns\/shop is a symbolic link/);
    assert.deepEqual(readdirSync(dir), ['secret.yaml']);
  });

  it('keeps the turn index out of a symlinked .knowledge/.cache: the turn is recorded, nothing is written outside', async (t) => {
    const { dir } = outside(t);
    const root = tempStore(t, CONFIG);
    symlinkSync(dir, join(root, '.knowledge/.cache'));
    const turn = (n: number): string[] => ['turn', 'record', '--feature', 'F-1', '--task', 'T-1', '--turn', String(n), '--player-decision', 'p', '--coach-decision', 'revise', '--progress', 's'];
    for (const n of [1, 2]) assert.equal((await lore(turn(n), { cwd: root })).code, 0);
    assert.deepEqual(readdirSync(dir), ['secret.yaml']);
    assert.equal(readFileSync(join(root, '.knowledge/turns/shop/F-1.ndjson'), 'utf8').split('\n').filter(Boolean).length, 2);
  });

  it('never reads the record cache through a symlinked .knowledge/.cache', async (t) => {
    const { dir } = outside(t);
    const root = tempStore(t, { ...CONFIG, ...entryFiles([entry({ id: 'rec-ok' })]) });
    assert.equal((await lore(['list'], { cwd: root })).code, 0);
    // The cache this store made, moved outside, changed to say something else, and linked back.
    const cache = join(dir, 'cache');
    renameSync(join(root, '.knowledge/.cache'), cache);
    for (const name of readdirSync(cache).filter((n) => n.startsWith('records-'))) {
      const snapshot = JSON.parse(readFileSync(join(cache, name), 'utf8')) as { files: Record<string, { record?: { value: { title: string } } }> };
      for (const file of Object.values(snapshot.files)) if (file.record !== undefined) file.record.value.title = TOKEN;
      writeFileSync(join(cache, name), JSON.stringify(snapshot));
    }
    symlinkSync(cache, join(root, '.knowledge/.cache'));
    const list = await lore(['list', '--json'], { cwd: root });
    assert.equal(list.code, 0);
    assert.ok(list.stdout.includes('Title of rec-ok') && !list.stdout.includes(TOKEN), list.stdout);
  });

  it('refuses a log folder that is a symlink to nowhere yet, creating nothing where it points', async (t) => {
    const { dir } = outside(t);
    const root = tempStore(t, { ...CONFIG, ...entryFiles([entry({ id: 'rec-ok' })]) });
    const target = join(dir, 'made', 'by', 'lore');
    symlinkSync(target, join(root, '.knowledge/log'));
    const result = await lore(['applied', 'rec-ok', '--task', 'T-1'], { cwd: root });
    assert.equal(result.code, 2);
    assert.equal(result.stderr, `error: .knowledge/log is a symbolic link (it points to ${target}): lore never follows symlinks inside .knowledge/\nhint: replace it with the real file or folder\n`);
    assert.equal(existsSync(join(dir, 'made')), false);
  });

  it('refuses a .knowledge that is itself a symlink instead of opening it as the store', async (t) => {
    const { dir } = outside(t);
    const root = tempDir(t);
    mkdirSync(join(dir, 'knowledge', 'prohibitions'), { recursive: true });
    writeFileSync(join(dir, 'config.yaml'), 'version: 1\nproject: shop\n');
    symlinkSync(dir, join(root, '.knowledge'));
    const result = await lore(['validate'], { cwd: root });
    assert.equal(result.code, 2);
    assert.equal(result.stderr, `error: .knowledge is a symbolic link (it points to ${dir}): lore never follows symlinks inside .knowledge/\nhint: replace it with the real file or folder\n`);
    const add = await lore(['add', 'prohibition', '--title', 'X', '--description', 'Y.', '--glob', 'x'], { cwd: root });
    assert.equal(add.code, 2);
    assert.deepEqual(readdirSync(join(dir, 'knowledge', 'prohibitions')), []);
  });
});

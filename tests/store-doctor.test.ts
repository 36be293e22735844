// What a killed process leaves behind: an interrupted operation is completed or undone by the next
// command that opens the store; temp and lock files of dead processes are reported by lore validate
// and removed by lore doctor --fix, never those of a live process.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { lore } from './helpers/cli.js';
import { entry, entryFiles } from './helpers/knowledge.js';
import { tempDir, tempStore } from './helpers/temp.js';

const CONFIG = { '.knowledge/config.yaml': 'version: 1\nproject: shop\n', '.knowledge/.gitignore': '.cache/\n*.tmp\n*.stale\n.write.lock\n*.ndjson.lock\n*.lock.break-*\n.journal.json\n' };

/** The pid of a process that has exited (so it belongs to nobody now). */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

describe('crash leftovers', () => {
  it('are listed by lore doctor and lore validate, and removed by lore doctor --fix, except what a live process owns', async (t) => {
    const root = tempStore(t, { ...CONFIG, ...entryFiles([entry({ id: 'pro-x', type: 'prohibition' })]) });
    const dead = deadPid();
    const k = (path: string): string => join(root, '.knowledge', path);
    mkdirSync(k('log'));
    writeFileSync(k(`knowledge/prohibitions/.pro-x.yaml.${dead}.0a1b2c3d.tmp`), 'half a record');
    writeFileSync(k(`knowledge/prohibitions/.pro-y.yaml.${process.pid}.0a1b2c3d.tmp`), 'a write under way');
    writeFileSync(k('log/applications.ndjson.lock'), JSON.stringify({ pid: dead, host: hostname(), nonce: 'n', time: '2026-01-01T00:00:00.000Z' }));
    writeFileSync(k('.write.lock.0a1b2c3d4e5f.stale'), '{}');
    // A waiter's holder file (linked to the lock once it is free) and a breaker's claim, both of killed processes.
    writeFileSync(k('log/.lock-0a1b2c3d4e5f6a7b.tmp'), JSON.stringify({ pid: dead, host: hostname(), nonce: '0a1b2c3d4e5f6a7b', time: '2026-01-01T00:00:00.000Z' }));
    writeFileSync(k('log/applications.ndjson.lock.break-n'), JSON.stringify({ pid: dead, host: hostname(), nonce: 'c', time: '2026-01-01T00:00:00.000Z' }));
    const expected = [
      `.knowledge/.write.lock.0a1b2c3d4e5f.stale: left over from a crash: a lock moved aside while it was being broken`,
      `.knowledge/knowledge/prohibitions/.pro-x.yaml.${dead}.0a1b2c3d.tmp: left over from a crash: a temp file of a write by process ${dead}, which is gone`,
      `.knowledge/log/.lock-0a1b2c3d4e5f6a7b.tmp: left over from a crash: a lock being taken by process ${dead}, which is gone`,
      `.knowledge/log/applications.ndjson.lock: left over from a crash: a lock held by process ${dead}, which is gone`,
      `.knowledge/log/applications.ndjson.lock.break-n: left over from a crash: a claim to break a stale lock, made by process ${dead}, which is gone`,
    ];
    assert.deepEqual(await lore(['doctor'], { cwd: root }), { code: 1, stdout: `${expected.join('\n')}\nlore doctor --fix deals with them\n`, stderr: '' });
    const validate = await lore(['validate'], { cwd: root });
    assert.equal(validate.code, 0);
    assert.equal(validate.stdout, `${expected.map((line) => line.replace(': left over', ': warning: left over').concat(' (lore doctor --fix)')).join('\n')}\nchecked 1 record file and 0 logs: 0 errors, 5 warnings\n`);
    const fix = await lore(['doctor', '--fix'], { cwd: root });
    assert.deepEqual(fix, { code: 0, stdout: `${expected.map((line) => line.replace(': left over from a crash: ', ': removed: ')).join('\n')}\n`, stderr: '' });
    assert.equal(existsSync(k(`knowledge/prohibitions/.pro-y.yaml.${process.pid}.0a1b2c3d.tmp`)), true, 'a live process\'s temp file was removed');
    assert.deepEqual(await lore(['doctor'], { cwd: root }), { code: 0, stdout: 'nothing to fix: no crash leftovers, .gitignore complete\n', stderr: '' });
  });

  it('completes an operation whose journal was committed, when the next command opens the store, and says so', async (t) => {
    const root = tempStore(t, { ...CONFIG, ...entryFiles([[entry({ id: 'learn-x', type: 'learning' }), 'pending']]) });
    const k = (path: string): string => join(root, '.knowledge', path);
    // A crash after the commit point of `lore approve`: the learning is staged, the pending file not yet gone.
    // (Both folders are two levels deep, so the pending file's text is the learning's too.)
    const learning = readFileSync(k('knowledge/pending/learn-x.yaml'), 'utf8');
    mkdirSync(k('knowledge/learnings'));
    writeFileSync(k('knowledge/learnings/.learn-x.yaml.abc123.txn.tmp'), learning);
    writeFileSync(k('.journal.json'), JSON.stringify({ version: 1, id: 'abc123', operation: 'lore approve', pid: 4242, started: 'never', time: '2026-01-01T00:00:00.000Z', state: 'commit', writes: [{ path: 'knowledge/learnings/learn-x.yaml', staged: 'knowledge/learnings/.learn-x.yaml.abc123.txn.tmp' }], deletes: ['knowledge/pending/learn-x.yaml'], appends: [] }));
    const list = await lore(['list', 'entries'], { cwd: root });
    assert.equal(list.code, 0);
    assert.equal(list.stderr, 'lore: completed an interrupted lore approve of process 4242 (2 files) before going on\n');
    assert.deepEqual([existsSync(k('knowledge/learnings/learn-x.yaml')), existsSync(k('knowledge/pending/learn-x.yaml')), existsSync(k('.journal.json'))], [true, false, false]);
    assert.equal(readFileSync(k('knowledge/learnings/learn-x.yaml'), 'utf8'), learning);
  });

  it('says what lore doctor completed while opening the store, without asking for --fix', async (t) => {
    const root = tempStore(t, { ...CONFIG, ...entryFiles([[entry({ id: 'learn-x', type: 'learning' }), 'pending']]) });
    const k = (path: string): string => join(root, '.knowledge', path);
    mkdirSync(k('knowledge/learnings'));
    writeFileSync(k('knowledge/learnings/.learn-x.yaml.abc123.txn.tmp'), readFileSync(k('knowledge/pending/learn-x.yaml'), 'utf8'));
    writeFileSync(k('.journal.json'), JSON.stringify({ version: 1, id: 'abc123', operation: 'lore approve', pid: 4242, started: 'never', time: '2026-01-01T00:00:00.000Z', state: 'commit', writes: [{ path: 'knowledge/learnings/learn-x.yaml', staged: 'knowledge/learnings/.learn-x.yaml.abc123.txn.tmp' }], deletes: ['knowledge/pending/learn-x.yaml'], appends: [] }));
    const result = await lore(['doctor'], { cwd: root });
    assert.deepEqual([result.code, result.stdout], [0, 'completed an interrupted lore approve of process 4242 (2 files)\n']);
  });

  it('undoes an operation that crashed while staging, removing what it staged', async (t) => {
    const root = tempStore(t, CONFIG);
    const k = (path: string): string => join(root, '.knowledge', path);
    mkdirSync(k('graph/entities'), { recursive: true });
    writeFileSync(k('graph/entities/.api.yaml.abc123.txn.tmp'), 'name: api\ntype: service\n');
    writeFileSync(k('.journal.json'), JSON.stringify({ version: 1, id: 'abc123', operation: 'lore graph update', pid: 4242, started: 'never', time: '2026-01-01T00:00:00.000Z', state: 'prepare', writes: [{ path: 'graph/entities/api.yaml', staged: 'graph/entities/.api.yaml.abc123.txn.tmp' }, { path: 'graph/entities/db.yaml', staged: 'graph/entities/.db.yaml.abc123.txn.tmp' }], deletes: [], appends: [] }));
    const validate = await lore(['validate'], { cwd: root });
    assert.deepEqual(validate, { code: 0, stdout: 'checked 0 record files and 0 logs: 0 errors, 0 warnings\n', stderr: 'lore: undone an interrupted lore graph update of process 4242 (2 files) before going on\n' });
    assert.deepEqual([existsSync(k('graph/entities/.api.yaml.abc123.txn.tmp')), existsSync(k('graph/entities/api.yaml')), existsSync(k('.journal.json'))], [false, false, false]);
  });

  it('refuses a journal that stages anything but a file lore stages: nothing moves, through a symlink or not', async (t) => {
    const outside = tempDir(t, 'lore-outside-');
    writeFileSync(join(outside, 'id_rsa'), 'a key outside the repository');
    const root = tempStore(t, { ...CONFIG, ...entryFiles([entry({ id: 'pro-x', type: 'prohibition' })]) });
    const k = (path: string): string => join(root, '.knowledge', path);
    symlinkSync(outside, k('evil'));
    const dead = deadPid();
    const journal = (writes: object[], appends: object[] = []): string => JSON.stringify({ version: 1, id: 'abc123', operation: 'lore import', pid: dead, time: '2026-01-01T00:00:00.000Z', state: 'commit', writes, deletes: [], appends });
    // A cloned repository's journal "stages" a file a symlinked folder leads to, or another record.
    writeFileSync(k('.journal.json'), journal([{ path: 'knowledge/prohibitions/stolen.yaml', staged: 'evil/id_rsa' }]));
    const moved = await lore(['list'], { cwd: root });
    assert.deepEqual(moved, { code: 2, stdout: '', stderr: 'error: the journal .journal.json stages "evil/id_rsa" for "knowledge/prohibitions/stolen.yaml", which is not a file lore stages\nhint: delete .knowledge/.journal.json if no lore process is running\n' });
    assert.equal(readFileSync(join(outside, 'id_rsa'), 'utf8'), 'a key outside the repository');
    assert.equal(existsSync(k('knowledge/prohibitions/stolen.yaml')), false);
    writeFileSync(k('.journal.json'), journal([{ path: 'knowledge/prohibitions/pro-y.yaml', staged: 'knowledge/prohibitions/pro-x.yaml' }]));
    assert.equal((await lore(['list'], { cwd: root })).code, 2);
    assert.equal(existsSync(k('knowledge/prohibitions/pro-x.yaml')), true);
    // Named as lore names it, but a symlink to the file outside: not renamed into the store.
    symlinkSync(join(outside, 'id_rsa'), k('knowledge/prohibitions/.stolen.yaml.abc123.txn.tmp'));
    writeFileSync(k('.journal.json'), journal([{ path: 'knowledge/prohibitions/stolen.yaml', staged: 'knowledge/prohibitions/.stolen.yaml.abc123.txn.tmp' }]));
    const link = await lore(['list'], { cwd: root });
    assert.equal(link.code, 2);
    assert.equal(link.stderr, 'error: the journal .journal.json stages .knowledge/knowledge/prohibitions/.stolen.yaml.abc123.txn.tmp, which is not a regular file\nhint: delete .knowledge/.journal.json if no lore process is running\n');
    assert.equal(existsSync(k('knowledge/prohibitions/stolen.yaml')), false);
    // An append to a file that is not one of the store's logs (a record, config.yaml) is refused too.
    writeFileSync(k('.journal.json'), journal([], [{ log: 'config.yaml', records: [{ id: 'x', timestamp: '2026-01-01T00:00:00.000Z' }] }]));
    const append = await lore(['list'], { cwd: root });
    assert.equal(append.code, 2);
    assert.equal(append.stderr, "error: the journal .journal.json appends to .knowledge/config.yaml, which is not one of the store's logs\nhint: delete .knowledge/.journal.json if no lore process is running\n");
    assert.equal(readFileSync(k('config.yaml'), 'utf8'), CONFIG['.knowledge/config.yaml']);
  });

  it('leaves the journal of an operation still being applied to its process: readers do not wait for it', async (t) => {
    const root = tempStore(t, CONFIG);
    const k = (path: string): string => join(root, '.knowledge', path);
    // A live process (sleep) holds the write lock and is applying a graph update.
    const owner = spawn('sleep', ['60'], { stdio: 'ignore' });
    t.after(() => owner.kill('SIGKILL'));
    const who = { pid: owner.pid!, host: hostname() };
    writeFileSync(k('.write.lock'), JSON.stringify({ ...who, nonce: 'n', time: new Date().toISOString() }));
    mkdirSync(k('graph/entities'), { recursive: true });
    writeFileSync(k('graph/entities/.api.yaml.abc123.txn.tmp'), 'name: api\ntype: service\n');
    writeFileSync(k('.journal.json'), JSON.stringify({ version: 1, id: 'abc123', operation: 'lore graph update', ...who, time: '2026-01-01T00:00:00.000Z', state: 'commit', writes: [{ path: 'graph/entities/api.yaml', staged: 'graph/entities/.api.yaml.abc123.txn.tmp' }], deletes: [], appends: [] }));
    // With the old rule this waited 30 s for the lock, then failed.
    assert.deepEqual(await lore(['list', 'entities'], { cwd: root }), { code: 0, stdout: `no graph entities in ${join(root, '.knowledge')}\n`, stderr: '' });
    assert.equal(existsSync(k('.journal.json')), true);
    // The process dies: the next command completes its operation.
    owner.kill('SIGKILL');
    await new Promise((resolve) => owner.once('exit', resolve));
    const after = await lore(['list', 'entities'], { cwd: root });
    assert.equal(after.stderr, `lore: completed an interrupted lore graph update of process ${who.pid} (1 file) before going on\n`);
    assert.match(after.stdout, /^entity {2}api/);
  });

  it('refuses a journal that names a path outside .knowledge/', async (t) => {
    const root = tempStore(t, CONFIG);
    writeFileSync(join(root, 'victim.txt'), 'keep me');
    writeFileSync(join(root, '.knowledge/.journal.json'), JSON.stringify({ version: 1, id: 'x', operation: 'lore import', pid: deadPid(), time: '2026-01-01T00:00:00.000Z', state: 'commit', writes: [], deletes: ['../victim.txt'], appends: [] }));
    const result = await lore(['list'], { cwd: root });
    assert.equal(result.code, 2);
    assert.equal(result.stderr, 'error: the journal .journal.json names "../victim.txt", which is not inside .knowledge/\nhint: delete .knowledge/.journal.json if no lore process is running\n');
    assert.equal(readFileSync(join(root, 'victim.txt'), 'utf8'), 'keep me');
  });
});

// The inter-process lock within one process: many callers at once take turns in order (only the
// first polls the lock file), and taking a lock the same flow of calls already holds is refused at
// once instead of waiting for itself; breaking a stale lock never touches the lock of a live holder.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { breakLock, withLock } from '../src/log/lock.js';
import { seeded } from './helpers/crash.js';
import { tempDir, writeFiles } from './helpers/temp.js';

describe('withLock within one process', () => {
  it('lets 200 callers at once through one at a time, in the order they came', async (t) => {
    const target = join(tempDir(t), 'log.ndjson');
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(Array.from({ length: 200 }, (_, i) => withLock(target, async () => {
      inside++;
      most = Math.max(most, inside);
      assert.ok(existsSync(`${target}.lock`));
      await new Promise((resolve) => setImmediate(resolve));
      order.push(i);
      inside--;
    })));
    assert.deepEqual([most, order], [1, Array.from({ length: 200 }, (_, i) => i)]);
    assert.equal(existsSync(`${target}.lock`), false);
  });

  it('goes on after a holder throws', async (t) => {
    const target = join(tempDir(t), 'log.ndjson');
    const results = await Promise.allSettled([withLock(target, async () => { throw new Error('boom'); }), withLock(target, async () => 'second')]);
    assert.deepEqual(results.map((r) => r.status === 'fulfilled' ? r.value : (r.reason as Error).message), ['boom', 'second']);
  });

  it('refuses to take again a lock the same flow holds, at once', async (t) => {
    const target = join(tempDir(t), 'log.ndjson');
    const other = join(tempDir(t), 'other.ndjson');
    const nested = await withLock(target, () => withLock(other, () => withLock(target, async () => 'never').catch((error: Error) => error.message)));
    assert.equal(nested, `lore: ${target}.lock is already held by this call: a lock is not re-entrant`);
  });
});

describe('waiting for a lock file', () => {
  it('takes it once it is released, saying when it took it, not when it began to wait, and has no file of its own while it waits', async (t) => {
    // Held by a process on another host: this waiter cannot check it, and waits (staleMs is long).
    const target = join(tempDir(t), 'log.ndjson');
    const other = { pid: 1, host: `not-${hostname()}`, nonce: 'cccccccccccccccc', time: new Date().toISOString() };
    writeFileSync(`${target}.lock`, JSON.stringify(other));
    let released = 0;
    // A waiter killed while it waits must leave nothing behind (beside a user's file, lore doctor would not see it).
    let waiting: string[] = [];
    setTimeout(() => (waiting = readdirSync(dirname(target))), 750);
    setTimeout(() => {
      released = Date.now();
      rmSync(`${target}.lock`);
    }, 1500);
    const seen = await withLock(target, async () => ({ holder: JSON.parse(readFileSync(`${target}.lock`, 'utf8')) as { pid: number; time: string }, files: readdirSync(dirname(target)) }));
    assert.ok(released > 0 && Date.parse(seen.holder.time) >= released, `taken at ${seen.holder.time}, released at ${new Date(released).toISOString()}`);
    assert.deepEqual([waiting, seen.holder.pid, seen.files, readdirSync(dirname(target))], [['log.ndjson.lock'], process.pid, ['log.ndjson.lock'], []]);
  });
});

describe('breaking a stale lock', () => {
  const gone = { pid: 2 ** 22 + 1, host: hostname(), nonce: 'aaaaaaaaaaaaaaaa', time: '2026-01-01T00:00:00.000Z' };

  it('breaks a lock whose holder is gone', async (t) => {
    const path = join(tempDir(t), 'log.ndjson.lock');
    writeFileSync(path, JSON.stringify(gone));
    assert.deepEqual([await breakLock(path, gone), existsSync(path), readdirSync(dirname(path))], ['broken', false, []]);
  });

  it('leaves the lock to the live process that claimed its breaking, and takes over the claim of one killed while breaking', async (t) => {
    const path = join(tempDir(t), 'log.ndjson.lock');
    writeFileSync(path, JSON.stringify(gone));
    const claim = `${path}.break-${gone.nonce}`;
    writeFileSync(claim, JSON.stringify({ ...gone, pid: process.pid, nonce: 'dddddddddddddddd' }));
    assert.deepEqual([await breakLock(path, gone), readdirSync(dirname(path)).sort()], ['busy', ['log.ndjson.lock', `log.ndjson.lock.break-${gone.nonce}`]]);
    writeFileSync(claim, JSON.stringify({ ...gone, nonce: 'dddddddddddddddd' }));
    assert.deepEqual([await breakLock(path, gone), readdirSync(dirname(path))], ['broken', []]);
  });

  it('leaves untouched the lock of the next holder when the one it saw released the lock and exited', async (t) => {
    // The waiter read holder `gone`, which then released the lock and exited; another took it.
    const path = join(tempDir(t), 'log.ndjson.lock');
    const next = { ...gone, pid: process.pid, nonce: 'bbbbbbbbbbbbbbbb' };
    writeFileSync(path, JSON.stringify(next));
    const before = statSync(path, { bigint: true });
    assert.equal(await breakLock(path, gone), 'changed');
    const after = statSync(path, { bigint: true });
    // Not even moved aside and linked back (which changes the inode's ctime and leaves the path
    // empty for an instant, in which a third waiter could take the lock too).
    assert.deepEqual([after.ino, after.ctimeNs, readFileSync(path, 'utf8'), readdirSync(dirname(path))], [before.ino, before.ctimeNs, JSON.stringify(next), ['log.ndjson.lock']]);
  });
});

// A process holding the lock marks it with a file made exclusively, naming its pid: finding the
// mark of a live process means two held the lock at once. Killed holders leave their lock and their
// mark; the waiters then break that lock, many at once.
const WORKER = `import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
const { withLock } = await import(process.argv[2]);
const [target, rounds] = [process.argv[3], Number(process.argv[4])];
const mark = target + '.holder';
const alive = (pid) => { try { return !/^Z/.test(readFileSync('/proc/' + pid + '/stat', 'utf8').split(') ')[1]); } catch { return false; } };
for (let i = 0; i < rounds; i++) {
  await withLock(target, async () => {
    try { writeFileSync(mark, String(process.pid), { flag: 'wx' }); } catch {
      const other = Number(readFileSync(mark, 'utf8'));
      if (alive(other)) { process.stderr.write('TWO HOLDERS: ' + process.pid + ' and ' + other + '\\n'); process.exit(3); }
      writeFileSync(mark, String(process.pid));
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 2));
    unlinkSync(mark);
  }, { timeoutMs: 60000 });
  process.stdout.write(i + '\\n');
}
`;

describe('the lock across processes, holders killed with kill -9', () => {
  it('never has two live holders while 12 processes take it 40 times each and 20 of them are killed, and every one that lived finishes', async (t) => {
    const dir = tempDir(t);
    writeFiles(dir, { 'worker.mjs': WORKER });
    const lockModule = fileURLToPath(new URL('../dist/log/lock.js', import.meta.url));
    const target = join(dir, 'store');
    const random = seeded(15);
    const runs: Array<{ child: ReturnType<typeof spawn>; killed: boolean; done: Promise<{ code: number | null; stderr: string }> }> = [];
    const start = (): void => {
      const child = spawn(process.execPath, [join(dir, 'worker.mjs'), lockModule, target, '40'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      runs.push({ child, killed: false, done: new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr }))) });
    };
    for (let i = 0; i < 12; i++) start();
    for (let kills = 0; kills < 20; kills++) {
      await new Promise((resolve) => setTimeout(resolve, 50 + random() * 250));
      const alive = runs.filter((run) => !run.killed && run.child.exitCode === null);
      if (alive.length === 0) break;
      const victim = alive[Math.floor(random() * alive.length)]!;
      victim.killed = true;
      victim.child.kill('SIGKILL');
      start();
    }
    const ended = await Promise.all(runs.map((run) => run.done));
    const lived = ended.filter((_, i) => !runs[i]!.killed);
    assert.deepEqual(lived.filter((end) => end.code !== 0 || end.stderr !== ''), []);
    assert.ok(lived.length >= 12, `${lived.length} lived`);
    // No lock is left held; what killed processes left (their holder files) is all that remains.
    assert.deepEqual(readdirSync(dir).filter((name) => !/^\.lock-[0-9a-f]+\.tmp$/.test(name) && !name.endsWith('.holder')).sort(), ['worker.mjs']);
  });
});

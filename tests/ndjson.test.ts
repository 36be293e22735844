import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import type { LoreError } from '../src/errors.js';
import { KeyIndex } from '../src/log/key-index.js';
import { appendRecords, appendVersions, MAX_LINE_BYTES, readLog, replayLog, replayLogText, rewriteLog, withLog } from '../src/log/ndjson.js';
import { stampVersions } from '../src/log/versions.js';
import { tempDir } from './helpers/temp.js';

const WORKER = fileURLToPath(new URL('./fixtures/append-worker.mjs', import.meta.url));
const LONG_LINE = fileURLToPath(new URL('./fixtures/long-line.mjs', import.meta.url));

function runWorker(file: string, count: number, tag: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, file, String(count), tag], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? -1));
  });
}

const line = (id: string, timestamp: string, extra: Record<string, unknown> = {}): string => `${JSON.stringify({ id, timestamp, ...extra })}\n`;

describe('the NDJSON engine', () => {
  it('serialises 8 processes × 200 appends into exactly 1,600 valid lines', async (t) => {
    const file = join(tempDir(t), 'log', 'concurrent.ndjson');
    const codes = await Promise.all(Array.from({ length: 8 }, (_, w) => runWorker(file, 200, `w${w}`)));
    assert.deepEqual(codes, [0, 0, 0, 0, 0, 0, 0, 0]);
    const lines = readFileSync(file, 'utf8').split('\n');
    assert.equal(lines.pop(), '');
    assert.equal(lines.length, 1600);
    const ids = new Set(lines.map((l) => (JSON.parse(l) as { id: string }).id));
    assert.equal(ids.size, 1600);
    const replay = await replayLog(file);
    assert.equal(replay.records.size, 1600);
    assert.deepEqual(replay.problems, []);
    assert.equal(existsSync(`${file}.lock`), false);
  });

  it('keeps every acknowledged append when the writer is killed with SIGKILL mid-append', async (t) => {
    const file = join(tempDir(t), 'crash.ndjson');
    const acked = await new Promise<string[]>((resolve, reject) => {
      const child = spawn(process.execPath, [WORKER, file, '100000', 'k'], { stdio: ['ignore', 'pipe', 'inherit'] });
      const seen: string[] = [];
      let buffer = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        buffer += chunk;
        const parts = buffer.split('\n');
        buffer = parts.pop()!;
        for (const part of parts) if (part.startsWith('ack ')) seen.push(part.slice(4));
        if (seen.length >= 300) child.kill('SIGKILL');
      });
      child.on('error', reject);
      child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(seen) : reject(new Error(`worker exited without being killed (${signal})`))));
    });
    const replay = await replayLog(file);
    for (const id of acked) assert.ok(replay.records.has(id), `acknowledged ${id} is missing after the crash`);
    // The killed writer may have left its lock and a torn line: the next append must still work.
    await appendRecords(file, [{ id: 'after-crash', timestamp: new Date().toISOString() }], { timeoutMs: 5000 });
    const after = await replayLog(file);
    assert.ok(after.records.has('after-crash'));
    assert.equal(after.records.size, replay.records.size + 1);
  });

  it('never leaves a line cut short when the system writes only part of an append: the log is as it was, and the append fails', async (t) => {
    const file = join(tempDir(t), 'log.ndjson');
    // 8,000 bytes of whole lines; the worker's line does not fit under a file size limit of 8 KiB.
    const before = Array.from({ length: 80 }, (_, i) => line(`r-${i}`, '2026-01-01T00:00:00.000Z', { pad: 'y'.repeat(100 - 60 - String(i).length) })).join('');
    writeFileSync(file, before);
    assert.equal(before.length, 8000);
    const limited = spawnSync('bash', ['-c', 'ulimit -f 8 && exec "$0" "$@"', process.execPath, WORKER, file, '1', 'big'], { encoding: 'utf8' });
    assert.notEqual(limited.status, 0);
    assert.match(limited.stderr, /could not append to .*log\.ndjson: EFBIG: file too large/);
    assert.doesNotMatch(limited.stdout, /ack/);
    assert.equal(readFileSync(file, 'utf8'), before);
    // Without the limit, the same append lands whole.
    assert.equal(await runWorker(file, 1, 'big'), 0);
    const { problems } = await readLog(file);
    assert.deepEqual(problems, []);
    assert.equal(readFileSync(file, 'utf8').split('\n').length, 82);
  });

  it('reports a torn last line, skips it, and appends the next record on a fresh line', async (t) => {
    const file = join(tempDir(t), 'torn.ndjson');
    writeFileSync(file, `${line('a', '2026-01-01T00:00:00Z')}{"id":"b","timest`);
    const before = await replayLog(file, { displayPath: 'torn.ndjson' });
    assert.deepEqual([...before.records.keys()], ['a']);
    assert.deepEqual(before.problems.map((p) => [p.line, p.message]), [[2, 'line 2 is incomplete (a write was cut off) and was skipped']]);
    await appendRecords(file, [{ id: 'c', timestamp: '2026-01-02T00:00:00Z' }]);
    assert.equal(readFileSync(file, 'utf8').split('\n')[2], '{"id":"c","timestamp":"2026-01-02T00:00:00Z"}');
    const after = await replayLog(file, { displayPath: 'torn.ndjson' });
    assert.deepEqual([...after.records.keys()], ['a', 'c']);
    assert.deepEqual(after.problems.map((p) => [p.line, p.message]), [[2, 'line 2 is not valid JSON and was skipped']]);
  });

  it('keeps the latest line per id by timestamp, then by line order', async (t) => {
    const file = join(tempDir(t), 'latest.ndjson');
    writeFileSync(file, [
      line('x', '2026-01-02T00:00:00Z', { v: 'newest' }),
      line('x', '2026-01-01T00:00:00Z', { v: 'older, but later in the file (a union merge)' }),
      line('y', '2026-01-01T00:00:00Z', { v: 'first' }),
      line('y', '2026-01-01T00:00:00Z', { v: 'same time, later line' }),
    ].join(''));
    const replay = await replayLog<{ v: string }>(file);
    assert.deepEqual([...replay.records].map(([id, l]) => [id, l.value.v, l.line]), [['x', 'newest', 1], ['y', 'same time, later line', 4]]);
  });

  it('deletes with a tombstone and lets a newer line bring the record back', async (t) => {
    const file = join(tempDir(t), 'tomb.ndjson');
    writeFileSync(file, line('a', '2026-01-01T00:00:00Z') + line('b', '2026-01-01T00:00:00Z') + line('a', '2026-01-02T00:00:00Z', { deleted: true }) + line('b', '2026-01-02T00:00:00Z', { deleted: true }) + line('b', '2026-01-03T00:00:00Z'));
    assert.deepEqual([...(await replayLog(file)).records.keys()], ['b']);
  });

  it('skips lines its validator rejects, saying why', async (t) => {
    const file = join(tempDir(t), 'valid.ndjson');
    writeFileSync(file, line('a', '2026-01-01T00:00:00Z') + '[1,2]\n' + line('b', 'x', { bad: true }));
    const replay = await replayLog(file, { displayPath: 'v', validate: (v) => ((v as { bad?: boolean }).bad ? 'has bad set' : undefined) });
    assert.deepEqual([...replay.records.keys()], ['a']);
    assert.deepEqual(replay.problems.map((p) => p.message), ['line 2 is not a JSON object; skipped', 'line 3 has bad set; skipped']);
  });

  it('replays text held in memory (a committed log from git) exactly as it replays the file', async (t) => {
    const file = join(tempDir(t), 'text.ndjson');
    const text = line('x', '2026-01-02T00:00:00Z', { v: 'newest' }) + line('x', '2026-01-01T00:00:00Z', { v: 'older' }) + line('y', '2026-01-01T00:00:00Z', { deleted: true }) + 'nope\n{"id":"z"';
    writeFileSync(file, text);
    const fromFile = await replayLog(file, { displayPath: 'log' });
    const fromText = replayLogText(text, { displayPath: 'log' });
    assert.deepEqual(fromText, fromFile);
    assert.deepEqual([[...fromText.records.keys()], [...fromText.deleted.keys()], fromText.lines, fromText.problems.map((p) => p.message)], [['x'], ['y'], 5, ['line 4 is not valid JSON and was skipped', 'line 5 is incomplete (a write was cut off) and was skipped']]);
    assert.deepEqual(replayLogText(''), { lines: 0, problems: [], records: new Map(), deleted: new Map() });
  });

  it('rewrites a log atomically under its lock (compaction)', async (t) => {
    const file = join(tempDir(t), 'compact.ndjson');
    writeFileSync(file, line('a', '2026-01-01T00:00:00Z', { v: 1 }) + line('a', '2026-01-02T00:00:00Z', { v: 2 }) + line('b', '2026-01-01T00:00:00Z'));
    const result = await rewriteLog<{ id: string }>(file, (lines) => {
      const latest = new Map(lines.map((l) => [l.value.id, l.value]));
      return [...latest.values()];
    });
    assert.deepEqual(result, { before: 3, after: 2 });
    assert.equal(readFileSync(file, 'utf8'), '{"id":"a","timestamp":"2026-01-02T00:00:00Z","v":2}\n{"id":"b","timestamp":"2026-01-01T00:00:00Z"}\n');
  });

  it('breaks a lock left by a dead process, and times out on a live one', async (t) => {
    const dir = tempDir(t);
    const file = join(dir, 'locked.ndjson');
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), nonce: 'dead', time: new Date().toISOString() }));
    await appendRecords(file, [{ id: 'a', timestamp: '2026-01-01T00:00:00Z' }], { timeoutMs: 2000 });
    assert.equal(existsSync(`${file}.lock`), false);

    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), nonce: 'alive', time: new Date().toISOString() }));
    await assert.rejects(appendRecords(file, [{ id: 'b', timestamp: '2026-01-01T00:00:00Z' }], { timeoutMs: 200 }), (error: LoreError) => {
      assert.equal(error.code, 'LOCK_TIMEOUT');
      assert.match(error.message, new RegExp(`held by process ${process.pid} on `));
      assert.equal(error.hint, `if no lore process is running, delete ${file}.lock`);
      return true;
    });
  });

  it('never breaks the lock of a live holder however old it is, and breaks one whose pid now belongs to another process', async (t) => {
    const file = join(tempDir(t), 'locked.ndjson');
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), nonce: 'old-but-alive', time: hourAgo }));
    await assert.rejects(appendRecords(file, [{ id: 'a', timestamp: '2026-01-01T00:00:00Z' }], { timeoutMs: 300 }), { code: 'LOCK_TIMEOUT' });
    // The same pid, but a start time that is not this process's: the holder died and its pid was reused.
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), nonce: 'reused', time: hourAgo, started: '1' }));
    await appendRecords(file, [{ id: 'a', timestamp: '2026-01-01T00:00:00Z' }], { timeoutMs: 2000 });
    assert.equal(readFileSync(file, 'utf8'), '{"id":"a","timestamp":"2026-01-01T00:00:00Z"}\n');
  });

  it('runs a read-modify-append as one locked step', async (t) => {
    const file = join(tempDir(t), 'rma.ndjson');
    await appendRecords(file, [{ id: 'counter', timestamp: '2026-01-01T00:00:00.000Z', n: 0 }]);
    const bump = (): Promise<void> => withLog(file, async (writer) => {
      const current = (await replayLog<{ n: number }>(file)).records.get('counter')!.value.n;
      await writer.append([{ id: 'counter', timestamp: new Date(Date.parse('2026-01-01T00:00:00.000Z') + current + 1).toISOString(), n: current + 1 }]);
    });
    await Promise.all(Array.from({ length: 20 }, bump));
    assert.equal((await replayLog<{ n: number }>(file)).records.get('counter')!.value.n, 20);
  });

  it('reads a line of any length up to the cap whole, and the lines after it', async (t) => {
    const file = join(tempDir(t), 'long.ndjson');
    const pad = 'é'.repeat(1024 * 1024 + 3); // 2 MiB of UTF-8, split across read chunks mid-character
    writeFileSync(file, line('a', '2026-01-01T00:00:00Z') + line('b', '2026-01-01T00:00:00Z', { pad }) + line('c', '2026-01-01T00:00:00Z'));
    const replay = await replayLog<{ pad?: string }>(file);
    assert.deepEqual([[...replay.records.keys()], replay.problems, replay.records.get('b')!.value.pad === pad], [['a', 'b', 'c'], [], true]);
  });

  it('reports a line over the cap with its line number, skips it and reads on, also in text from git', async (t) => {
    const file = join(tempDir(t), 'over.ndjson');
    const long = `{"id":"x","pad":"${'x'.repeat(MAX_LINE_BYTES)}"}`;
    writeFileSync(file, line('a', '2026-01-01T00:00:00Z') + `${long}\n` + line('c', '2026-01-01T00:00:00Z'));
    const expected = [['a', 'c'], [[2, `line 2 is ${long.length} bytes, over the limit of 67108864 bytes for one log line, and was skipped`]]];
    const replay = await replayLog(file, { displayPath: 'over.ndjson' });
    assert.deepEqual([[...replay.records.keys()], replay.problems.map((p) => [p.line, p.message])], expected);
    const text = replayLogText(readFileSync(file, 'utf8'), { displayPath: 'over.ndjson' });
    assert.deepEqual([[...text.records.keys()], text.problems.map((p) => [p.line, p.message])], expected);
    assert.equal((await readLog(file)).lines, 3);
  });

  it('drops a line over the cap as it arrives: 512 MiB in one line is skipped in bounded memory', () => {
    const out = JSON.parse(execFileSync(process.execPath, [LONG_LINE, '512'], { encoding: 'utf8' })) as { events: unknown[]; consumed: number; maxRssKb: number };
    assert.deepEqual([out.events, out.consumed], [[['tooLong', 512 * 1024 * 1024, true], ['line', '{"id":"after"}', true]], 512 * 1024 * 1024 + 16]);
    assert.ok(out.maxRssKb < 300 * 1024, `peak memory ${out.maxRssKb} KiB`);
  });

  it('refuses to append a record that would make a line over the cap, and writes nothing', async (t) => {
    const file = join(tempDir(t), 'big.ndjson');
    writeFileSync(file, line('a', '2026-01-01T00:00:00Z'));
    const record = { id: 'big', timestamp: '2026-01-01T00:00:00Z', pad: 'x'.repeat(MAX_LINE_BYTES) };
    await assert.rejects(appendRecords(file, [{ id: 'small', timestamp: '2026-01-01T00:00:00Z' }, record], { displayPath: 'big.ndjson' }), (error: LoreError) => {
      assert.deepEqual([error.code, error.message], ['TOO_LARGE', `record big would be a line of ${JSON.stringify(record).length} bytes in big.ndjson, over the limit of 67108864 bytes (64 MiB) for one log line; nothing was written`]);
      return true;
    });
    assert.equal(readFileSync(file, 'utf8'), line('a', '2026-01-01T00:00:00Z'));
  });

  it('refuses to rewrite a log with a line it cannot read, naming file and line, and changes nothing', async (t) => {
    const file = join(tempDir(t), 'refuse.ndjson');
    const text = line('a', '2026-01-01T00:00:00Z') + 'garbage\n' + line('b', '2026-01-01T00:00:00Z', { bad: true }) + line('c', '2026-01-01T00:00:00Z');
    writeFileSync(file, text);
    const validate = (v: unknown): string | undefined => ((v as { bad?: boolean }).bad ? 'has bad set' : undefined);
    await assert.rejects(rewriteLog(file, (lines) => lines.map((l) => l.value), { displayPath: 'refuse.ndjson', validate }), (error: LoreError) => {
      assert.equal(error.code, 'INVALID_STORE');
      assert.equal(error.exitCode, 1);
      assert.equal(error.message, 'refusing to rewrite refuse.ndjson: line 2 is not valid JSON (and 1 more line), and a rewrite would lose them');
      assert.deepEqual(error.problems.map((p) => [p.file, p.line, p.message]), [['refuse.ndjson', 2, 'line 2 is not valid JSON and was skipped'], ['refuse.ndjson', 3, 'line 3 has bad set; skipped']]);
      return true;
    });
    assert.equal(readFileSync(file, 'utf8'), text);
  });

  it('stamps a new version after the latest one of its key, even one dated in the future', async (t) => {
    const file = join(tempDir(t), 'versions.ndjson');
    writeFileSync(file, line('r', '2099-01-01T00:00:00.000Z', { v: 'ahead' }) + line('s', '2020-01-01T00:00:00.000Z', { v: 'old' }));
    const now = '2026-01-01T00:00:00.000Z';
    const written = await appendVersions(file, [{ id: 'r', v: 'new', timestamp: now }, { id: 's', v: 'new', timestamp: now }, { id: 't', v: 'new', timestamp: now }]);
    assert.deepEqual(written.map((r) => r.timestamp), ['2099-01-01T00:00:00.001Z', now, now]);
    assert.deepEqual([...(await replayLog<{ v: string }>(file)).records.values()].map((l) => l.value.v), ['new', 'new', 'new']);
    // Two versions of one key in one batch: the second goes after the first.
    const batch = [{ id: 'k', at: 5 }, { id: 'k', at: 5 }];
    stampVersions(batch, { keyOf: (r) => r.id, latest: () => 9, timeOf: (r) => r.at, stamp: (r, at) => (r.at = Date.parse(at)) });
    assert.deepEqual(batch.map((r) => r.at), [10, 11]);
  });

  it('keeps a key index up to date by reading only what was appended, and reads again a log replaced or edited', async (t) => {
    const file = join(tempDir(t), 'indexed.ndjson');
    const options = { summarize: (v: { v: string }) => v.v, version: 'test' };
    writeFileSync(file, line('a', '2026-01-01T00:00:00Z', { v: 'a1' }) + line('b', '2026-01-01T00:00:00Z', { v: 'b1' }) + '{"torn');
    const first = await KeyIndex.open(file, undefined, options);
    assert.deepEqual([first.get('a')?.summary, first.get('b')?.summary, first.lines, first.skipped], ['a1', 'b1', 2, []]);
    // A saved index whose entry was changed: only appended lines are read, so the change shows.
    const saved = JSON.parse(JSON.stringify(first)) as { entries: string[] };
    saved.entries = saved.entries.map((bucket) => bucket.replace('"a1"', '"from the saved index"'));
    await appendRecords(file, [{ id: 'c', timestamp: '2026-01-02T00:00:00Z', v: 'c1' }]);
    const next = await KeyIndex.open(file, saved, options);
    assert.deepEqual([next.get('a')?.summary, next.get('c')?.summary, next.lines, next.problems.map((p) => p.message)], ['from the saved index', 'c1', 4, ['line 3 is not valid JSON and was skipped']]);
    assert.equal((await KeyIndex.open(file, JSON.parse(JSON.stringify(next)), options)).get('a')?.summary, 'from the saved index');
    // Edited in place (same size) or replaced: read again from the start.
    writeFileSync(file, readFileSync(file, 'utf8').replace('"a1"', '"A1"'));
    assert.equal((await KeyIndex.open(file, JSON.parse(JSON.stringify(next)), options)).get('a')?.summary, 'A1');
    writeFileSync(`${file}.new`, line('z', '2026-01-01T00:00:00Z', { v: 'z' }));
    renameSync(`${file}.new`, file);
    const replaced = await KeyIndex.open(file, JSON.parse(JSON.stringify(next)), options);
    assert.deepEqual([replaced.get('a'), replaced.get('z')?.summary, replaced.lines], [undefined, 'z', 1]);
    assert.equal((await KeyIndex.open(file, JSON.parse(JSON.stringify(replaced)), { ...options, version: 'other' })).lines, 1);
  });

  it('counts live keys per class in a key index, and compacts the versions it no longer needs', async (t) => {
    const file = join(tempDir(t), 'counted.ndjson');
    const options = { summarize: (v: { kind: string }) => v.kind, classify: (kind: string) => kind, version: 'test' };
    writeFileSync(file, line('x', '2026-01-01T00:00:00Z', { kind: 'done' }));
    const index = await KeyIndex.open(file, undefined, options);
    for (let i = 1; i <= 80; i++) {
      await appendRecords(file, [{ id: 'a', timestamp: new Date(Date.UTC(2026, 0, 2, 0, 0, i)).toISOString(), kind: 'open' }]);
      await index.refresh();
    }
    await appendRecords(file, [{ id: 'x', timestamp: '2026-01-03T00:00:00Z', deleted: true, kind: 'done' }, { id: 'b', timestamp: '2020-01-01T00:00:00Z', kind: 'open' }]);
    await index.refresh();
    const saved = index.toJSON();
    assert.deepEqual([index.counts, index.latest('a'), index.get('x')?.deleted, saved.keys, saved.entryLines <= 2 * 3 + 64], [{ done: 0, open: 2 }, Date.UTC(2026, 0, 2, 0, 1, 20), true, 3, true]);
    const fresh = await KeyIndex.open(file, undefined, options);
    assert.deepEqual([fresh.counts, fresh.toJSON().entryLines, fresh.lines], [index.counts, 3, 83]);
  });
});

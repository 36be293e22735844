import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cacheWritesDone, deferCacheWrites } from '../src/fs/cache-writes.js';
import { openIndex, parseIndex, serializeIndex } from '../src/knowledge/index-snapshot.js';
import { allEntries, loadKnowledgeIndex } from '../src/knowledge/knowledge-index.js';
import { buildPlanIndex } from '../src/knowledge/plan-index.js';
import { renderRecord } from '../src/store/write.js';
import { lore, type CliResult } from './helpers/cli.js';
import { tempDir } from './helpers/temp.js';
import { entry, knowledgeStore } from './helpers/knowledge.js';

const ENTRIES = [
  entry({ id: 'pro-no-env', title: 'Never commit env files', description: 'Secrets stay out of git.', keywords: ['secrets', 'env'], priority: 'critical', globs: ['**/.env'] }),
  entry({ id: 'rec-retry', title: 'Retry flaky uploads', description: 'Uploads retry with backoff.', keywords: ['upload'] }),
  entry({ id: 'learn-cache', title: 'The cache is keyed by content', description: 'Stale uploads caches were a bug once.', scope: 'project', projectId: 'shop', validUntil: '2999-12-31' }),
];
const SNAPSHOT = '.knowledge/.cache/knowledge-index.bin';
const REC = '.knowledge/knowledge/recommendations/rec-retry.yaml';
const KEY = 'stamp:key';
const HOUR_AGO = new Date(Date.now() - 3600_000);

/** Sets every entry file's times an hour back: files that recent are never trusted by their stamp. */
function age(root: string, at = HOUR_AGO): void {
  for (const dir of ['recommendations', 'prohibitions', 'learnings']) {
    const folder = join(root, '.knowledge/knowledge', dir);
    if (existsSync(folder)) for (const name of readdirSync(folder)) utimesSync(join(folder, name), at, at);
  }
}

// How many entry vectors a run computed differs with what the caches held; the rest must not.
const settled = (result: CliResult): CliResult => ({ ...result, stdout: result.stdout.replace(/"computed": \d+/g, '"computed": N') });
const query = async (root: string) => settled(await lore(['query', 'retry the uploads', '--json'], { cwd: root }));
const check = async (root: string) => settled(await lore(['check-plan', '--json'], { cwd: root, input: JSON.stringify({ task: { description: 'upload retries' }, plan: { approach: 'keep secrets in env', fileChanges: [{ path: 'config/.env' }] } }) }));

/** The answers of a store without any cache: what every answer must equal. */
async function uncached(root: string): Promise<{ query: string; check: string }> {
  rmSync(join(root, '.knowledge/.cache'), { recursive: true, force: true });
  return { query: (await query(root)).stdout, check: (await check(root)).stdout };
}

describe('the knowledge index snapshot', () => {
  it('holds the tables and entries of the index it was made from', () => {
    const plan = buildPlanIndex(ENTRIES);
    const loaded = parseIndex(serializeIndex(ENTRIES, plan, 'identity', [{ severity: 'error', file: 'f.yaml', message: 'bad' }], KEY), KEY);
    assert.ok(loaded !== undefined);
    assert.equal(loaded.identity, 'identity');
    assert.deepEqual(loaded.problems, [{ severity: 'error', file: 'f.yaml', message: 'bad' }]);
    assert.deepEqual(loaded.ids, ['pro-no-env', 'rec-retry', 'learn-cache']);
    assert.deepEqual(loaded.types, ['prohibition', 'recommendation', 'learning']);
    assert.deepEqual(loaded.priorities, ['critical', 'medium', 'medium']);
    assert.deepEqual(loaded.applicability[2], { enabled: true, from: -Infinity, until: Date.parse('2999-12-31T23:59:59.999Z'), scope: 'project', projectId: 'shop', agentTypes: [] });
    assert.deepEqual(loaded.plan, plan);
    assert.deepEqual([0, 1, 2].map((doc) => loaded.entry(doc)), ENTRIES);
  });

  it('is ignored when made under another key, truncated, damaged or not a snapshot at all', (t) => {
    const bytes = serializeIndex(ENTRIES, buildPlanIndex(ENTRIES), 'identity', [], KEY);
    const tables = Buffer.from(bytes);
    const body = Math.ceil((4 + bytes.readUInt32LE(0)) / 8) * 8; // the header, padded to 8 bytes
    tables[body + 4 * 4] = tables[body + 4 * 4]! ^ 1; // the first entry's sum, after the four offsets
    const id = Buffer.from(bytes);
    id[bytes.indexOf(`"${ENTRIES[0]!.id}"`) + 1] = id[bytes.indexOf(`"${ENTRIES[0]!.id}"`) + 1]! ^ 2; // an id in the header
    const cases: Array<[string, Buffer, string]> = [
      ['another key', bytes, 'other:key'],
      ['truncated', bytes.subarray(0, bytes.length - 1), KEY],
      ['one byte longer', Buffer.concat([bytes, Buffer.from([0])]), KEY],
      ['a flipped bit in the offsets and sums', tables, KEY],
      ['a flipped bit in an id of the header', id, KEY],
      ['empty', Buffer.alloc(0), KEY],
    ];
    for (const [name, damaged, key] of cases) assert.equal(parseIndex(damaged, key), undefined, name);
    // The same from a file, which lore opens without reading the entries' JSON.
    const dir = tempDir(t);
    for (const [name, damaged, key] of cases) {
      writeFileSync(join(dir, 'index.bin'), damaged);
      assert.equal(openIndex(join(dir, 'index.bin'), key), undefined, `${name}, from a file`);
    }
    assert.equal(openIndex(join(dir, 'missing.bin'), KEY), undefined);
  });

  it('opened from its file, gives what parsing its bytes gives, reading entries from the file as it was opened', (t) => {
    const path = join(tempDir(t), 'index.bin');
    const bytes = serializeIndex(ENTRIES, buildPlanIndex(ENTRIES), 'identity', [{ severity: 'error', file: 'f.yaml', message: 'bad' }], KEY);
    writeFileSync(path, bytes);
    const opened = openIndex(path, KEY);
    const parsed = parseIndex(bytes, KEY);
    assert.ok(opened !== undefined && parsed !== undefined);
    const { entry: _o, ...openedTables } = opened;
    const { entry: _p, ...parsedTables } = parsed;
    assert.deepEqual(openedTables, parsedTables);
    // Another snapshot written over it (as lore writes: a new file renamed into place) is another file.
    const other = [entry({ id: 'rec-other', title: 'Something else entirely', description: 'Not the same.' })];
    writeFileSync(`${path}.new`, serializeIndex(other, buildPlanIndex(other), 'other', [], KEY));
    renameSync(`${path}.new`, path);
    for (let k = 0; k < 30; k++) assert.deepEqual(opened.entry(k % 3), ENTRIES[k % 3], `read ${k + 1}`);
  });

  it('reads entries that lie across the blocks of its file, in any order, each as it was written', (t) => {
    // 40 entries of 1 to 40 KB: about 800 KB of JSON, read in 64 KiB blocks, most blocks cut through an entry.
    const big = Array.from({ length: 40 }, (_, i) => entry({ id: `rec-big-${i}`, title: `Big ${i}`, description: `${i} `.repeat(500 + ((i * 7919) % 40) * 500) }));
    const path = join(tempDir(t), 'index.bin');
    const bytes = Buffer.from(serializeIndex(big, buildPlanIndex(big), 'identity', [], KEY));
    // One bit flipped inside entry 30's JSON: only that entry is refused.
    const tailStart = bytes.length - big.reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(e)), 0);
    const flip = tailStart + big.slice(0, 30).reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(e)), 0) + 100;
    bytes[flip] = bytes[flip]! ^ 1;
    writeFileSync(path, bytes);
    const opened = openIndex(path, KEY)!;
    const order = [...big.keys()].sort((a, b) => ((a * 31) % 40) - ((b * 31) % 40));
    for (const round of [1, 2]) {
      for (const doc of order) {
        if (doc === 30) assert.throws(() => opened.entry(doc), { code: 'IO', message: '.knowledge/.cache/knowledge-index.bin is damaged (the entry rec-big-30 does not match its checksum)' });
        else assert.deepEqual(opened.entry(doc), big[doc], `round ${round}, entry ${doc}`);
      }
    }
  });

  it('lets go of its file once the snapshot is dropped: a process opening it 3,000 times keeps its descriptors bounded', (t) => {
    const path = join(tempDir(t), 'index.bin');
    writeFileSync(path, serializeIndex(ENTRIES, buildPlanIndex(ENTRIES), 'identity', [], KEY));
    // A fresh process (garbage collection on demand), through the built module, as the daemon runs it.
    const script = `
      import { readdirSync } from 'node:fs';
      import { openIndex } from ${JSON.stringify(new URL('../dist/knowledge/index-snapshot.js', import.meta.url).href)};
      const fds = () => readdirSync('/proc/self/fd').length;
      const before = fds();
      // In a function of its own: a suspended top-level await may keep its last value reachable.
      const openMany = () => {
        const kept = [];
        for (let i = 0; i < 3000; i++) {
          const snapshot = openIndex(${JSON.stringify(path)}, ${JSON.stringify(KEY)});
          if (snapshot.entry(1).id !== 'rec-retry') throw new Error('not the entry');
          if (i % 100 === 0) kept.push(snapshot);
        }
        return kept;
      };
      let kept = openMany();
      const held = fds() - before;
      kept = undefined;
      for (let k = 0; k < 20; k++) { globalThis.gc(); await new Promise((resolve) => setTimeout(resolve, 5)); }
      console.log(JSON.stringify({ held, after: fds() - before }));`;
    const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const { held, after } = JSON.parse(run.stdout) as { held: number; after: number };
    // The 30 snapshots kept hold their files; once dropped, none is left open.
    assert.ok(held >= 30, `${held} descriptors held by 30 snapshots`);
    assert.equal(after, 0);
  });

  it('refuses an entry whose JSON does not match its checksum, naming the file to delete', (t) => {
    const bytes = Buffer.from(serializeIndex(ENTRIES, buildPlanIndex(ENTRIES), 'identity', [], KEY));
    bytes[bytes.length - 5] = bytes[bytes.length - 5]! ^ 1; // inside the last entry's JSON, which is checked when it is read
    const loaded = parseIndex(bytes, KEY);
    assert.ok(loaded !== undefined);
    assert.deepEqual(loaded.entry(0), ENTRIES[0]);
    assert.throws(() => loaded.entry(2), { code: 'IO', message: '.knowledge/.cache/knowledge-index.bin is damaged (the entry learn-cache does not match its checksum)', hint: 'delete .knowledge/.cache/knowledge-index.bin: lore rebuilds it from the entry files' });
    const path = join(tempDir(t), 'index.bin');
    writeFileSync(path, bytes);
    const opened = openIndex(path, KEY)!;
    assert.deepEqual(opened.entry(0), ENTRIES[0]);
    assert.throws(() => opened.entry(2), { code: 'IO', message: '.knowledge/.cache/knowledge-index.bin is damaged (the entry learn-cache does not match its checksum)' });
  });

  it('answers as the files do after an entry is edited in place, added or deleted', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES);
    age(root);
    const first = await query(root);
    assert.equal(first.code, 0);
    assert.ok(existsSync(join(root, SNAPSHOT)), 'a query writes the snapshot');
    const firstCheck = await check(root);
    assert.equal(firstCheck.code, 1, 'the critical prohibition blocks');
    // Without the record caches, an answer from the snapshot alone is the same.
    for (const name of readdirSync(join(root, '.knowledge/.cache'))) if (name.startsWith('records-')) rmSync(join(root, '.knowledge/.cache', name));
    assert.deepEqual(await query(root), first);
    assert.deepEqual(await check(root), firstCheck);
    assert.deepEqual(readdirSync(join(root, '.knowledge/.cache')).filter((name) => name.startsWith('records-')), [], 'the snapshot answered: the record cache was not read');

    // Edited in place: the same size, the same inode, only the bytes and the time differ.
    const before = readFileSync(join(root, REC), 'utf8');
    const edited = before.replace('Retry flaky uploads', 'Avoid flaky uploads');
    assert.equal(edited.length, before.length);
    const inode = statSync(join(root, REC)).ino;
    writeFileSync(join(root, REC), edited);
    age(root, new Date(HOUR_AGO.getTime() + 1000));
    assert.equal(statSync(join(root, REC)).ino, inode);
    const afterEdit = await query(root);
    assert.match(afterEdit.stdout, /Avoid flaky uploads/);
    assert.doesNotMatch(afterEdit.stdout, /Retry flaky uploads/);
    const editedCheck = await check(root);
    assert.deepEqual({ query: afterEdit.stdout, check: editedCheck.stdout }, await uncached(root));

    // Added.
    age(root);
    await query(root);
    writeFileSync(join(root, '.knowledge/knowledge/recommendations/rec-upload-sizes.yaml'), renderRecord('recommendation', entry({ id: 'rec-upload-sizes', title: 'Cap upload sizes', keywords: ['upload'] })));
    age(root);
    const afterAdd = await query(root);
    assert.match(afterAdd.stdout, /rec-upload-sizes/);
    assert.deepEqual({ query: afterAdd.stdout, check: (await check(root)).stdout }, await uncached(root));

    // Deleted.
    age(root);
    await query(root);
    rmSync(join(root, '.knowledge/knowledge/prohibitions/pro-no-env.yaml'));
    const afterDelete = await check(root);
    assert.equal(afterDelete.code, 0, 'the deleted prohibition no longer blocks');
    assert.doesNotMatch(afterDelete.stdout, /pro-no-env/);
    assert.deepEqual({ query: (await query(root)).stdout, check: afterDelete.stdout }, await uncached(root));
  });

  it('sees an edit in place that keeps the size and inode and puts back the exact modification time', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES);
    // An hour back, in whole seconds: a time utimes can put back exactly.
    age(root, new Date(Math.floor(HOUR_AGO.getTime() / 1000) * 1000));
    assert.match((await query(root)).stdout, /Retry flaky uploads/);
    assert.ok(existsSync(join(root, SNAPSHOT)));
    const before = statSync(join(root, REC));
    // File times come from a coarse clock: let it tick, so the edit's change time differs.
    await new Promise((resolve) => setTimeout(resolve, 30));
    writeFileSync(join(root, REC), readFileSync(join(root, REC), 'utf8').replace('Retry flaky uploads', 'Avoid flaky uploads'));
    utimesSync(join(root, REC), before.atime, before.mtime);
    const after = statSync(join(root, REC));
    assert.deepEqual([after.size, after.ino, after.mtimeMs], [before.size, before.ino, before.mtimeMs]);
    const edited = await query(root);
    assert.match(edited.stdout, /Avoid flaky uploads/);
    assert.doesNotMatch(edited.stdout, /Retry flaky uploads/);
    assert.deepEqual((await uncached(root)).query, edited.stdout);
  });

  it('keeps the problems of invalid files: check-plan still fails closed when the snapshot answers', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES, { files: { '.knowledge/knowledge/prohibitions/pro-broken.yaml': 'id: pro-broken\ntype: prohibition\n' } });
    age(root);
    const first = await check(root);
    assert.equal(first.code, 1);
    assert.match(first.stdout, /"code": "INVALID_STORE"/);
    assert.match(first.stdout, /pro-broken\.yaml/);
    assert.ok(existsSync(join(root, SNAPSHOT)));
    for (const name of readdirSync(join(root, '.knowledge/.cache'))) if (name.startsWith('records-')) rmSync(join(root, '.knowledge/.cache', name));
    assert.deepEqual(await check(root), first, 'from the snapshot, the same refusal');
  });

  it('is not written while an entry file is too recent to be trusted by its times', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES);
    assert.equal((await query(root)).code, 0);
    assert.equal(existsSync(join(root, SNAPSHOT)), false);
    age(root);
    assert.equal((await query(root)).code, 0);
    assert.equal(existsSync(join(root, SNAPSHOT)), true);
  });

  it('is written after the answer in a long-lived process, as a short one writes it', async (t) => {
    const { root, store } = await knowledgeStore(t, ENTRIES);
    age(root);
    const caches = join(root, '.knowledge/.cache');
    const files = ['knowledge-bm25.bin', 'knowledge-index.bin', 'records-learning.json', 'records-prohibition.json', 'records-recommendation.json'];
    const written = (): string[] => (existsSync(caches) ? readdirSync(caches).filter((name) => files.includes(name)).sort() : []);
    await loadKnowledgeIndex(store);
    assert.deepEqual(written(), files);
    // The same bytes, but for the moment each record cache was written.
    const contents = (): string[] => files.map((name) => readFileSync(join(caches, name), 'latin1').replace(/"writtenAt":\d+/, '"writtenAt":T'));
    const bytes = contents();
    rmSync(caches, { recursive: true });
    const stopDeferring = deferCacheWrites();
    try {
      const { index } = await loadKnowledgeIndex(store);
      assert.deepEqual(allEntries(index.entries).map((e) => e.id), ['rec-retry', 'pro-no-env', 'learn-cache']);
      assert.deepEqual(written(), []); // the answer is ready before any cache is written
      await cacheWritesDone();
      assert.deepEqual(written(), files);
      assert.deepEqual(contents(), bytes);
    } finally {
      stopDeferring();
    }
    rmSync(caches, { recursive: true });
    await loadKnowledgeIndex(store); // no longer deferred: written before the load returns
    assert.deepEqual(written(), files);
  });

  it('is not used for a store with extends sources configured', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES, { config: 'extends:\n  - name: org\n    url: https://example.com/org.git\n' });
    age(root);
    const first = await query(root);
    assert.equal(existsSync(join(root, SNAPSHOT)), false);
    assert.deepEqual(await query(root), first);
  });
});

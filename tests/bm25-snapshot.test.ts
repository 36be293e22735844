import assert from 'node:assert/strict';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildBm25, scoreBm25 } from '../src/knowledge/bm25.js';
import { bm25SnapshotKey, parseBm25, serializeBm25 } from '../src/knowledge/bm25-snapshot.js';
import { renderRecord } from '../src/store/write.js';
import { lore } from './helpers/cli.js';
import { entry, knowledgeStore } from './helpers/knowledge.js';
import { tempDir } from './helpers/temp.js';

const ENTRIES = [
  entry({ id: 'pro-no-env', title: 'Never commit env files', description: 'Secrets stay out of git.', keywords: ['secrets', 'env'] }),
  entry({ id: 'rec-retry', title: 'Retry flaky uploads', description: 'Uploads retry with backoff.', keywords: ['upload'] }),
  entry({ id: 'learn-cache', title: 'The cache is keyed by content', description: 'Stale caches were a bug once.' }),
];
const SNAPSHOT = '.knowledge/.cache/knowledge-bm25.bin';
const KEY = bm25SnapshotKey('a'.repeat(40), 3);

describe('the BM25 snapshot', () => {
  it('holds exactly the postings, norms and scores of the index it was made from', () => {
    const index = buildBm25(ENTRIES, 3);
    const loaded = parseBm25(serializeBm25(index, KEY), KEY);
    assert.ok(loaded !== undefined);
    assert.equal(loaded.size, 3);
    assert.deepEqual([...loaded.norms], [...index.norms]);
    assert.deepEqual([...loaded.postings].map(([term, p]) => [term, [...p.docs], [...p.tfs]]), [...index.postings].map(([term, p]) => [term, [...p.docs], [...p.tfs]]));
    assert.deepEqual([...scoreBm25(loaded, ['upload', 'secret', 'cache'])], [...scoreBm25(index, ['upload', 'secret', 'cache'])]);
  });

  it('is ignored when foreign, truncated, damaged or not a snapshot at all', () => {
    const bytes = serializeBm25(buildBm25(ENTRIES, 3), KEY);
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 5] = flipped[flipped.length - 5]! ^ 1;
    const cases: Array<[string, Buffer, string]> = [
      ['another key', bytes, bm25SnapshotKey('b'.repeat(40), 3)],
      ['another keyword boost', bytes, bm25SnapshotKey('a'.repeat(40), 2)],
      ['truncated', bytes.subarray(0, bytes.length - 1), KEY],
      ['one byte longer', Buffer.concat([bytes, Buffer.from([0])]), KEY],
      ['a flipped bit in the body', flipped, KEY],
      ['empty', Buffer.alloc(0), KEY],
      ['text', Buffer.from('{"format":"lore-bm25/1"}'), KEY],
    ];
    for (const [name, damaged, key] of cases) assert.equal(parseBm25(damaged, key), undefined, name);
    // A copy starting off an 8-byte boundary still loads.
    const shifted = Buffer.alloc(bytes.length + 3).subarray(3);
    bytes.copy(shifted);
    assert.equal(parseBm25(shifted, KEY)?.size, 3);
  });

  it('is written by a query, rebuilt when damaged, and rewritten when an entry changes', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES, { config: 'matching:\n  use_semantic: false\n' });
    const query = () => lore(['query', 'retry the uploads', '--json'], { cwd: root });
    const first = await query();
    assert.equal(first.code, 0);
    const written = readFileSync(join(root, SNAPSHOT));
    assert.equal(parseBm25(written, parseKey(written))?.size, 3);

    assert.deepEqual(await query(), first, 'from the snapshot, the same output');
    assert.deepEqual(readFileSync(join(root, SNAPSHOT)), written, 'a current snapshot is not rewritten');

    writeFileSync(join(root, SNAPSHOT), written.subarray(0, 100));
    assert.deepEqual(await query(), first, 'a truncated snapshot is ignored');
    assert.deepEqual(readFileSync(join(root, SNAPSHOT)), written, 'and rebuilt');

    writeFileSync(join(root, '.knowledge/knowledge/recommendations/rec-retry.yaml'), renderRecord('recommendation', { ...ENTRIES[1]!, keywords: ['upload', 'retry'] }));
    const changed = await query();
    assert.equal(changed.code, 0);
    assert.notDeepEqual(changed.stdout, first.stdout);
    const rewritten = readFileSync(join(root, SNAPSHOT));
    assert.notEqual(parseKey(rewritten), parseKey(written));
    assert.deepEqual([...parseBm25(rewritten, parseKey(rewritten))!.postings.get('retry')!.tfs], [3.5]);
  });

  it('is never read or written through a symlink', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES, { config: 'matching:\n  use_semantic: false\n' });
    const first = await lore(['query', 'retry the uploads', '--json'], { cwd: root });
    const outside = join(tempDir(t), 'elsewhere.bin');
    writeFileSync(outside, readFileSync(join(root, SNAPSHOT)).subarray(0, 50));
    rmSync(join(root, SNAPSHOT));
    symlinkSync(outside, join(root, SNAPSHOT));
    assert.deepEqual(await lore(['query', 'retry the uploads', '--json'], { cwd: root }), first);
    assert.equal(readFileSync(outside).length, 50, 'the symlink target is untouched');
  });
});

/** The key a snapshot's header names. */
function parseKey(bytes: Buffer): string {
  return (JSON.parse(bytes.toString('utf8', 4, 4 + bytes.readUInt32LE(0))) as { key: string }).key;
}

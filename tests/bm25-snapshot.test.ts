import assert from 'node:assert/strict';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildBm25, scoreBm25, type Bm25Index } from '../src/knowledge/bm25.js';
import type { KnowledgeEntry } from '../src/types.js';
import { bm25SnapshotKey, parseBm25, serializeBm25 } from '../src/knowledge/bm25-snapshot.js';
import { renderRecord } from '../src/store/write.js';
import { lore } from './helpers/cli.js';
import { seeded } from './helpers/crash.js';
import { entry, knowledgeStore } from './helpers/knowledge.js';
import { tempDir } from './helpers/temp.js';

const ENTRIES = [
  entry({ id: 'pro-no-env', title: 'Never commit env files', description: 'Secrets stay out of git.', keywords: ['secrets', 'env'] }),
  entry({ id: 'rec-retry', title: 'Retry flaky uploads', description: 'Uploads retry with backoff.', keywords: ['upload'] }),
  entry({ id: 'learn-cache', title: 'The cache is keyed by content', description: 'Stale caches were a bug once.' }),
];
const SNAPSHOT = '.knowledge/.cache/knowledge-bm25.bin';
const KEY = bm25SnapshotKey(3);
const IDENTITY = 'a'.repeat(40);
/** An index as plain data, terms sorted: two indexes are the same index when these are equal. */
const plain = (index: Bm25Index) => ({ size: index.size, norms: [...index.norms], lengths: [...index.lengths], keys: [...index.keys], postings: [...index.postings].sort(([a], [b]) => (a < b ? -1 : 1)).map(([term, p]) => [term, [...p.docs], [...p.tfs]]) });

describe('the BM25 snapshot', () => {
  it('holds exactly the postings, norms, lengths, text keys and scores of the index it was made from, and the identity it was made for', () => {
    const index = buildBm25(ENTRIES, 3);
    const loaded = parseBm25(serializeBm25(index, IDENTITY, KEY), KEY);
    assert.ok(loaded !== undefined);
    assert.equal(loaded.identity, IDENTITY);
    assert.deepEqual(plain(loaded.index), plain(index));
    assert.deepEqual([...loaded.index.postings.keys()], [...index.postings.keys()]);
    assert.deepEqual([...scoreBm25(loaded.index, ['upload', 'secret', 'cache'])], [...scoreBm25(index, ['upload', 'secret', 'cache'])]);
  });

  it('scores a term the same on its first query and on every later one (what it adds is kept), to the last bit of the formula', () => {
    const index = buildBm25(ENTRIES, 3);
    const terms = ['upload', 'secret', 'retry', 'cache', 'nowhere'];
    // BM25 as written: idf × (k1 + 1) × tf / (tf + norm), the terms added in the order asked.
    const expected = new Array<number>(index.size).fill(0);
    for (const term of terms) {
      const posting = index.postings.get(term);
      if (posting === undefined) continue;
      const weight = Math.log(1 + (index.size - posting.docs.length + 0.5) / (posting.docs.length + 0.5)) * 2.2;
      posting.docs.forEach((doc, i) => (expected[doc] = expected[doc]! + (weight * posting.tfs[i]!) / (posting.tfs[i]! + index.norms[doc]!)));
    }
    assert.ok(expected.filter((score) => score > 0).length >= 2);
    assert.deepEqual([...scoreBm25(index, terms)], expected);
    assert.deepEqual([...scoreBm25(index, terms)], expected);
    // Some terms kept, others not yet.
    assert.deepEqual([...scoreBm25(index, ['upload', 'secret', 'env'])], [...scoreBm25(buildBm25(ENTRIES, 3), ['upload', 'secret', 'env'])]);
  });

  it('is ignored when foreign, truncated, damaged or not a snapshot at all', () => {
    const bytes = serializeBm25(buildBm25(ENTRIES, 3), IDENTITY, KEY);
    // The last byte of the body: the text keys end it.
    const flipped = Buffer.from(bytes);
    const keysEnd = bodyStart(bytes) + (16 + 20) * 3 + 4 * parseHeader(bytes).terms.length - 1;
    flipped[keysEnd] = flipped[keysEnd]! ^ 1;
    // The header is data too: "retry" read as "setry" would be carried into every index built from the snapshot.
    const term = Buffer.from(bytes);
    term[bytes.indexOf('"retry"') + 1] = term[bytes.indexOf('"retry"') + 1]! ^ 1;
    const cases: Array<[string, Buffer, string]> = [
      ['another lore', bytes, `${'b'.repeat(40)}:${KEY.slice(KEY.indexOf(':') + 1)}`],
      ['another keyword boost', bytes, bm25SnapshotKey(2)],
      ['truncated', bytes.subarray(0, bytes.length - 1), KEY],
      ['one byte longer', Buffer.concat([bytes, Buffer.from([0])]), KEY],
      ['a flipped bit in the text keys', flipped, KEY],
      ['a flipped bit in a term of the header', term, KEY],
      ['empty', Buffer.alloc(0), KEY],
      ['text', Buffer.from('{"format":"lore-bm25/3"}'), KEY],
    ];
    for (const [name, damaged, key] of cases) assert.equal(parseBm25(damaged, key), undefined, name);
    assert.ok(parseBm25(bytes, KEY) !== undefined);
    // A copy starting off an 8-byte boundary still loads.
    const shifted = Buffer.alloc(bytes.length + 3).subarray(3);
    bytes.copy(shifted);
    assert.equal(parseBm25(shifted, KEY)?.index.size, 3);
  });

  it('reads a term\'s postings when first asked for, and refuses them when damaged, naming the file and the term', () => {
    const index = buildBm25(ENTRIES, 3);
    const bytes = serializeBm25(index, IDENTITY, KEY);
    const loaded = parseBm25(damagePostings(bytes, 'retry'), KEY)!;
    assert.ok(loaded !== undefined, 'the postings are checked when read, not when the snapshot is opened');
    assert.deepEqual([...loaded.index.postings.get('upload')!.docs], [...index.postings.get('upload')!.docs]);
    assert.throws(() => loaded.index.postings.get('retry'), { message: '.knowledge/.cache/knowledge-bm25.bin is damaged (the postings of "retry" do not match their checksum)' });
    assert.throws(() => [...loaded.index.postings], { message: /the postings of "retry" do not match/ });
    assert.equal(loaded.index.postings.get('no-such-term'), undefined);
    assert.equal(loaded.index.postings.has('retry'), true);
    assert.equal(loaded.index.postings.size, index.postings.size);
  });

  it('built after edits from an earlier index, is the index built afresh: entries changed, added, removed, reordered, duplicated', () => {
    const random = seeded(15);
    const words = 'retry upload cache stale secret env backoff queue index token parser build'.split(' ');
    const text = (n: number): string => Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(' ');
    const make = (i: number): KnowledgeEntry => entry({ id: `rec-${i}-${Math.floor(random() * 1e6)}`, title: text(3), description: `${text(8)}.`, ...(random() < 0.4 ? { details: text(20) } : {}), keywords: random() < 0.5 ? [words[i % words.length]!] : [] });
    let entries = Array.from({ length: 40 }, (_, i) => make(i));
    let previous = buildBm25(entries, 1.3);
    for (let step = 0; step < 60; step++) {
      const next = [...entries];
      const at = Math.floor(random() * next.length);
      const kind = Math.floor(random() * 5);
      if (kind === 0) next[at] = { ...next[at]!, title: text(3) };
      else if (kind === 1) next.splice(at, 0, make(step));
      else if (kind === 2 && next.length > 1) next.splice(at, 1);
      else if (kind === 3) next.reverse();
      else next.splice(at, 0, { ...next[Math.floor(random() * next.length)]!, id: `rec-copy-${step}` });
      const reused = buildBm25(next, 1.3, previous);
      assert.deepEqual(plain(reused), plain(buildBm25(next, 1.3)), `step ${step}`);
      entries = next;
      previous = reused;
    }
  });

  it('takes an unchanged entry\'s frequencies from the earlier index instead of reading its text again', () => {
    const previous = buildBm25(ENTRIES, 3);
    // Forge what the earlier index says of rec-retry's text (document 1): the new index shows it was read from there.
    const retry = previous.postings.get('retry')!;
    const forged = { ...previous, postings: new Map([...previous.postings].map(([term, p]) => [term, term === 'retry' ? { docs: p.docs, tfs: p.tfs.map(() => 99) } : p])) };
    assert.deepEqual([...retry.docs], [1]);
    assert.deepEqual([...buildBm25([ENTRIES[1]!], 3, forged).postings.get('retry')!.tfs], [99]);
    // An entry whose text changed is read again.
    assert.deepEqual([...buildBm25([{ ...ENTRIES[1]!, title: 'Retry flaky downloads' }], 3, forged).postings.get('retry')!.tfs], [2]);
  });

  it('is written by a query, rebuilt when damaged, and rewritten when an entry changes', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES, { config: 'matching:\n  use_semantic: false\n' });
    const query = () => lore(['query', 'retry the uploads', '--json'], { cwd: root });
    const first = await query();
    assert.equal(first.code, 0);
    const written = readFileSync(join(root, SNAPSHOT));
    assert.equal(parseBm25(written, parseKey(written))?.index.size, 3);

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
    assert.equal(parseKey(rewritten), parseKey(written));
    assert.notEqual(parseBm25(rewritten, parseKey(rewritten))!.identity, parseBm25(written, parseKey(written))!.identity);
    assert.deepEqual([...parseBm25(rewritten, parseKey(rewritten))!.index.postings.get('retry')!.tfs], [3.5]);
    // What the edit's index was built from the snapshot answers as one built afresh.
    rmSync(join(root, SNAPSHOT));
    assert.deepEqual(await query(), changed);
  });

  it('heals damaged postings: a query reading them, or an index built after an edit, builds them again and saves the snapshot whole', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES, { config: 'matching:\n  use_semantic: false\n' });
    const query = () => lore(['query', 'retry the uploads', '--json'], { cwd: root });
    const first = await query();
    assert.equal(first.code, 0);
    const written = readFileSync(join(root, SNAPSHOT));
    // The query's own term: its postings are rebuilt, the answer is the same, the file is made whole.
    writeFileSync(join(root, SNAPSHOT), damagePostings(written, 'retry'));
    assert.deepEqual(await query(), first);
    assert.deepEqual(readFileSync(join(root, SNAPSHOT)), written);
    // After an edit, the snapshot of the earlier entries is not taken from when its postings are damaged.
    writeFileSync(join(root, SNAPSHOT), damagePostings(written, 'secret'));
    writeFileSync(join(root, '.knowledge/knowledge/recommendations/rec-retry.yaml'), renderRecord('recommendation', { ...ENTRIES[1]!, keywords: ['upload', 'retry'] }));
    const changed = await query();
    assert.equal(changed.code, 0, changed.stderr);
    const rebuilt = readFileSync(join(root, SNAPSHOT));
    rmSync(join(root, SNAPSHOT));
    assert.deepEqual(await query(), changed, 'the answer of an index built afresh');
    assert.deepEqual(readFileSync(join(root, SNAPSHOT)), rebuilt, 'and its snapshot');
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

/** A snapshot's header. */
function parseHeader(bytes: Buffer): { key: string; size: number; terms: string[]; lengths: number[] } {
  return JSON.parse(bytes.toString('utf8', 4, 4 + bytes.readUInt32LE(0))) as { key: string; size: number; terms: string[]; lengths: number[] };
}

/** The key a snapshot's header names. */
function parseKey(bytes: Buffer): string {
  return parseHeader(bytes).key;
}

/** Where a snapshot's body starts: after the header, at the next multiple of 8. */
const bodyStart = (bytes: Buffer): number => Math.ceil((4 + bytes.readUInt32LE(0)) / 8) * 8;

/**
 * The snapshot with a bit flipped in the last byte of `term`'s postings: the tail after the body
 * (norms, lengths and text keys per document, a sum per term) holds them term after term, 12 bytes
 * a document.
 */
function damagePostings(bytes: Buffer, term: string): Buffer {
  const { size, terms, lengths } = parseHeader(bytes);
  const tailStart = bodyStart(bytes) + (16 + 20) * size + 4 * terms.length;
  const end = tailStart + 12 * lengths.slice(0, terms.indexOf(term) + 1).reduce((a, b) => a + b, 0) - 1;
  const copy = Buffer.from(bytes);
  copy[end] = copy[end]! ^ 1;
  return copy;
}

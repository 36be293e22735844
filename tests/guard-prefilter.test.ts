// The commit guard's prefilter must never hide a match: whatever a regex matches, its required
// literal is found in the same text. These tests compare the prefiltered scan with running
// every regex on every line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LiteralSet } from '../src/guard/aho-corasick.js';
import { requiredLiteral } from '../src/guard/literals.js';
import { compileRules, compileTable, forCandidates, globLiteral, ruleTable, type RuleVersion } from '../src/guard/rules.js';
import { redact, scan, type ChangeSet } from '../src/guard/scan.js';
import { compileGlob, globProblem } from '../src/match/glob.js';
import { compileRegex, type SafeRegex } from '../src/match/regex.js';
import type { KnowledgeEntry } from '../src/types.js';
import { linesFor, pathsFor, randomGlob, randomPattern } from './helpers/pattern-gen.js';

function entry(id: string, fields: Partial<KnowledgeEntry>): KnowledgeEntry {
  return {
    id, type: 'prohibition', title: id, description: 'x', scope: 'global', keywords: [], priority: 'high', source: 'manual',
    createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', createdBy: 't', enabled: true, ...fields,
  };
}
import { generateGlob, generatePaths, prng } from './helpers/glob-fuzz.js';

function found(set: LiteralSet, text: string): number[] {
  const hits: number[] = [];
  set.search(text, hits);
  return [...new Set(hits)].sort((a, b) => a - b);
}

describe('required literals of regular expressions', () => {
  it('finds the longest literal run a match cannot do without', () => {
    assert.deepEqual(requiredLiteral('api_token_[0-9a-f]{32}'), { text: 'api_token_', ignoreCase: false });
    assert.deepEqual(requiredLiteral('(?i)Pass(word)?:'), { text: 'pass', ignoreCase: true });
    assert.deepEqual(requiredLiteral('x{0,3}abc\\.conf'), { text: 'abc.conf', ignoreCase: false });
    assert.deepEqual(requiredLiteral('BEGIN RSA+ KEY'), { text: 'BEGIN RSA', ignoreCase: false });
  });

  it('gives none when a match may lack every literal', () => {
    assert.equal(requiredLiteral('secret|token'), undefined);
    assert.equal(requiredLiteral('ab'), undefined);
    assert.equal(requiredLiteral('(api_key|token)=\\w+'), undefined);
  });

  it('reads escapes as RE2 does: hex and octal escapes are characters, \\p classes are not', () => {
    // Each of these once gave a literal made of the escape's own digits or name ("6ben", "01Str", "Labc", "0,2").
    assert.deepEqual(requiredLiteral('to\\x6ben'), { text: 'token', ignoreCase: false });
    assert.deepEqual(requiredLiteral('^\\101Str'), { text: 'AStr', ignoreCase: false });
    assert.deepEqual(requiredLiteral('\\pLabc'), { text: 'abc', ignoreCase: false });
    assert.equal(requiredLiteral('\\x{1F600}{0,2}$'), undefined);
    assert.equal(requiredLiteral('\\p{Lu}{1,3}'), undefined);
    assert.deepEqual(requiredLiteral('key\\x{212A}ey'), { text: 'key\u212Aey', ignoreCase: false });
    assert.deepEqual(requiredLiteral('(?i)key\\x{212A}ey'), { text: 'key', ignoreCase: true });
  });

  it('ends a character class where RE2 ends it', () => {
    // [^]abc] is one class (a leading ] is literal); so is [[:digit:]abc]: neither requires "abc".
    assert.equal(requiredLiteral('[^]abc]x'), undefined);
    assert.equal(requiredLiteral('[[:digit:]abc]'), undefined);
    // The ) belongs to the class, so the | is at the top level.
    assert.equal(requiredLiteral('[[:alpha:])]abc|wxyz'), undefined);
    assert.deepEqual(requiredLiteral('[]a]bcd'), { text: 'bcd', ignoreCase: false });
    // A range's upper end is one character: [!-[:] is ! to [, then :, so the | is at the top level
    // (read as [:...:] up to a later :], the class once swallowed the | and gave SECRET).
    assert.equal(requiredLiteral('SECRET[!-[:]|x:]'), undefined);
    assert.deepEqual(requiredLiteral('[a-[]wxyz'), { text: 'wxyz', ignoreCase: false });
    // No range starts at a class escape, and a character is a whole code point: each of these is
    // one class, then abc (the classes once ended at the ] of :], giving "]abc").
    for (const source of ['[\\pN-[:alpha:]]abc', '[\\d-[:alpha:]]abc', '[\\p{Greek}-[:alpha:]]abc', '[a-😀-[:alpha:]]abc', '[\\x30-\\x39-[:alpha:]]abc', '[\\060-\\071-[:alpha:]]abc']) {
      assert.deepEqual(requiredLiteral(source), { text: 'abc', ignoreCase: false }, source);
    }
    assert.equal(requiredLiteral('[\\pN-[:alpha:]secret]'), undefined);
    assert.equal(requiredLiteral('[\\x41-\\x5A-[:^alpha:]secret]'), undefined);
  });

  it('binds a repetition after flags to the item before them, as RE2 does', () => {
    // SECRET(?s){0,9} is SECRE then up to nine Ts: "SECRE" matches (the literal once was SECRET).
    assert.deepEqual(requiredLiteral('SECRET(?s){0,9}'), { text: 'SECRE', ignoreCase: false });
    assert.equal(requiredLiteral('ab{2}(?i){0}'), undefined);
    assert.deepEqual(requiredLiteral('abcd(?m)+'), { text: 'abcd', ignoreCase: false });
  });

  it('follows flags where they are set, and quoted text up to its last character', () => {
    assert.deepEqual(requiredLiteral('(?m)^password'), { text: 'password', ignoreCase: false });
    // Flags set part-way make the rest case-insensitive: "abCDEF" matches.
    assert.deepEqual(requiredLiteral('ab(?i)cdef'), { text: 'cdef', ignoreCase: true });
    assert.deepEqual(requiredLiteral('(?i)ab(?-i)WORD'), { text: 'WORD', ignoreCase: false });
    assert.deepEqual(requiredLiteral('(?i:abc)defg'), { text: 'defg', ignoreCase: false });
    // The ? applies to the quoted d alone: "abc" matches.
    assert.deepEqual(requiredLiteral('\\Qabcd\\E?'), { text: 'abc', ignoreCase: false });
    assert.deepEqual(requiredLiteral('(\\Q)|\\E)api.key'), { text: 'api', ignoreCase: false });
    // Not a repetition in RE2: the brace is literal text.
    assert.deepEqual(requiredLiteral('a{,3}'), { text: 'a{,3}', ignoreCase: false });
  });

  it('takes a character outside the BMP whole, so a quantifier after it applies to both halves', () => {
    assert.deepEqual(requiredLiteral('token😀?'), { text: 'token', ignoreCase: false });
    assert.deepEqual(requiredLiteral('id😀+x'), { text: 'id😀', ignoreCase: false });
  });

  it('keeps case-insensitive literals to ASCII, where folding is simple', () => {
    // (?i)σ also matches ς and Σ; the literal stops before the Greek letters.
    assert.deepEqual(requiredLiteral('(?i)token=σήμα'), { text: 'token=', ignoreCase: true });
    assert.deepEqual(requiredLiteral('Ärger-Token'), { text: 'Ärger-Token', ignoreCase: false });
  });
});

describe('the literal automaton', () => {
  it('finds every literal in one pass, ASCII letters in any case', () => {
    const set = new LiteralSet([{ id: 1, text: 'api_key' }, { id: 2, text: 'Secret' }, { id: 3, text: 'ärger' }, { id: 4, text: 'key' }]);
    assert.deepEqual(found(set, 'const API_KEY = 1'), [1, 4]);
    assert.deepEqual(found(set, 'mySECRETvalue'), [2]);
    assert.deepEqual(found(set, 'ärger and Ärger'), [3]);
    assert.deepEqual(found(set, 'nothing here'), []);
  });

  it('folds the long s and the Kelvin sign as RE2 does', () => {
    const set = new LiteralSet([{ id: 7, text: 'secret' }, { id: 8, text: 'key' }]);
    assert.equal(compileRegex('(?i)secret').test('ſecret'), true);
    assert.equal(compileRegex('(?i)key').test('\u212Aey'), true);
    assert.deepEqual(found(set, 'ſecret'), [7]);
    assert.deepEqual(found(set, '\u212Aey'), [8]);
  });

  it('leaves out literals beyond its alphabet and says which', () => {
    // 300 literals of two fresh CJK characters each: the table holds 254 characters.
    const literals = Array.from({ length: 300 }, (_, i) => ({ id: i, text: String.fromCharCode(0x4e00 + 2 * i, 0x4e01 + 2 * i) }));
    const set = new LiteralSet(literals);
    assert.deepEqual(set.skipped, Array.from({ length: 173 }, (_, i) => 127 + i));
    assert.deepEqual(found(set, literals[126]!.text), [126]);
    assert.deepEqual(found(set, literals[127]!.text), []);
  });

  it('reports each literal once per text, however long or repetitive the text', () => {
    // 50 matchers sharing one literal, and literals that are prefixes of each other.
    const shared = new LiteralSet(Array.from({ length: 50 }, (_, i) => ({ id: i, text: 'abc' })));
    const hits: number[] = [];
    shared.search('abc'.repeat(100_000), hits);
    assert.deepEqual(hits, Array.from({ length: 50 }, (_, i) => i));
    const nested = new LiteralSet(Array.from({ length: 20 }, (_, i) => ({ id: i, text: 'a'.repeat(i + 3) })));
    const runs: number[] = [];
    nested.search('a'.repeat(100_000), runs);
    assert.equal(runs.length, 210);
    assert.deepEqual([...new Set(runs)].sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i));
  });

  it('still reports each literal once per text after billions of searches (a daemon searches without end)', () => {
    const set = new LiteralSet(Array.from({ length: 50 }, (_, i) => ({ id: i, text: 'abc' })));
    // The count of searches as a long-lived process reaches it: the per-state marks are 32 bits.
    (set as unknown as { searches: number }).searches = 0x7fffffff - 1;
    for (let round = 0; round < 3; round++) {
      const hits: number[] = [];
      set.search('abc'.repeat(1000), hits);
      assert.deepEqual(hits, Array.from({ length: 50 }, (_, i) => i), `search ${round + 1} past the wrap`);
    }
  });

  it('reads back from its bytes the same automaton, and refuses bytes cut short or of another layout', () => {
    const literals = [{ id: 1, text: 'api_key' }, { id: 2, text: 'Secret' }, { id: 3, text: 'ärger' }, { id: 4, text: 'key' }, ...Array.from({ length: 300 }, (_, i) => ({ id: 10 + i, text: String.fromCharCode(0x4e00 + 2 * i, 0x4e01 + 2 * i) }))];
    const set = new LiteralSet(literals);
    const bytes = set.toBytes();
    const read = LiteralSet.fromBytes(bytes.subarray(0))!;
    assert.deepEqual(read.skipped, set.skipped);
    for (const text of ['API_KEY and sEcReT', 'ärger key', literals[130]!.text, literals[200]!.text, 'ſecret \u212Aey', 'nothing here']) {
      assert.deepEqual(found(read, text), found(set, text), text);
    }
    assert.deepEqual(found(read, 'API_KEY, secret, ärger'), [1, 2, 3, 4]);
    // A copy at an odd offset (as inside a file after its header) reads the same.
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    assert.deepEqual(found(LiteralSet.fromBytes(shifted.subarray(3))!, 'key'), [4]);
    assert.equal(LiteralSet.fromBytes(bytes.subarray(0, bytes.length - 4)), undefined);
    const other = bytes.slice();
    other[0] = other[0]! ^ 1;
    assert.equal(LiteralSet.fromBytes(other), undefined);
  });

  it('leaves out literals beyond its table size, so a hostile store cannot exhaust memory', () => {
    // 700 literals of 100 characters: 70,000 states would be needed, the table holds 65,536.
    const literals = Array.from({ length: 700 }, (_, i) => ({ id: i, text: `${String(i).padStart(4, '0')}${'x'.repeat(96)}` }));
    const set = new LiteralSet(literals);
    assert.deepEqual(set.skipped, Array.from({ length: 45 }, (_, i) => 655 + i));
    assert.deepEqual(found(set, `.. ${literals[654]!.text} ..`), [654]);
    assert.deepEqual(found(set, literals[655]!.text), []);
  });
});

describe('scanning through the prefilter', () => {
  const PATTERNS = [
    'api_token_[0-9a-f]{8}', '(?i)password\\s*=', '(?i)BEGIN (RSA|EC) PRIVATE KEY', 'AKIA[0-9A-Z]{4}', 'ab(?i)cdef',
    '(?i)secret_[a-z]+', '(?i)key=\\w+', 'Ärger-Token', '(?i)token=σ', 'do_not_(commit|push)', 'x{0,3}\\.env',
    'token😀?', '\\Qabcd\\E?',
  ];
  const LINES = [
    'const api_token_0123abcd = 1;', 'API_TOKEN_0123ABCD', 'Password = hunter2', 'PASSWORD=x', 'pass word =',
    '-----BEGIN rsa PRIVATE KEY-----', 'AKIAABCD', 'akiaabcd', 'abCDEF', 'ABcdef', 'ſecret_value', 'SECRET_x',
    '\u212Aey=abc', 'KEY=', 'Ärger-Token', 'ärger-token', 'TOKEN=Σ', 'token=ς', 'do_not_push', 'DO_NOT_COMMIT', 'cat .env',
    'ordinary line', 'token = 1', 'abc', '',
  ];

  it('visits every regex that matches a line, for many patterns and lines', () => {
    const versions: RuleVersion[] = PATTERNS.map((p) => ({ entry: entry('pro-x', { content: [p] }), origin: 'committed', file: 'f' }));
    const { content } = compileRules(versions);
    let checked = 0;
    for (const line of LINES) {
      const visited = new Set<string>();
      forCandidates(content, line, (group) => {
        for (const m of group) visited.add(m.text);
      });
      for (const pattern of PATTERNS) {
        if (!compileRegex(pattern).test(line)) continue;
        checked++;
        assert.ok(visited.has(pattern), `${pattern} matches ${JSON.stringify(line)} but the prefilter skipped it`);
      }
    }
    // The lines exercise the folds: most of them match something.
    assert.equal(checked, 22);
  });

  it('runs every regex whose literal the automaton left out, so none of them is missed', () => {
    // 300 rules whose literals are three fresh CJK characters each: the automaton's table of 254
    // characters takes the first 84; the other 216 have no prefilter and must run on every line.
    const texts = Array.from({ length: 300 }, (_, i) => String.fromCharCode(0x4e00 + 3 * i, 0x4e01 + 3 * i, 0x4e02 + 3 * i));
    const versions: RuleVersion[] = texts.map((text, i) => ({ entry: entry(`pro-${i}`, { content: [text] }), origin: 'committed', file: `f${i}` }));
    const compiled = compileRules(versions);
    assert.deepEqual([compiled.content.literals.skipped.length, compiled.content.always.length], [216, 216]);
    const files = [{ path: 'notes.txt', status: 'added' as const, added: texts.map((text, i) => ({ line: i + 1, text: `x ${text} y` })) }];
    const { findings } = scan([{ files }], compiled);
    assert.deepEqual(findings.map((f) => f.line), texts.map((_, i) => i + 1));
  });

  it('asks for a rule\'s version only when its test matched: the snapshot\'s versions are parsed for a finding, not to compile', () => {
    // One regex with no usable literal (it always runs) and one whose literal is found in a line it does not match.
    const versions: RuleVersion[] = [
      { entry: entry('pro-gh', { content: ['\\bgh[pousr]_[A-Za-z0-9]{36}\\b'] }), origin: 'committed', file: 'a' },
      { entry: entry('pro-aws', { content: ['AKIA[0-9A-Z]{16}'] }), origin: 'both', file: 'b' },
    ];
    const asked: number[] = [];
    const compiled = compileTable({ table: ruleTable(versions), version: (v) => (asked.push(v), versions[v]!) }, Uint8Array.of(1, 1));
    assert.equal(compiled.content.always.length, 1);
    const files = (text: string): ChangeSet[] => [{ files: [{ path: 'x.txt', status: 'added', added: [{ line: 1, text }] }] }];
    assert.deepEqual(scan(files('AKIA is not a key; gh_ is not a token'), compiled).findings, []);
    assert.deepEqual(asked, []);
    const { findings } = scan(files(`key AKIA${'A'.repeat(16)}`), compiled);
    assert.deepEqual([findings.map((f) => [f.entryId, f.origin, f.ruleFile]), [...new Set(asked)]], [[['pro-aws', 'both', 'b']], [1]]);
  });

  it('refuses to hand out the group of a matcher whose rule does not apply, rather than an empty one', () => {
    const versions: RuleVersion[] = [{ entry: entry('pro-off', { content: ['TOKEN_[0-9]{4}'] }), origin: 'committed', file: 'a' }];
    const { content } = compileTable({ table: ruleTable(versions), version: (v) => versions[v]! }, Uint8Array.of(0));
    assert.deepEqual([content.applies(0), content.matchers], [false, []]);
    assert.throws(() => content.group(0), /^Error: matcher 0 belongs to a rule that does not apply$/);
  });

  it('finds a glob match in a path with a backslash, which the glob reads as a slash', () => {
    // On Linux "config\\prod.env" is one file name; the glob normalises it to config/prod.env and matches.
    const versions: RuleVersion[] = [{ entry: entry('pro-env', { globs: ['config/prod.env'] }), origin: 'committed', file: 'f' }];
    const files = ['config\\prod.env', './config/prod.env', 'config/prod.env', 'config-prod.env'].map((path) => ({ path, status: 'added' as const, added: [] }));
    const { findings } = scan([{ files }], compileRules(versions));
    assert.deepEqual(findings.map((f) => f.path), ['config\\prod.env', './config/prod.env', 'config/prod.env']);
  });

  it('reads a path regex that begins with "glob:" as a regex, and the same text as a glob only in globs', () => {
    // As a glob, ab?c.ts needs the literal c.ts; the regex glob:ab?c.ts matches glob:acXts, which lacks it.
    const versions: RuleVersion[] = [
      { entry: entry('pro-regex', { patterns: ['glob:ab?c.ts'] }), origin: 'committed', file: 'a' },
      { entry: entry('pro-glob', { globs: ['ab?c.ts'] }), origin: 'committed', file: 'b' },
    ];
    assert.deepEqual(ruleTable(versions).paths.literal, ['glob:a', 'c.ts']);
    const files = ['y/glob:acXts', 'abXc.ts'].map((path) => ({ path, status: 'added' as const, added: [] }));
    const { findings } = scan([{ files }], compileRules(versions));
    assert.deepEqual(findings.map((f) => [f.entryId, f.path]), [['pro-regex', 'y/glob:acXts'], ['pro-glob', 'abXc.ts']]);
    // A content regex is a regex whatever it begins with.
    const content: RuleVersion[] = [{ entry: entry('pro-content', { content: ['glob:ab?c.ts'] }), origin: 'committed', file: 'c' }];
    assert.deepEqual(ruleTable(content).content.literal, ['glob:a']);
    const lines = scan([{ files: [{ path: 'notes.txt', status: 'added', added: [{ line: 1, text: 'see glob:acXts' }] }] }], compileRules(content));
    assert.deepEqual(lines.findings.map((f) => [f.entryId, f.line]), [['pro-content', 1]]);
  });

  it('visits every glob that matches a path: a matching path holds the glob\'s literal (generated globs)', () => {
    const random = prng(7);
    let checked = 0;
    for (let i = 0; i < 3000; i++) {
      const glob = generateGlob(random);
      const paths = generatePaths(random, glob, 4);
      if (globProblem(glob) !== undefined) continue;
      const literal = globLiteral(glob);
      if (literal === undefined) continue;
      for (const path of paths) {
        if (!compileGlob(glob).test(path)) continue;
        checked++;
        assert.ok(path.includes(literal.text), `${JSON.stringify(glob)} matches ${JSON.stringify(path)}, which lacks its literal ${JSON.stringify(literal.text)}`);
      }
    }
    assert.ok(checked > 500, `only ${checked} matches had a literal`);
  });

  it('gives a negated glob no literal, however it is written: it matches the paths that lack one', () => {
    assert.deepEqual(['!**/*.md', './!**/*.md', '!./docs/**', '**/*.secret'].map((glob) => globLiteral(glob)), [undefined, undefined, undefined, { text: '.secret', ignoreCase: false }]);
  });
});

// Differential tests: the scan as the hook runs it (literal prefilter, then the regex) must give
// exactly what re2js alone gives, on generated patterns and on lines made from them. Each batch of
// patterns is compiled into one rule set, and every pattern is checked against every line of the
// batch, so the automaton holds many literals at once.
describe('the prefilter against the regex alone, on generated input', () => {
  const show = (value: unknown): string => JSON.stringify(value);

  it('finds exactly the first match re2js alone finds, on 12,000 generated pairs of pattern and line', (t) => {
    const rng = prng(20261122);
    const BATCHES = 800;
    const PER_BATCH = 5;
    const LINES = 3;
    let pairs = 0;
    let matched = 0;
    let refused = 0;
    let crossPairs = 0;
    let withLiteral = 0;
    const differences: string[] = [];
    for (let b = 0; b < BATCHES; b++) {
      const batch: Array<{ source: string; reference: SafeRegex; lines: string[] }> = [];
      while (batch.length < PER_BATCH) {
        const pattern = randomPattern(rng);
        let reference: SafeRegex;
        try {
          reference = compileRegex(pattern.src);
        } catch {
          refused++;
          continue;
        }
        if (requiredLiteral(pattern.src) !== undefined) withLiteral++;
        batch.push({ source: pattern.src, reference, lines: linesFor(rng, pattern, LINES) });
      }
      const versions: RuleVersion[] = batch.map((p, k) => ({ entry: entry(`p${k}`, { content: [p.source] }), origin: 'committed', file: 'f' }));
      const lines = batch.flatMap((p) => p.lines);
      const files = [{ path: 'f.txt', status: 'added' as const, binary: false, added: lines.map((text, i) => ({ line: i + 1, text })) }];
      const found = new Map(scan([{ files }], compileRules(versions)).findings.map((f) => [`${f.entryId} ${f.line}`, f]));
      batch.forEach((p, k) => {
        lines.forEach((line, i) => {
          const own = Math.floor(i / LINES) === k;
          const match = p.reference.find(line);
          const expected = match === undefined ? undefined : { column: match.index + 1, text: redact(match.text, false) };
          const finding = found.get(`p${k} ${i + 1}`);
          const actual = finding === undefined ? undefined : { column: finding.column, text: finding.text };
          if (own) {
            pairs++;
            if (expected !== undefined) matched++;
          } else crossPairs++;
          if (show(actual) !== show(expected)) {
            differences.push(`pattern ${show(p.source)} line ${show(line)} literal ${show(requiredLiteral(p.source))}: re2js ${show(expected)}, prefiltered scan ${show(actual)}`);
          }
        });
      });
    }
    t.diagnostic(`${pairs} pairs, ${matched} matched (${((100 * matched) / pairs).toFixed(1)}%); ${crossPairs} cross pairs; ${withLiteral} patterns with a literal; ${refused} patterns RE2 refused`);
    assert.deepEqual(differences.slice(0, 20), [], `${differences.length} differences`);
    assert.ok(pairs >= 10_000, `only ${pairs} pairs`);
    assert.ok(matched >= pairs / 5, `only ${matched} of ${pairs} pairs matched: the test would pass vacuously`);
    assert.ok(withLiteral >= pairs / LINES / 4, `only ${withLiteral} patterns had a literal: the prefilter was hardly exercised`);
  });

  it('never excludes a path a generated glob matches, on 3,400 generated pairs of glob and path', (t) => {
    const rng = prng(4242);
    const BATCHES = 30;
    const PER_BATCH = 16;
    const PATHS = 8;
    let pairs = 0;
    let matched = 0;
    let refused = 0;
    let withLiteral = 0;
    const differences: string[] = [];
    for (let b = 0; b < BATCHES; b++) {
      const batch: Array<{ glob: string; paths: string[] }> = [];
      while (batch.length < PER_BATCH) {
        const glob = randomGlob(rng);
        if (globProblem(glob.src) !== undefined) {
          refused++;
          continue;
        }
        if (globLiteral(glob.src) !== undefined) withLiteral++;
        batch.push({ glob: glob.src, paths: pathsFor(rng, glob, PATHS) });
      }
      const versions: RuleVersion[] = batch.map((g, k) => ({ entry: entry(`g${k}`, { globs: [g.glob] }), origin: 'committed', file: 'f' }));
      const paths = [...new Set(batch.flatMap((g) => g.paths))];
      const files = paths.map((path) => ({ path, status: 'added' as const, added: [] }));
      const found = new Set(scan([{ files }], compileRules(versions)).findings.map((f) => `${f.entryId} ${f.path}`));
      batch.forEach((g, k) => {
        for (const path of paths) {
          const expected = compileGlob(g.glob).test(path);
          if (g.paths.includes(path)) {
            pairs++;
            if (expected) matched++;
          }
          if (found.has(`g${k} ${path}`) !== expected) {
            differences.push(`glob ${show(g.glob)} path ${show(path)} literal ${show(globLiteral(g.glob))}: glob ${expected}, prefiltered scan ${!expected}`);
          }
        }
      });
    }
    t.diagnostic(`${pairs} pairs, ${matched} matched (${((100 * matched) / pairs).toFixed(1)}%); ${withLiteral} globs with a literal; ${refused} globs refused`);
    assert.deepEqual(differences.slice(0, 20), [], `${differences.length} differences`);
    assert.ok(pairs >= 3_000, `only ${pairs} pairs`);
    assert.ok(matched >= pairs / 5, `only ${matched} of ${pairs} pairs matched: the test would pass vacuously`);
  });
});

// The commit guard's prefilter must never hide a match: whatever a regex matches, its required
// literal is found in the same text. These tests compare the prefiltered scan with running
// every regex on every line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LiteralSet } from '../src/guard/aho-corasick.js';
import { requiredLiteral } from '../src/guard/literals.js';
import { compileRules, forCandidates, patternLiteral, type RuleVersion } from '../src/guard/rules.js';
import { compileGlob, globProblem } from '../src/match/glob.js';
import { compileRegex } from '../src/match/regex.js';
import type { KnowledgeEntry } from '../src/types.js';
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
    assert.equal(requiredLiteral('(?m)^password'), undefined);
    assert.equal(requiredLiteral('ab'), undefined);
    // Flags set part-way make the rest case-insensitive: "abCDEF" matches.
    assert.equal(requiredLiteral('ab(?i)cdef'), undefined);
    // The ? applies to the quoted d alone: "abc" matches.
    assert.equal(requiredLiteral('\\Qabcd\\E?'), undefined);
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
    const entry = (content: string[]): KnowledgeEntry => ({
      id: 'pro-x', type: 'prohibition', title: 'x', description: 'x', scope: 'global', keywords: [], content,
      priority: 'high', source: 'manual', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', createdBy: 't', enabled: true,
    });
    const versions: RuleVersion[] = PATTERNS.map((p) => ({ entry: entry([p]), origin: 'committed', file: 'f' }));
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

  it('visits every glob that matches a path: a matching path holds the glob\'s literal (generated globs)', () => {
    const random = prng(7);
    let checked = 0;
    for (let i = 0; i < 3000; i++) {
      const glob = generateGlob(random);
      const paths = generatePaths(random, glob, 4);
      if (globProblem(glob) !== undefined) continue;
      const literal = patternLiteral(`glob:${glob}`);
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
    assert.deepEqual(['!**/*.md', './!**/*.md', '!./docs/**', '**/*.secret'].map((glob) => patternLiteral(`glob:${glob}`)), [undefined, undefined, undefined, { text: '.secret', ignoreCase: false }]);
  });
});

// A long line is searched only around the occurrences of a rule's required literal, when the
// rule's matches have a bounded length (src/guard/long-lines.ts). The answer must be the whole
// line's, exactly: these tests hold the windowed search against re2js run over the whole line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maxWidth, requiredLiteral } from '../src/guard/literals.js';
import { findAround, LONG_LINE } from '../src/guard/long-lines.js';
import { compileRules, type RuleVersion } from '../src/guard/rules.js';
import { redact, scan } from '../src/guard/scan.js';
import { compileRegex, type SafeRegex } from '../src/match/regex.js';
import type { KnowledgeEntry } from '../src/types.js';
import { prng } from './helpers/glob-fuzz.js';
import { linesFor, randomPattern, type Rng } from './helpers/pattern-gen.js';

const show = (value: unknown): string => JSON.stringify(value);

function entry(id: string, content: string[]): KnowledgeEntry {
  return {
    id, type: 'prohibition', title: id, description: 'x', scope: 'global', keywords: [], priority: 'high', source: 'manual',
    createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', createdBy: 't', enabled: true, content,
  };
}

/** A random pattern RE2 compiles, with a required literal and bounded matches, and lines made from it. */
function boundedPattern(rng: Rng): { source: string; regex: SafeRegex; width: number; lines: string[] } {
  for (;;) {
    const pattern = randomPattern(rng);
    const width = maxWidth(pattern.src);
    if (width === undefined || requiredLiteral(pattern.src) === undefined) continue;
    try {
      return { source: pattern.src, regex: compileRegex(pattern.src), width, lines: linesFor(rng, pattern, 12) };
    } catch {
      // RE2 refuses it: draw another.
    }
  }
}

/** Text of `parts` joined by noise: characters that end words, pairs that a window may cut, or nothing. */
function joined(rng: Rng, parts: readonly string[]): string {
  const glue = ['', ' ', 'x', '_', '😀', 'ſ', '-', '\t', 'AKIA', '=='];
  return parts.map((part) => part + glue[Math.floor(rng() * glue.length)]).join('');
}

describe('the bound of a match\'s length', () => {
  it('is counted in code units, two per character, and undefined when a repetition is open-ended', () => {
    const cases: Array<[string, number | undefined]> = [
      ['abc', 6], ['a{3}', 6], ['a{2,5}b', 12], ['a{0}b', 2], ['(ab|c){2}', 8], ['x(?:ab|c)?', 8], ['(?i)token', 10], ['\\bAKIA[A-Z2-7]{16}\\b', 44],
      ['\\Qa.b\\E{2}', 8], ['😀{3}', 6], ['a*', undefined], ['a+b', undefined], ['a{2,}', undefined], ['(a', undefined], ['a)', undefined], ['(a|b*)c', undefined],
      // A repetition after flags repeats the item before them; a range's upper end is one character.
      ['SECRET(?i){50}', 110], ['a(?i)*', undefined], ['ab{2}(?i){0}', 2], ['SECRET[!-[:]x*y:]', undefined], ['[!-[:alpha:]{2}', 4],
      ['😀{1000}[\\pN-[:alpha:]|]😀{1000}', 4002], ['[a-😀-[:alpha:]|]x', 4], ['😀{1000}[\\x41-\\x5A-[:^alpha:]|]😀{1000}', 4002],
    ];
    assert.deepEqual(cases.map(([source]) => [source, maxWidth(source)]), cases);
  });

  it('is never less than the length of a match re2js finds, on 3,000 generated patterns', () => {
    const rng = prng(20261129);
    let matches = 0;
    for (let n = 0; n < 3000; n++) {
      const pattern = randomPattern(rng);
      const width = maxWidth(pattern.src);
      if (width === undefined) continue;
      let regex: SafeRegex;
      try {
        regex = compileRegex(pattern.src);
      } catch {
        continue;
      }
      for (const line of linesFor(rng, pattern, 6)) {
        // Every match from every start, not only the first.
        for (let at = 0; at <= line.length; at++) {
          const found = regex.find(line.slice(at));
          if (found === undefined) break;
          matches++;
          assert.ok(found.text.length <= width, `${show(pattern.src)} matched ${show(found.text)} (${found.text.length} units), over its bound ${width}`);
          at += found.index;
        }
      }
    }
    assert.ok(matches > 5000, `only ${matches} matches were measured`);
  });
});

describe('the search of a long line around a required literal', () => {
  it('finds exactly the first match re2js finds in the whole text, on 4,000 generated texts', () => {
    const rng = prng(1129);
    let matched = 0;
    let texts = 0;
    const differences: string[] = [];
    for (let n = 0; n < 400; n++) {
      const { source, regex, width, lines } = boundedPattern(rng);
      const literal = requiredLiteral(source)!;
      for (let k = 0; k < 10; k++) {
        // A few lines of the pattern's text, some far apart: occurrences whose windows merge and ones that do not.
        const parts = Array.from({ length: 1 + Math.floor(rng() * 6) }, () => (rng() < 0.3 ? 'ſ'.repeat(Math.floor(rng() * 3 * width)) : lines[Math.floor(rng() * lines.length)]!));
        const text = joined(rng, parts);
        const expected = regex.find(text);
        const actual = findAround(regex, text, literal, width, 1);
        texts++;
        if (expected !== undefined) matched++;
        if (show(actual) !== show(expected)) differences.push(`${show(source)} in ${show(text)}: whole ${show(expected)}, around ${show(literal)} ${show(actual)}`);
      }
    }
    assert.deepEqual(differences.slice(0, 10), [], `${differences.length} differences`);
    assert.ok(matched > texts / 4, `only ${matched} of ${texts} texts matched: the comparison would pass vacuously`);
  });

  it('finds the whole text\'s first match with windows as tight as the longest match, where assertions meet their edges (20,000 texts)', () => {
    // maxWidth counts two units a character, so the windows above are wide: these patterns match
    // ASCII only, and their exact width is passed, so that a window ends where a match may.
    const rng = prng(42);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
    const upTo = (n: number): number => Math.floor(rng() * (n + 1));
    type Piece = { source: string; width: number; sample: () => string };
    const classes: Array<[string, string]> = [['[A-Z]', 'QZA'], ['[a-z0-9]', 'k7a'], ['\\d', '50'], ['[_x]', '_x'], ['\\w', 'a_9']];
    const piece = (): Piece => {
      const r = rng();
      if (r < 0.3) {
        const word = pick(['ab', 'x_y', 'Q', '-', '=']);
        return { source: word.replace('-', '\\-'), width: word.length, sample: () => word };
      }
      if (r < 0.7) {
        const [source, members] = pick(classes);
        const [repeat, min, max] = pick([['', 1, 1], ['?', 0, 1], ['{2}', 2, 2], ['{1,3}', 1, 3], ['{0,2}', 0, 2]] as const);
        return { source: source + repeat, width: max, sample: () => Array.from({ length: min + upTo(max - min) }, () => pick([...members])).join('') };
      }
      if (r < 0.85) {
        const [a, b] = [pick(['ab', 'key', 'x']), pick(['c', 'token', ''])];
        return { source: `(?:${a}|${b})`, width: Math.max(a.length, b.length), sample: () => pick([a, b]) };
      }
      return { source: pick(['\\b', '\\B', '^', '$']), width: 0, sample: () => '' };
    };
    let matched = 0;
    let texts = 0;
    const differences: string[] = [];
    for (let n = 0; n < 2000; n++) {
      const pieces = Array.from({ length: 1 + upTo(3) }, piece);
      const required = pick(['AKIA', 'token', 'x_y1']);
      pieces.splice(upTo(pieces.length), 0, { source: required, width: required.length, sample: () => required });
      const source = pieces.map((p) => p.source).join('');
      const width = pieces.reduce((sum, p) => sum + p.width, 0);
      const literal = requiredLiteral(source);
      if (literal === undefined) continue;
      const regex = compileRegex(source);
      for (let k = 0; k < 10; k++) {
        const text = joined(rng, Array.from({ length: 1 + upTo(5) }, () => (rng() < 0.8 ? pieces.map((p) => p.sample()).join('') : pick(['QQQQ', 'ab', '😀', '7', 'AKIA', 'token']))));
        const expected = regex.find(text);
        const actual = findAround(regex, text, literal, width, 1);
        texts++;
        if (expected !== undefined) matched++;
        if (show(actual) !== show(expected)) differences.push(`${show(source)} (width ${width}) in ${show(text)}: whole ${show(expected)}, around ${show(literal)} ${show(actual)}`);
      }
    }
    assert.deepEqual(differences.slice(0, 10), [], `${differences.length} differences`);
    assert.ok(texts > 15_000 && matched > texts / 3, `only ${matched} of ${texts} texts matched: the comparison would pass vacuously`);
  });

  it('searches a line whole where the literal is denser than one window per 2,048 units, and only windows otherwise', () => {
    const source = 'api_token_[0-9a-f]{32}';
    const regex = compileRegex(source);
    const searched: number[] = [];
    const spy: SafeRegex = { source, test: (text) => regex.test(text), find: (text) => (searched.push(text.length), regex.find(text)) };
    const literal = requiredLiteral(source)!;
    const width = maxWidth(source)!;
    const key = `api_token_${'0123456789abcdef'.repeat(2)}`;
    const sparse = `${'x'.repeat(100_000)}api_token_${'y'.repeat(50_000)}${key}${'x'.repeat(100_000)}`;
    assert.deepEqual(findAround(spy, sparse, literal, width), regex.find(sparse));
    // Two windows: the literal's 10 units, and the width and 2 units on each side.
    assert.deepEqual(searched, [2 * (width + 2) - 10, 2 * (width + 2) - 10]);
    searched.length = 0;
    const dense = `${'api_token_x '.repeat(30_000)}${key}`;
    assert.deepEqual(findAround(spy, dense, literal, width), { index: dense.length - key.length, text: key });
    assert.deepEqual(searched, [dense.length]);
  });

  it('finds what the whole line finds for the patterns a hand-read token once mismeasured', () => {
    const pad = 'z'.repeat(5000);
    const cases: Array<[string, string]> = [
      ['SECRET[!-[:]x*y:]', `${pad}SECRET!${'x'.repeat(100)}y:]${pad}`],
      ['SECRET(?i){50}', `${pad}SECRE${'T'.repeat(50)}${pad}`],
      ['SECRET(?i){2,}', `${pad}SECRE${'T'.repeat(50)}${pad}`],
      ['SECRET(?s){0,9}', `${pad}SECRE${pad}`],
    ];
    const versions: RuleVersion[] = cases.map(([source], k) => ({ entry: entry(`p${k}`, [source]), origin: 'committed', file: 'rules' }));
    const files = [{ path: 'data.txt', status: 'added' as const, binary: false, added: cases.map(([, line], i) => ({ line: i + 1, text: line })) }];
    const found = scan([{ files }], compileRules(versions)).findings.map((f) => `${f.entryId} ${f.line}:${f.column} ${f.text}`).sort();
    const expected = cases.flatMap(([source], k) => cases.flatMap(([, line], i) => {
      const match = compileRegex(source).find(line);
      return match === undefined ? [] : [`p${k} ${i + 1}:${match.index + 1} ${redact(match.text, false)}`];
    })).sort();
    assert.equal(expected.length, 9);
    assert.deepEqual(found, expected);
  });

  it('reports in a scan the column and text of the whole line\'s first match, on lines past LONG_LINE', () => {
    const rng = prng(7);
    const patterns = Array.from({ length: 40 }, () => boundedPattern(rng));
    const versions: RuleVersion[] = patterns.map((p, k) => ({ entry: entry(`p${k}`, [p.source]), origin: 'committed', file: 'rules' }));
    // Each line: the lines of a few patterns far apart in filler, as in a minified bundle.
    const filler = (): string => 'function(a){return a+1};var b="'.repeat(Math.floor(rng() * 200)) + ' ';
    const lines = Array.from({ length: 60 }, () => {
      let line = '';
      while (line.length < LONG_LINE * 2) line += filler() + patterns[Math.floor(rng() * patterns.length)]!.lines[Math.floor(rng() * 12)]!;
      return line;
    });
    const files = [{ path: 'bundle.min.js', status: 'added' as const, binary: false, added: lines.map((text, i) => ({ line: i + 1, text })) }];
    const found = new Map(scan([{ files }], compileRules(versions)).findings.map((f) => [`${f.entryId} ${f.line}`, { column: f.column, text: f.text }]));
    let matched = 0;
    const differences: string[] = [];
    patterns.forEach((p, k) => lines.forEach((line, i) => {
      const match = p.regex.find(line);
      const expected = match === undefined ? undefined : { column: match.index + 1, text: redact(match.text, false) };
      if (expected !== undefined) matched++;
      const actual = found.get(`p${k} ${i + 1}`);
      if (show(actual) !== show(expected)) differences.push(`${show(p.source)} line ${i + 1}: whole ${show(expected)}, scan ${show(actual)}`);
    }));
    assert.deepEqual(differences.slice(0, 10), [], `${differences.length} differences`);
    assert.ok(matched > 100, `only ${matched} pairs matched`);
  });
});

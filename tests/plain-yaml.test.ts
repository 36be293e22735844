// The narrow YAML lore writes is read without the parser (store/_plain-yaml.ts). Whatever that
// reader takes must read exactly as yaml reads it: the same value, no error or warning from yaml,
// and the same plain scalars at the same places (the YAML 1.1 warnings come from them).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import YAML, { isScalar, LineCounter, visit } from 'yaml';
import { readPlainYaml, type PlainScalar } from '../src/store/_plain-yaml.js';
import { parseText } from '../src/store/parse.js';
import { DEFAULT_CONFIG } from '../src/store/config-defaults.js';
import { configTemplate } from '../src/store/config-template.js';
import { renderRecord } from '../src/store/write.js';
import { prng } from './helpers/glob-fuzz.js';

/** What yaml reads: value, problems and plain scalars in document order, as parse.ts meets them. */
function yamlReading(text: string): { value: unknown; problems: string[]; plain: PlainScalar[] } {
  const lineCounter = new LineCounter();
  const doc = YAML.parseDocument(text, { uniqueKeys: true, strict: true, lineCounter });
  const plain: PlainScalar[] = [];
  visit(doc, {
    Scalar(_key, node) {
      if (!isScalar(node) || node.type !== 'PLAIN' || node.range === undefined || node.range === null) return;
      const { line, col } = lineCounter.linePos(node.range[0]);
      plain.push({ source: text.slice(node.range[0], node.range[1]), value: node.value, line, column: col });
    },
  });
  const problems = [...doc.errors, ...doc.warnings].map((e) => e.message);
  return { value: problems.length === 0 ? doc.toJS() : undefined, problems, plain };
}

/** Asserts that when the plain reader takes `text`, yaml reads it the same; returns whether it was taken. */
function sameAsYaml(text: string): boolean {
  const plain = readPlainYaml(text);
  if (plain === undefined) return false;
  const yaml = yamlReading(text);
  assert.deepEqual(yaml.problems, [], `yaml has problems with a text the plain reader took: ${JSON.stringify(text)}`);
  assert.deepStrictEqual(plain.value, yaml.value, `different values for ${JSON.stringify(text)}`);
  assert.deepStrictEqual(plain.plain, yaml.plain, `different plain scalars for ${JSON.stringify(text)}`);
  return true;
}

const RECORD = [
  '# yaml-language-server: $schema=../../schemas/knowledge-entry.schema.json',
  'id: pro-no-env',
  'type: prohibition',
  'title: never commit .env files, keys (or tokens) to git; use a vault',
  'scope: global',
  'keywords:',
  '  - env',
  '  - "2027-06-30"',
  '  - yes',
  'globs:',
  '  - "**/.env"',
  '  - src/**/*.secret',
  'sourceRef: https://example.com/a#b?c=d',
  'examples:',
  '  - scenario: a .env file is staged',
  '    goodApproach: "keep it out: .gitignore"',
  '    level: 3',
  '  - scenario: on',
  'priority: critical',
  'confidence: 0.85',
  'timesApplied: 12',
  'complexity_range: [4, 6]',
  'extra: null',
  'empty: []',
  'createdAt: "2026-01-01T00:00:00.000Z"',
  'createdBy: Bench <bench@example.com>',
  'enabled: true',
  'details: "tab\\tand \\"quotes\\" and \\\\ and \\/ and é and 😀"',
  "note: 'Set \"strict\": true; it''s on'",
  '',
].join('\n');

describe('the plain YAML reader', () => {
  it('reads a record in the form lore writes as yaml does, plain scalars and their places included', () => {
    assert.equal(sameAsYaml(RECORD), true);
    const plain = readPlainYaml(RECORD)!;
    assert.deepEqual((plain.value as { keywords: unknown }).keywords, ['env', '2027-06-30', 'yes']);
    assert.deepEqual(plain.plain.find((s) => s.source === 'yes'), { source: 'yes', value: 'yes', line: 9, column: 5 });
    assert.deepEqual((plain.value as { examples: unknown }).examples, [{ scenario: 'a .env file is staged', goodApproach: 'keep it out: .gitignore', level: 3 }, { scenario: 'on' }]);
    assert.deepEqual(plain.plain.filter((s) => s.line === 17 || s.line === 18 || s.line === 22), [
      { source: 'level', value: 'level', line: 17, column: 5 },
      { source: '3', value: 3, line: 17, column: 12 },
      { source: 'scenario', value: 'scenario', line: 18, column: 5 },
      { source: 'on', value: 'on', line: 18, column: 15 },
      { source: 'complexity_range', value: 'complexity_range', line: 22, column: 1 },
      { source: '4', value: 4, line: 22, column: 20 },
      { source: '6', value: 6, line: 22, column: 23 },
    ]);
    assert.equal(plain.depth, 3);
  });

  it('leaves positions to the parser, which finds a field of a record read without it, and warns as for a parsed one', () => {
    const parsed = parseText(RECORD, 'pro-no-env.yaml');
    assert.deepEqual(parsed.locate('/keywords/2'), { line: 9, column: 5, frame: '  8 |   - "2027-06-30"\n> 9 |   - yes\n    |     ^^^' });
    assert.deepEqual(parsed.locateAll([{ pointer: '/nope', atKey: true }, { pointer: '/title', atKey: true }]).map((at) => at && [at.line, at.column]), [[2, 1], [4, 1]]);
    assert.deepEqual(parsed.problems.map((p) => `${p.line}:${p.column}: ${p.message}`), [
      '9:5: yes is a string to lore but a boolean to YAML 1.1 readers (PyYAML, SnakeYAML): write it quoted, "yes"',
      '18:15: on is a string to lore but a boolean to YAML 1.1 readers (PyYAML, SnakeYAML): write it quoted, "on"',
    ]);
  });

  it('finds fields and warns at their lines past literal blocks, and never inside a block', () => {
    const text = [
      'id: rec-block',
      'details: |-',
      '  first line',
      '    indented: yes',
      '  - item: on',
      '',
      '  priority: 1.5',
      'examples:',
      '  - scenario: |',
      '      two',
      '',
      '    outcome: 5',
      'keywords:',
      '  - yes',
      'priority: urgent',
      '',
    ].join('\n');
    assert.equal(sameAsYaml(text), true);
    const parsed = parseText(text, 'rec-block.yaml');
    assert.deepEqual(parsed.problems.map((p) => `${p.line}:${p.column}: ${p.message}`), ['14:5: yes is a string to lore but a boolean to YAML 1.1 readers (PyYAML, SnakeYAML): write it quoted, "yes"']);
    assert.deepEqual(parsed.locateAll([{ pointer: '/priority' }, { pointer: '/examples/0/outcome' }, { pointer: '/examples/0/scenario' }, { pointer: '/keywords', atKey: true }]).map((at) => at && [at.line, at.column]), [[15, 11], [12, 14], [9, 15], [13, 1]]);
  });

  it('leaves a text nested past 64 levels to the parser, without recursing through it', () => {
    const nested = (levels: number): string => Array.from({ length: levels }, (_, n) => `${'  '.repeat(n)}k:`).join('\n') + ' 1\n';
    assert.equal(readPlainYaml(nested(64))?.depth, 64);
    assert.equal(readPlainYaml(nested(65)), undefined);
    assert.equal(readPlainYaml(nested(1500)), undefined);
  });

  it('leaves a text nested past the depth limit to the parser, which says where', () => {
    assert.deepEqual(parseText('a:\n  - b: 1\n', 'x.yaml', { maxAliases: 100, maxDepth: 2 }).problems, [
      { severity: 'error', file: 'x.yaml', line: 2, column: 5, frame: '  1 | a:\n> 2 |   - b: 1\n    |     ^', message: 'the value is nested more than 2 levels deep (the limit, limits.max_depth)' },
    ]);
    assert.equal(parseText('a:\n  - b\n', 'x.yaml', { maxAliases: 100, maxDepth: 1 }).problems[0]?.line, 2);
    assert.deepEqual(parseText('a:\n  - b: 1\n', 'x.yaml', { maxAliases: 100, maxDepth: 3 }).value, { a: [{ b: 1 }] });
  });

  it('reads every record file of this repository and of the starter packs that it takes as yaml does', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory() && entry.name !== 'schemas' && entry.name !== '.cache') walk(path);
        else if (entry.isFile() && path.endsWith('.yaml')) files.push(path);
      }
    };
    walk('.knowledge');
    const knowledgeFiles = files.length;
    walk('packs');
    const taken = files.filter((file) => sameAsYaml(readFileSync(file, 'utf8')));
    assert.ok(taken.length >= 30, `only ${taken.length} of ${files.length} files were in the plain form`);
    // What lore init copies into every store is read without loading yaml.
    assert.deepEqual(files.slice(knowledgeFiles).filter((file) => !taken.includes(file)), []);
  });

  it('reads the config.yaml lore init writes as yaml does, comments and nested settings included', () => {
    for (const project of ['shop', 'my-app_2', '2026', 'yes', 'a b', 'café', undefined]) {
      const text = configTemplate(project, '# yaml-language-server: $schema=schemas/config.schema.json');
      assert.equal(sameAsYaml(text), project !== 'café', text);
    }
    const plain = readPlainYaml(configTemplate('shop', '# c'))!;
    assert.deepEqual(plain.value, { version: 1, project: 'shop', ...Object.fromEntries(Object.entries(DEFAULT_CONFIG).filter(([key]) => key !== 'version')) });
    assert.equal(plain.depth, 2);
  });

  // Each of these is either refused or read as yaml reads it; the second column says which.
  const cases: Array<[string, boolean]> = [
    ['a: 1\n', true], ['a: -0\n', true], ['a: 0.50\n', true], ['a: 9007199254740993\n', false], ['a: 123456789012345\n', true],
    ['a: 1_000\n', false], ['a: 0x1F\n', false], ['a: 0o17\n', false], ['a: 1e5\n', false], ['a: .5\n', false], ['a: +1\n', false],
    ['a: 007\n', false], ['a: 1.\n', false], ['a: .inf\n', false], ['a: NaN\n', true], ['a: Infinity\n', true],
    ['a: ~\n', false], ['a: Null\n', true], ['a: nULL\n', true], ['a: TRUE\n', true], ['a: yes\n', true], ['a: y\n', true], ['a: e5\n', true],
    ['a: foo: bar\n', false], ['a: foo #c\n', false], ['a: foo#c\n', true], ['a: http://x.y/z\n', true], ['a: x:\n', false],
    ['a: x,y [z] {w}\n', true], ['a: x ]\n', true], ['a: -x\n', true], ['a: - x\n', false], ['a: "x\\u0041"\n', false], ["a: 'it''s \"x\"'\n", true], ["a: ''\n", true], ["a: 'x''\n", false], ["a: 'x' y\n", false], ["a: 'é\\n'\n", true], ["a: '\t'\n", false],
    ['a: >-\n  x\n', false], ['a: &x y\n', false], ['a: *x\n', false], ['a: !!str 1\n', false],
    ['a: x ! & * | > % @ ` \' " \\\n', true], ['a: x\\ny\n', true], ['a: [1, 2]\n', true], ['a: [1,2]\n', false], ['a: [x]\n', false],
    ['a: []\n', true], ['a: {}\n', false], ['a:\n  - x\n  - 2\n  - "3"\nb: c\n', true], ['a:\n- x\n', false], ['a:\n', false],
    ['a:\n  - x: 1\n', true], ['a:\n  - b: 1\n    c: x\n  - d: y\ne: f\n', true], ['a:\n  - b: 1\n   c: x\n', false], ['a:\n  - b: 1\n    b: 2\n', false], ['a:\n  - b:\n    c: 1\n', false], ['a:\n  - b: [1, 2]\n', true], ['a:\n  - b: 1\n    - c\n', false], ['a:\n  - __proto__: 1\n', false], ['a:\n  - True: 1\n', false], ['a:\n  - b: c: d\n', false], ['a:\n  - x\n    c: 1\n', false], ['a:\n  - b: 1\n      c: 2\n', false], ['a:\n  - b: 1\n    c:\n      - d\n', true], ['a:\n  - - x\n', false], ['a:\n  - []\n', false], ['a:\n    - x\n', false], ['a:\n  -  x\n', false],
    ['a: x\n  y\n', false], ['a: x\n\n  y\n', false], ['a: x\n\nb: y\n', false], ['a: x \n', false], ['a:  x\n', false], ['a : x\n', false],
    ['a: 1\na: 2\n', false], ['__proto__: x\n', false], ['true: x\n', false], ['null: x\n', false], ['on: x\n', true], ['y: n\n', true],
    ['# c\n# d\na: 1\n', true], ['a: 1\n# c\n', true], ['# c\n', false], ['', false], ['a: 1', true], ['a: 1\r\n', false], ['\ufeffa: 1\n', false],
    ['---\na: 1\n', false], ['a: 1\n...\n', false], ['a: 1\n---\nb: 2\n', false], ['%YAML 1.1\n---\na: 1\n', false],
    ['a: é\n', false], ['a: "é 😀"\n', true], ['a: "\ud800"\n', false], ['a: "\u2028"\n', false], ['a: "\t"\n', false], ['a: x\ty\n', false],
    [`${'k'.repeat(128)}: x\n`, true], [`${'k'.repeat(129)}: x\n`, false], ['a: <<\n', false], ['<<: x\n', false], ['a1_B: x\n', true], ['1a: x\n', false],
    // Literal blocks, as yaml writes text of several lines.
    ['a: |-\n  x\n', true], ['a: |\n  x\n', true], ['a: |-\n  x', true], ['a: |\n  x', false], ['a: |+\n  x\n', false], ['a: |2-\n   x\n', false],
    ['a: |-\n   x\n', false], ['a: |-\n  x\n   y\n  z\n', true], ['a: |-\n  x\n\n  y\n', true], ['a: |-\n  x\n \n  y\n', false], ['a: |-\n  x\n\t\n', false],
    ['a: |-\n  x\n\n\nb: 1\n', true], ['a: |\n  x\n\n\nb: 1\n', true], ['a: |\n  x\n\n', true], ['a: |-\n\n  x\n', true], ['a: |-\nb: 1\n', false], ['a: |-\n', false],
    ['a: |-\n  # not a comment\n  - x: y\n  "q" \'r\' : #\n', true], ['a: |-\n  x\ty\n  \tz\n', true], ['a: |-\n  \tx\n', false], ['a: |-\n  x \n', true],
    ['a: |-\n  é 😀\n', true], ['a: |-\n  \u2028\n', false], ['a: |-\n  \ud800\n', false], ['a: |-\n  x\u0085y\n', false], ['a: |-\n  x\n# c\n', true], ['a: |-\n  x\n  ---\n  ...\n', true],
    ['a: |- \n  x\n', false], ['a: |-  # c\n  x\n', false], ['a: |-\n x\n', false], ['a: |-\n  x\n y\n', false],
    ['a:\n  - b: |-\n      x\n      y\n    c: d\n', true], ['a:\n  - b: |-\n      x\n  - c: |\n      y\n\ne: f\n', true], ['a:\n  - b: 1\n    c: |-\n      x\n', true],
    ['a:\n  - b: |-\n     x\n', false], ['a:\n  - b: |-\n       x\n', false], ['a:\n  - |-\n    x\n', false], ['a:\n  - b: |-\n      x\n     y\n', false],
    // Scalars that start as patterns and file names do, and the numbers and words among them.
    ['a: \\bAKIA[0-9]{16}\\b\n', true], ['a: (?:^|/)x\n', true], ['a: $HOME\n', true], ['a: ^x$\n', true], ['a: //x/:y\n', true], ['a: .env\n', true], ['a: ./x\n', true],
    ['a: .-x\n', true], ['a: ._x\n', true], ['a: .inf\n', false], ['a: .NaN\n', false], ['a: .Infinity\n', true], ['a: .5\n', false], ['a: ..x\n', false], ['a: .\n', false],
    ['a: --x\n', true], ['a: -----BEGIN KEY-----\n', true], ['a: -1\n', true], ['a: -.5\n', false], ['a: -.inf\n', false], ['a: -\n', false], ['a:\n  - -x\n  - --- x\n', true],
    // Mappings nested two spaces a level, and comment lines at the column of the key after them.
    ['a:\n  b: 1\n  c: x\nd: 2\n', true], ['a:\n  b:\n    c: 1\n', true], ['a:\n  b:\n    - x\n  c:\n    - d: 1\n      e: |-\n        y\n', true],
    ['a:\n  b: |-\n    x\n  c: 1\n', true], ['a:\n  - b:\n      c: 1\n', true], ['a:\n  - b:\n      - c\n    d: 1\n', true], ['a:\n  b: [1, 2]\n', true],
    ['a:\n   b: 1\n', false], ['a:\n b: 1\n', false], ['a:\n  b: 1\n c: 2\n', false], ['a:\n  b: 1\n   c: 2\n', false], ['a:\n  b: 1\n  b: 2\n', false], ['a:\n  b:\n', false],
    ['a:\n  b: 1\n\n  c: 2\n', false], ['a:\n  true: 1\n', false], ['a:\n  - b:\n    c: 1\n', false], ['a:\n  b:\n  - c\n', false],
    ['# c\na: 1\n# d\nb: 2\n', true], ['a:\n  # c\n  # d\n  b: 1\n', true], ['a:\n  b: 1\n# c\nd: 2\n', true], ['a:\n  - b: 1\n    # c\n    d: 2\n', true],
    ['a: |-\n  x\n# c\nb: 1\n', true], ['a: |\n  x\n\n# c\nb: 1\n', true], ['a:\n  b: 1\n  # c\n', true], ['a:\n  b: 1\n  # c\nd: 2\n', true], ['a:\n # c\n  b: 1\n', false], ['a:\n   # c\n  b: 1\n', false],
    ['a:\n  b: 1\n# c\n  d: 2\n', false], ['a:\n  # c\n  - x\n', false], ['a:\n  - x\n  # c\n  - y\n', false], ['a: 1\n#\u00e9\nb: 2\n', false], ['a: 1\n # c\nb: 2\n', false],
  ];
  for (const [text, taken] of cases) {
    it(`${taken ? 'reads as yaml does' : 'leaves to the parser'}: ${JSON.stringify(text)}`, () => {
      assert.equal(sameAsYaml(text), taken);
    });
  }

  it('reads random texts built from YAML\'s tricky pieces as yaml does, whenever it takes them', () => {
    const random = prng(15);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const pieces = ['a', 'Z', 'q_', '7', '0', '-', '.', ' ', ' ', ':', ': ', '#', ' #', '"', "'", '\\', '\\n', '\\u0041', '\\x', '\t', '[', ']', '{', '}', ',', '_', 'é', '😀', '\u2028', '\u0085', '\r', 'yes', 'null', 'True', '~', '0x', '1e5', '&a', '*a', '!', '|', '>', '%', '@', '`', '<<', '-0', '12', '3.5'];
    const plainPieces = ['a', 'Z', 'q_', '7', ' ', '.', '-', ':', '#', ',', '[', ']', '{', '}', '!', '&', '*', '|', '>', '%', '@', '`', "'", '\\'];
    // Mostly pieces that may stay in the plain form, so that many texts are taken and the comparison bites.
    const text = (): string => Array.from({ length: 1 + Math.floor(random() * 5) }, () => pick(random() < 0.8 ? plainPieces : pieces)).join('');
    const scalar = (): string => {
      const r = random();
      if (r < 0.2) return `"${text()}"`;
      if (r < 0.25) return `'${text()}'`;
      if (r < 0.35) return pick(['1', '-0', '0.5', '10.25', 'true', 'False', 'NULL', 'yes', 'on', '2026-01-01']);
      return `${pick(['a', 'b', 'x', 'T'])}${text()}`;
    };
    const key = (): string => (random() < 0.9 ? `${pick(['a', 'b', 'title', 'on', 'y', 'n', 'k9', 'f_g'])}${Math.floor(random() * 50)}` : pick(['a', 'on', 'true', 'null', '__proto__', 'é', '1', '-a', 'a b']));
    // A literal block: mostly as yaml writes one, now and then another header, a line off, or a line of spaces.
    const blockPieces = [...pieces, '    ', '\t', '- x', '# c', 'a: b', '---'];
    const block = (indent: number): string => {
      const header = random() < 0.85 ? pick(['|-', '|']) : pick(['|+', '|2-', '>-', '|- ', '|-#', '']);
      const body = Array.from({ length: 1 + Math.floor(random() * 4) }, (_, n) => {
        const r = random();
        if (r < 0.1) return '';
        if (r < 0.13) return pick([' ', '  ', '\t', ' '.repeat(indent + 1)]);
        const margin = random() < 0.93 ? indent : pick([indent - 1, indent + 1, indent + 2]);
        const first = n === 0 && random() < 0.9 ? pick(['x', 'A', '1', '-', '#', '"', "'", 'é']) : '';
        return `${' '.repeat(Math.max(0, margin))}${first}${Array.from({ length: Math.floor(random() * 4) }, () => pick(blockPieces)).join('')}`;
      });
      return [header, ...body, ...(random() < 0.2 ? [''] : [])].join('\n');
    };
    const line = (): string => {
      const r = random();
      if (r < 0.08) return `${key()}: ${block(2)}`;
      if (r < 0.12) return [`${key()}:`, `  - ${key()}: ${random() < 0.5 ? block(6) : scalar()}`, `    ${key()}: ${block(6)}`].join('\n');
      if (r < 0.5) return `${key()}: ${scalar()}`;
      if (r < 0.6) return `${key()}:`;
      if (r < 0.7) return `  - ${scalar()}`;
      if (r < 0.8) {
        // A list of mappings, as an entry's examples are written, now and then a line off.
        const items = Array.from({ length: 1 + Math.floor(random() * 3) }, () => [`  - ${key()}: ${scalar()}`, ...Array.from({ length: Math.floor(random() * 3) }, () => `${random() < 0.95 ? '    ' : '   '}${key()}: ${scalar()}`)].join('\n'));
        return [`${key()}:`, ...items].join('\n');
      }
      if (r < 0.85) return `    ${key()}: ${scalar()}`;
      if (r < 0.9) return `${key()}: [${pick(['1', '1, 2', '-0, 30', 'x', '1,2', ' 1'])}]`;
      return pick(['# note', '', '- x', '    x', '---', '...', 'a:  b', 'a : b', `${key()}: []`, `${key()}: {}`, '  -', '#', '#é']);
    };
    let taken = 0;
    let withMaps = 0;
    let withBlocks = 0;
    for (let n = 0; n < 20_000; n++) {
      const lines = Array.from({ length: 1 + Math.floor(random() * 6) }, line);
      const text = lines.join(random() < 0.05 ? '\r\n' : '\n') + (random() < 0.9 ? '\n' : '');
      if (sameAsYaml(text)) {
        taken++;
        if (readPlainYaml(text)!.depth === 3) withMaps++;
        if (/: \|/.test(text)) withBlocks++;
      }
    }
    // The check above means something only if many texts were taken.
    assert.ok(taken > 2000 && withMaps > 200 && withBlocks > 200, `only ${taken} random texts were in the plain form, ${withMaps} with mappings in lists, ${withBlocks} with blocks`);
  });

  it('reads random nested mappings and lists, with comment lines, as yaml does, whenever it takes them', () => {
    const random = prng(33);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    // Each text has its own odds of a line off its column or a comment out of place (noise).
    let noise = 0;
    const odd = (p: number): boolean => random() < p * noise;
    const pad = (n: number): string => ' '.repeat(Math.max(0, n));
    const shift = (column: number): number => (odd(0.08) ? column + pick([-2, -1, 1, 2]) : column);
    const comment = (column: number): string => `${pad(shift(column))}${odd(0.2) ? pick(['#é', '#\t', '# c ', 'x']) : pick(['# c', '#', '# a: b', '#  - x', '# |-'])}`;
    const key = (): string => (odd(0.1) ? pick(['on', 'true', '__proto__', 'a b', '-a', '1']) : pick(['a', 'b', 'c', 'limits', 'max_depth', 'k9']));
    const taken = ['x', 'hello world', '1', '-1', '0.5', '"q"', "'s'", 'true', 'yes', 'null', 'on', '.env', './x', '-x', '--x', '-----BEGIN KEY-----', '\\bAKIA[0-9]{16}\\b', '(?:^|/)x', '$HOME', '^x$', '//x/:y'];
    const scalar = (): string => (odd(0.5) ? pick(['~', '.inf', '.NaN', '.5', '..x', '-', '-.5', '- x', '[1, 2]', '[]', '{}', 'a: b', 'x #c', 'x:', 'é', '*a', '&a x', '!x', '|', '>', '%x', '@x']) : pick(taken));
    const block = (column: number): string[] => Array.from({ length: 1 + Math.floor(random() * 3) }, () => (odd(0.1) ? pick(['', pad(column), '# c']) : `${pad(shift(column))}${pick(['x', '# not a comment', '- y', 'b: 1'])}`));
    const comments = (column: number): string[] => (random() < 0.25 ? Array.from({ length: 1 + Math.floor(random() * 2) }, () => comment(column)) : []);
    // One `key:` entry whose key stands at `column`, written after `lead` (spaces, or `- ` for a list item's first).
    const entry = (column: number, depth: number, lead: string): string[] => {
      const head = `${lead}${key()}:`;
      const r = random();
      if (depth < 5 && r < 0.25) return [head, ...comments(column + 2), ...mapping(column + 2, depth + 1)];
      if (depth < 5 && r < 0.45) return [head, ...(odd(0.2) ? comments(column + 2) : []), ...list(column + 2, depth + 1)];
      if (r < 0.55) return [`${head} ${pick(['|-', '|'])}`, ...block(column + 2)];
      if (r < 0.6) return [`${head} ${pick(['[1, 2]', '[]', '[-3]'])}`];
      if (odd(0.05)) return [head];
      return [`${head} ${scalar()}`];
    };
    const mapping = (column: number, depth: number): string[] => {
      const lines: string[] = [];
      for (let n = 1 + Math.floor(random() * 3); n > 0; n--) lines.push(...(lines.length > 0 ? comments(column) : []), ...entry(column, depth, pad(shift(column))));
      if (odd(0.1)) lines.push(comment(column));
      return lines;
    };
    const list = (column: number, depth: number): string[] => Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
      const lead = `${pad(shift(column))}- `;
      if (random() < 0.35) return [`${lead}${scalar()}`];
      const item = entry(column + 2, depth + 1, lead);
      for (let n = Math.floor(random() * 3); n > 0; n--) item.push(...comments(column + 2), ...entry(column + 2, depth + 1, pad(shift(column + 2))));
      return item;
    }).flat();
    let read = 0;
    let deep = 0;
    let withComments = 0;
    for (let n = 0; n < 30_000; n++) {
      noise = pick([0, 0.3, 1]);
      const text = [...comments(0), ...mapping(0, 1)].join('\n') + (random() < 0.95 ? '\n' : '');
      if (!sameAsYaml(text)) continue;
      read++;
      if (readPlainYaml(text)!.depth >= 4) deep++;
      if (/\n *#/.test(text)) withComments++;
    }
    assert.ok(read > 6000 && deep > 1000 && withComments > 1000, `only ${read} random texts were in the plain form, ${deep} nested four deep or more, ${withComments} with comment lines past the first key`);
  });

  it('reads every literal block of up to three lines drawn from tricky lines as yaml does, whenever it takes it', () => {
    // Lines of blanks, lines off the margin, lines that look like keys, items, comments or document markers.
    const lines = ['', ' ', '  ', '   ', '\t', '  \t', 'x', ' x', '  x', '   x', '  \tx', '\tx', '  #', '# c', 'b: 1', '  - x', '---', '...', '  ---', '    x', '      x', '     x', '    c: d', '  - c: d', '  x ', '      ', '    '];
    let taken = 0;
    const walk = (body: string[]): void => {
      for (const head of ['a: ', 'a:\n  - b: ', 'a:\n  - z: 1\n    b: ']) {
        for (const header of ['|-', '|']) {
          for (const end of ['\n', '']) if (sameAsYaml(`${head}${header}\n${body.join('\n')}${end}`)) taken++;
        }
      }
      if (body.length < 3) for (const line of lines) walk([...body, line]);
    };
    walk([]);
    assert.ok(taken > 1500, `only ${taken} texts were in the plain form`);
  });

  it('reads 200,000 random texts of literal blocks, at the top and in list items, as yaml does, whenever it takes them', () => {
    const random = prng(30);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    // Each text draws on tricky pieces with its own odds (noise): from none to often.
    let noise = 0;
    const odd = (p: number): boolean => random() < p * noise;
    const safe = ['x', 'A', '1', ' ', '  ', '\t', '#', ' #', ': ', ':', '-', '- ', '---', '...', '|', '>', '"', "'", '\\', '{', '[', '&', '*', '!', '%', '@', '`', '?', 'é', '😀', '\u00a0', '\u3000', 'key: v', 'a: |-', '  - x'];
    const tricky = [...safe, '|-', '? ', '\ud800', '\udc00', '\u2028', '\u2029', '\u0085', '\ufeff', '\r', '\x7f', '\x00', '\x1b', '\x0b', '\x0c', '\ufffe', 'true', 'null', '~'];
    const text = (): string => Array.from({ length: Math.floor(random() * 5) }, () => pick(random() < noise ? tricky : safe)).join('');
    const key = (): string => (odd(0.15) ? pick(['on', 'true', '__proto__', 'é', 'a b', '-a']) : pick(['a', 'b', 'c', 'details', 'scenario', 'x1']));
    const scalar = (): string => pick(['x', 'hello world', '1', '"q"', "'s'", 'true', 'yes', '|', '|x', '[1, 2]', '[]', text()]);
    const header = (): string => (odd(0.2) ? pick(['|+', '|2', '|2-', '|-2', '>', '>-', '|- ', '|-\t', '|- #c', '|#', '| ', '|-\r']) : pick(['|-', '|']));
    const block = (indent: number): string[] => Array.from({ length: Math.floor(random() * 6) }, () => {
      const r = random();
      if (r < 0.15) return '';
      if (r < 0.15 + 0.05 * noise) return pick([' ', '  ', '   ', '\t', ' \t', ' '.repeat(indent), ' '.repeat(indent + 1), ' '.repeat(indent - 1), `${' '.repeat(indent)}\t`, '\r', '\u2028', '\u0085']);
      if (r < 0.15 + 0.1 * noise) return pick(['---', '...', '# c', '#', '- x', 'b: 1', '  - x', '    c: d', '  b: 1', '--- x', '... x', '\tx', ' x', '\ufeffx']);
      const margin = odd(0.15) ? pick([0, 1, 2, 4, indent - 1, indent + 1, indent + 2, indent + 4]) : indent;
      const first = odd(0.2) ? '' : pick(['x', 'A', '-', '#', '"', "'", 'é', '|', '>', '*', '&', '!', '%', '?', ':', '[', '{']);
      return `${' '.repeat(Math.max(0, margin))}${first}${text()}`;
    });
    const entry = (indent: string): string[] => (random() < 0.6 ? [`${indent}${key()}: ${header()}`, ...block(6)] : [`${indent}${key()}: ${scalar()}`]);
    const part = (): string[] => {
      const r = random();
      if (r < 0.35) return [`${key()}: ${header()}`, ...block(2)];
      if (r < 0.55) {
        const items = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
          if (odd(0.15)) return [`  - ${scalar()}`];
          if (odd(0.05)) return [`  - ${header()}`, ...block(4)];
          return [...entry('  - '), ...Array.from({ length: Math.floor(random() * 3) }, () => entry('    ')).flat()];
        });
        return [`${key()}:`, ...items.flat()];
      }
      if (r < 0.85) return [`${key()}: ${scalar()}`];
      if (r < 0.9) return [pick(['# c', '', '---', '...', ' ', '  # c'])];
      return [`${key()}:`, `  - ${scalar()}`];
    };
    let taken = 0;
    let blocks = 0;
    let blocksInItems = 0;
    for (let n = 0; n < 200_000; n++) {
      noise = pick([0, 0.1, 0.3, 1]);
      const parts = Array.from({ length: 1 + Math.floor(random() * 4) }, part).flat();
      let text = parts.join(odd(0.03) ? '\r\n' : '\n') + pick(['\n', '\n', '\n', '', '\n\n', '\n\n\n']);
      if (odd(0.03)) text = pick(['\ufeff', '# c\n', '---\n', ' ']) + text;
      if (!sameAsYaml(text)) continue;
      taken++;
      if (/^\w+: \|/m.test(text)) blocks++;
      if (/^ {2}(?:- | {2})\w+: \|/m.test(text)) blocksInItems++;
    }
    assert.ok(taken > 20_000 && blocks > 10_000 && blocksInItems > 1500, `only ${taken} random texts were in the plain form, ${blocks} with blocks at the top, ${blocksInItems} in list items`);
  });

  it('reads records lore writes with random text of several lines as they were written, without the parser when it takes them', () => {
    const random = prng(31);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const pieces = ['word', 'x', ' ', '  ', '\t', '#', ' # c', ': ', '- ', '-', '---', '...', '|', '>', '"', "'", '\\', '{', '[', '*', '&', '!', '%', '@', '`', '?', 'é', '😀', '\u00a0', 'true', 'yes', '1', '- item', 'key: value'];
    const odd = ['\r', '\u2028', '\u0085', '\ufeff', '\x7f', '\x1b'];
    // Text as people paste it: lines indented with spaces or tabs, trailing blanks, empty lines, lines of blanks.
    const line = (clean: boolean): string => {
      const lead = random() < 0.15 ? pick([' ', '  ', '\t', ' \t', '    ']) : '';
      const trail = random() < 0.1 ? pick([' ', '  ', '\t']) : '';
      return lead + Array.from({ length: Math.floor(random() * 6) }, () => (clean || random() < 0.9 ? pick(pieces) : pick(odd))).join('') + trail;
    };
    const lines = (): string => {
      const clean = random() < 0.85;
      let text = Array.from({ length: 1 + Math.floor(random() * 6) }, () => (random() < 0.15 ? '' : line(clean))).join('\n');
      if (random() < 0.3) text += pick(['\n', '\n\n', '\n\n\n', ' \n', '\n ', '\n \n']);
      if (random() < 0.1) text = pick(['\n', '\n\n', ' ', '\t', ' \n', ' \n\t\n']) + text;
      return text;
    };
    const at = '2026-01-01T00:00:00.000Z';
    let taken = 0;
    for (let n = 0; n < 2000; n++) {
      const type = pick(['recommendation', 'prohibition', 'learning'] as const);
      const entry: Record<string, unknown> = { id: `e-${n}`, type, title: 'a title', description: lines() || 'd', scope: 'global', keywords: ['a'], priority: 'high', source: 'manual', createdAt: at, updatedAt: at, createdBy: 'B <b@example.com>', enabled: true };
      if (random() < 0.8) entry.details = lines();
      if (random() < 0.5) {
        entry.examples = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
          const example: Record<string, unknown> = { scenario: lines() || 's' };
          for (const field of ['goodApproach', 'badApproach', 'outcome']) if (random() < 0.6) example[field] = lines();
          return example;
        });
      }
      const text = renderRecord(type, entry);
      const parsed = parseText(text, `${entry.id as string}.yaml`);
      assert.deepEqual([parsed.problems, parsed.value], [[], entry], `lore reads otherwise what it wrote: ${JSON.stringify(text)}`);
      if (sameAsYaml(text)) taken++;
    }
    assert.ok(taken > 150, `only ${taken} records were in the plain form`);
  });
});

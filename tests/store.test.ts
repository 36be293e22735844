import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LoreError } from '../src/errors.js';
import { findStoreRoot } from '../src/store/locate.js';
import { loadConfig, openStore } from '../src/store/open.js';
import { parseText } from '../src/store/parse.js';
import { readRecords } from '../src/store/read.js';
import { recordPath } from '../src/store/layout.js';
import { entityFileStem } from '../src/store/ids.js';
import { validateStore } from '../src/store/validate.js';
import { deleteRecord, writeRecord } from '../src/store/write.js';
import { tempDir, tempStore } from './helpers/temp.js';

const NOW = '2026-01-01T00:00:00.000Z';

function entry(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, type: 'prohibition', title: `Title of ${id}`, description: 'Do not.', scope: 'global', keywords: ['env'], priority: 'critical', source: 'manual', createdAt: NOW, updatedAt: NOW, createdBy: 'Test <t@example.com>', enabled: true, ...extra };
}

function entryYaml(id: string, extra = ''): string {
  return `id: ${id}\ntype: prohibition\ntitle: T\ndescription: D\nscope: global\nkeywords: []\npriority: high\nsource: manual\ncreatedAt: "${NOW}"\nupdatedAt: "${NOW}"\ncreatedBy: me\nenabled: true\n${extra}`;
}

describe('parsing record text', () => {
  it('reports a YAML syntax error with its line, column and a caret under it', () => {
    const parsed = parseText('id: x\ntitle: [unclosed\nother: 1\n', 'f.yaml');
    assert.equal(parsed.value, undefined);
    const [problem] = parsed.problems;
    assert.equal(problem?.severity, 'error');
    assert.equal(problem?.line, 3);
    assert.match(problem!.message, /^YAML syntax: Flow sequence in block collection must be sufficiently indented and end with a \]/);
    assert.equal(problem?.frame, '  2 | title: [unclosed\n> 3 | other: 1\n    | ^');
  });

  it('refuses a YAML alias bomb instead of expanding it', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]', 'e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]', ''].join('\n');
    const parsed = parseText(bomb, 'bomb.yaml');
    assert.equal(parsed.value, undefined);
    assert.deepEqual(parsed.problems.map((p) => p.message), ['too many YAML alias expansions (limit 100): the file looks like an alias bomb']);
  });

  it('calls an empty file empty', () => {
    for (const text of ['', '\n\n', '# only a comment\n']) {
      assert.deepEqual(parseText(text, 'e.yaml').problems.map((p) => p.message), ['the file is empty: expected a record (key: value lines)']);
    }
  });

  it('refuses nesting deeper than the limit, at the first collection past it', () => {
    const deep = `a: ${'['.repeat(40)}${']'.repeat(40)}\n`;
    assert.deepEqual(parseText(deep, 'd.yaml').problems.map((p) => [p.line, p.column, p.message]), [[1, 35, 'the value is nested more than 32 levels deep (the limit, limits.max_depth)']]);
  });

  it('refuses duplicate keys', () => {
    assert.match(parseText('a: 1\na: 2\n', 'k.yaml').problems[0]!.message, /Map keys must be unique/);
  });
});

describe('reading records', () => {
  it('lists every schema error of a record, each with its line, column and pointer', async (t) => {
    const root = tempStore(t, {
      '.knowledge/gates/feature-4-6.yaml': 'id: QG-feature-4-6\ntask_type: feature\ncomplexity_range: [4, 6]\narch_review_required: true\narch_review_threshold: 60\ncoverage_required: true\ncoverage_threshold: 85\ntests_required: yes\ntests_must_pass: true\ncolour: blue\n',
    });
    const result = await readRecords(root);
    assert.equal(result.records.length, 0);
    assert.deepEqual(result.problems.map((p) => [p.line, p.column, p.pointer, p.message]), [
      // The yes is a boolean to a YAML 1.1 reader: said as the file is read.
      [8, 17, undefined, 'yes is a string to lore but a boolean to YAML 1.1 readers (PyYAML, SnakeYAML): write it quoted, "yes"'],
      [10, 1, '/colour', 'unknown field "colour"'],
      [7, 21, '/coverage_threshold', 'coverage_threshold must be <= 1 (found 85)'],
      [8, 17, '/tests_required', 'tests_required must be true or false (found string "yes")'],
    ]);
    assert.equal(result.problems[2]!.file, '.knowledge/gates/feature-4-6.yaml');
  });

  it('refuses a file over the size cap without parsing it', async (t) => {
    const root = tempStore(t, { '.knowledge/knowledge/learnings/big.yaml': entryYaml('big', `details: ${'x'.repeat(2 * 1024 * 1024)}\n`) });
    const result = await readRecords(root);
    assert.equal(result.records.length, 0);
    assert.match(result.problems[0]!.message, /^the file is \d+ bytes, over the limit of 1048576 bytes \(limits.max_file_bytes in config.yaml\)$/);
  });

  it('reports a file whose name does not match its id', async (t) => {
    const root = tempStore(t, { '.knowledge/knowledge/prohibitions/pro-a.yaml': entryYaml('pro-b') });
    const result = await readRecords(root);
    assert.deepEqual(result.problems.map((p) => [p.line, p.message]), [[1, 'the file name pro-a.yaml does not match its id "pro-b": rename the file to pro-b.yaml or change the id']]);
  });

  it('reports an entry in the folder of another type', async (t) => {
    const root = tempStore(t, { '.knowledge/knowledge/learnings/pro-a.yaml': entryYaml('pro-a') });
    const result = await readRecords(root);
    assert.deepEqual(result.problems.map((p) => p.message), ['type is "prohibition", but the file is in knowledge/learnings/; move it to the folder of its type or change the type']);
  });

  it('reports a regular expression that could backtrack or cannot compile, naming it', async (t) => {
    const root = tempStore(t, { '.knowledge/knowledge/prohibitions/pro-a.yaml': entryYaml('pro-a', "content:\n  - '(a)\\1'\n  - 'ok+'\nglobs:\n  - 'src/{a,b'\n") });
    const result = await readRecords(root);
    assert.deepEqual(result.problems.map((p) => [p.line, p.message]), [
      [14, 'content[0] "(a)\\\\1" is not a usable regular expression: invalid escape sequence: `\\1` (patterns use RE2 syntax and run in linear time, so back-references and lookaround are not available)'],
      [17, 'globs[0] "src/{a,b" is not a usable glob: a { is not closed: write \\{ for a literal {'],
    ]);
  });

  it('accepts a hand-written .json record', async (t) => {
    const root = tempStore(t, { '.knowledge/knowledge/prohibitions/pro-j.json': JSON.stringify(entry('pro-j')) });
    const result = await readRecords(root);
    assert.deepEqual(result.problems, []);
    assert.deepEqual(result.records.map((r) => [r.kind, r.id, r.file]), [['prohibition', 'pro-j', '.knowledge/knowledge/prohibitions/pro-j.json']]);
  });
});

describe('writing records', () => {
  it('writes the canonical form: $schema line, schema key order, YAML 1.1-safe quoting, trailing newline', async (t) => {
    const root = tempStore(t);
    // Words a YAML 1.1 reader takes for a boolean, null or number are quoted (e5 is a float to yaml's 1.1 schema); yEs is not one.
    const keywords = ['yes', 'env', '2026-01-01', 'e5', 'E-2', 'Off', 'null', 'yEs', 'Null value', 'y', "it's (a/b) ok"];
    const value = { enabled: true, ...entry('pro-order', { keywords, details: 'line one\nline two\n' }) };
    const result = await writeRecord(root, 'prohibition', value);
    assert.deepEqual(result, { file: '.knowledge/knowledge/prohibitions/pro-order.yaml', status: 'created' });
    assert.equal(readFileSync(join(root, result.file), 'utf8'), [
      '# yaml-language-server: $schema=../../schemas/knowledge-entry.schema.json',
      'id: pro-order',
      'type: prohibition',
      'title: Title of pro-order',
      'description: Do not.',
      'details: |',
      '  line one',
      '  line two',
      'scope: global',
      'keywords:',
      '  - "yes"',
      '  - env',
      '  - "2026-01-01"',
      '  - "e5"',
      '  - "E-2"',
      '  - "Off"',
      '  - "null"',
      '  - yEs',
      '  - Null value',
      '  - "y"',
      "  - it's (a/b) ok",
      'priority: critical',
      'source: manual',
      'createdAt: "2026-01-01T00:00:00.000Z"',
      'updatedAt: "2026-01-01T00:00:00.000Z"',
      'createdBy: Test <t@example.com>',
      'enabled: true',
      '',
    ].join('\n'));
  });

  it('writes text that yaml would write so that it reads back otherwise as a quoted string on one line, and reads it back as it was', async (t) => {
    const root = tempStore(t);
    // yaml 2.9 writes the first two as blocks of blank lines with no indentation indicator (read
    // back as "\n", and not at all), and breaks the third over lines with `\\ ` for its line of one space.
    const details = ' \n';
    const example = { scenario: ' \n\t\n', goodApproach: 'First paragraph of the approach, long enough.\n \nSecond paragraph.\n ' };
    const value = entry('pro-blank', { details, examples: [example] });
    const result = await writeRecord(root, 'prohibition', value);
    const text = readFileSync(join(root, result.file), 'utf8');
    assert.deepEqual(text.split('\n').slice(5, 9), [
      'details: "\\ \\n"',
      'examples:',
      '  - scenario: "\\ \\n\\t\\n"',
      '    goodApproach: "First paragraph of the approach, long enough.\\n\\ \\nSecond paragraph.\\n "',
    ]);
    const parsed = parseText(text, result.file);
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(parsed.value, value);
  });

  it('leaves the file byte-identical and untouched when nothing changed', async (t) => {
    const root = tempStore(t);
    const first = await writeRecord(root, 'prohibition', entry('pro-same'));
    const path = join(root, first.file);
    const before = statSync(path).mtimeMs;
    const again = await writeRecord(root, 'prohibition', { ...entry('pro-same') });
    assert.equal(again.status, 'unchanged');
    assert.equal(statSync(path).mtimeMs, before);
    assert.equal((await writeRecord(root, 'prohibition', entry('pro-same', { priority: 'high' }))).status, 'updated');
  });

  it('refuses an invalid record and writes nothing', async (t) => {
    const root = tempStore(t);
    await assert.rejects(writeRecord(root, 'prohibition', entry('pro-bad', { priority: 'urgent' })), (error: LoreError) => {
      assert.equal(error.code, 'INVALID_RECORD');
      assert.deepEqual(error.problems.map((p) => p.message), ['priority must be one of low, medium, high, critical (found "urgent")']);
      return true;
    });
    assert.deepEqual(readdirSync(join(root, '.knowledge')), []);
  });

  it('refuses ids that could escape the folder', async (t) => {
    const root = tempStore(t);
    for (const id of ['../evil', 'a/b', '..', 'x\u0000y', '.hidden', 'a..b']) {
      assert.throws(() => recordPath(root, 'prohibition', id), (error: LoreError) => error.code === 'INVALID_ID', id);
      await assert.rejects(deleteRecord(root, 'prohibition', id), (error: LoreError) => error.code === 'INVALID_ID', id);
    }
  });

  it('leaves no temp files behind and replaces a hand-written .yml by its canonical .yaml', async (t) => {
    const root = tempStore(t, { '.knowledge/knowledge/prohibitions/pro-y.yml': entryYaml('pro-y') });
    await writeRecord(root, 'prohibition', entry('pro-y'));
    assert.deepEqual(readdirSync(join(root, '.knowledge/knowledge/prohibitions')), ['pro-y.yaml']);
  });

  it('gives graph entities file names that never collide', () => {
    const names = ['auth-service', 'Auth Service', 'auth service', 'AUTH-SERVICE', 'a/b', 'a\\b', 'Zürich', 'con', '', 'auth-service-0123456789ab'];
    const stems = names.map(entityFileStem);
    assert.equal(new Set(stems.map((s) => s.toLowerCase())).size, names.length);
    assert.equal(entityFileStem('auth-service'), 'auth-service');
    assert.match(entityFileStem('Auth Service'), /^auth-service-[0-9a-f]{12}$/);
    for (const stem of stems) assert.match(stem, /^[a-z0-9][a-z0-9_-]*$/);
  });
});

describe('locating and opening a store', () => {
  it('finds the store from a subdirectory, and from --store', (t) => {
    const root = tempStore(t, { 'sub/dir/file.txt': 'x' });
    assert.equal(findStoreRoot({ cwd: join(root, 'sub/dir') }), root);
    assert.equal(findStoreRoot({ cwd: '/', store: join(root, '.knowledge') }), root);
  });

  it('says to run lore init when there is no .knowledge/', (t) => {
    const dir = tempDir(t);
    assert.throws(() => findStoreRoot({ cwd: dir }), (error: LoreError) => {
      assert.equal(error.code, 'STORE_NOT_FOUND');
      assert.equal(error.message, `no .knowledge/ found in ${dir} or any parent directory`);
      assert.equal(error.hint, 'run "lore init" in your repository to create one, or pass --store DIR');
      return true;
    });
  });

  it('refuses a store written by a newer format version', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 2\nmatching:\n  new_setting: true\n' });
    await assert.rejects(openStore({ cwd: root }), (error: LoreError) => {
      assert.equal(error.code, 'UNSUPPORTED_VERSION');
      assert.equal(error.message, '.knowledge/config.yaml says the store has format version 2, but this lore reads only version 1 and older');
      return true;
    });
  });

  it('fills settings left out of config.yaml with their defaults', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\nmatching:\n  keyword_boost: 2\n' });
    const { config, problems } = await loadConfig(root);
    assert.deepEqual(problems, []);
    assert.deepEqual(config.matching, { use_semantic: true, semantic_threshold: 0.7, keyword_boost: 2 });
    assert.equal(config.turns.max_per_feature, 50);
  });
});

describe('dates', () => {
  it('accepts real calendar dates of any four-digit year and refuses impossible ones', async () => {
    const { isRealDate } = await import('../src/schema/validate.js');
    assert.deepEqual(['0050-03-01', '2024-02-29', '2023-02-29', '2025-02-30', '1999-12-31', '2026-13-01'].map(isRealDate), [true, true, false, false, true, false]);
  });
});

describe('validating a store', () => {
  it('reports problems across records and files outside the format', async (t) => {
    const gate = (id: string, lo: number, hi: number): string => `id: ${id}\ntask_type: feature\ncomplexity_range: [${lo}, ${hi}]\narch_review_required: false\ncoverage_required: false\ntests_required: false\ntests_must_pass: false\n`;
    const root = tempStore(t, {
      '.knowledge/config.yaml': 'version: 1\n',
      '.knowledge/knowledge/prohibitions/dup.yaml': entryYaml('dup'),
      '.knowledge/knowledge/learnings/dup.yaml': entryYaml('dup').replace('type: prohibition', 'type: learning'),
      '.knowledge/gates/feature-1-5.yaml': gate('QG-feature-1-5', 1, 5),
      '.knowledge/gates/feature-4-6.yaml': gate('QG-feature-4-6', 4, 6),
      '.knowledge/graph/entities/api.yaml': 'name: api\ntype: service\nrelationships:\n  - to: db\n    type: reads_from\n',
      '.knowledge/prohibition/typo.yaml': 'x: 1\n',
      '.knowledge/knowledge/prohibitions/notes.md': '# notes\n',
    });
    writeFileSync(join(root, '.knowledge/turns.txt'), '');
    const report = await validateStore(await openStore({ cwd: root }));
    const lines = report.problems.map((p) => `${p.severity} ${p.file}${p.line === undefined ? '' : `:${p.line}`} ${p.message}`).sort();
    assert.deepEqual(lines, [
      'error .knowledge/gates/feature-4-6.yaml:3 complexity_range [4, 6] overlaps QG-feature-1-5 [1, 5] for task type feature',
      'error .knowledge/knowledge/learnings/dup.yaml:1 duplicate id "dup": .knowledge/knowledge/prohibitions/dup.yaml has it too; ids must be unique',
      'warning .knowledge/graph/entities/api.yaml:4 relationship "api" -reads_from-> "db" points at an entity that does not exist; it is ignored',
      'warning .knowledge/knowledge/prohibitions/notes.md is ignored: prohibitions are .yaml files',
      'warning .knowledge/prohibition is not part of the .knowledge/ format and is ignored',
      'warning .knowledge/turns.txt is not part of the .knowledge/ format and is ignored',
    ]);
    assert.equal(report.valid, false);
    assert.equal(report.errors, 2);
  });
});

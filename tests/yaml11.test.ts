// Files in .knowledge/ are read by scripts in other languages, and most YAML libraries there read
// YAML 1.1 (PyYAML, SnakeYAML): an unquoted 2027-06-30 is a date to them, yes/on booleans, 0755 an
// octal number. lore warns about such scalars and never writes one. The `yaml` package's 1.1 mode
// stands in for those readers here.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import YAML, { isScalar } from 'yaml';
import { loadSchema, SCHEMA_NAMES } from '../src/schema/schemas.js';
import { parseText } from '../src/store/parse.js';
import { readDifferentlyByYaml11 } from '../src/store/yaml11.js';
import { inProcess } from './helpers/cli.js';
import { prng } from './helpers/glob-fuzz.js';
import { gitRepo, writeFiles } from './helpers/temp.js';

const { lore } = inProcess;

describe('YAML 1.1 readers', () => {
  it('are warned about, with file, line and the quoted form, and a quoted scalar is left alone', async (t) => {
    const repo = gitRepo(t, { '.knowledge/config.yaml': 'version: 1\n' });
    writeFiles(repo, {
      '.knowledge/allow/allow-x.yaml': 'id: allow-x\nentry: pro-x\npaths: [a.txt, on]\nreason: yes\nauthor: "2027-06-30"\nexpires: 2027-06-30\n',
    });
    const result = await lore(['validate'], { cwd: repo });
    assert.equal(result.code, 0);
    assert.deepEqual(result.stdout.split('\n').filter((line) => line.startsWith('.knowledge/')), [
      '.knowledge/allow/allow-x.yaml:3:16: warning: on is a string to lore but a boolean to YAML 1.1 readers (PyYAML, SnakeYAML): write it quoted, "on"',
      '.knowledge/allow/allow-x.yaml:4:9: warning: yes is a string to lore but a boolean to YAML 1.1 readers (PyYAML, SnakeYAML): write it quoted, "yes"',
      '.knowledge/allow/allow-x.yaml:6:10: warning: 2027-06-30 is a string to lore but a date to YAML 1.1 readers (PyYAML, SnakeYAML): write it quoted, "2027-06-30"',
    ]);
  });

  it('are asked about text yaml would warn on (a tag, a directive) without yaml printing its warning', async (t) => {
    const repo = gitRepo(t, { '.knowledge/config.yaml': 'version: 1\nproject: shop\n' });
    const result = await lore(['add', 'recommendation', '--title', 'Tags', '--description', '!x', '--keyword', '%x'], { cwd: repo });
    assert.deepEqual(result, { code: 0, stdout: 'added rec-tags (.knowledge/knowledge/recommendations/rec-tags.yaml)\n', stderr: '' });
    assert.match(readFileSync(join(repo, '.knowledge/knowledge/recommendations/rec-tags.yaml'), 'utf8'), /^description: "!x"\nscope: global\nkeywords:\n {2}- "%x"$/m);
  });

  it('are warned about wherever a plain scalar stands: a value, a list item, a flow list or map (the prefilter hides none)', () => {
    const samples = ['2027-06-30', '2027-6-3', 'yes', 'No', 'ON', 'off', 'y', 'n', '0755', '0b101', '0x1F', '1:20', '190:20:30.15', '1_000', '.inf', '-.5', 'e5',
      '1e3', '12', '3.5', 'true', 'null', '~', 'word', 'Yesterday', 'note 1', 'on-call', '2027-06-30T10:00:00Z', '+12', '-0755', '.5'];
    for (const sample of samples) {
      const text = `k: ${sample}\nl:\n  - ${sample}\nf: [a, ${sample}]\nm: {x: ${sample}}\n`;
      const warnings = parseText(text, 'x.yaml').problems.filter((p) => p.message.includes('YAML 1.1 readers'));
      const expected = readDifferentlyByYaml11(sample, YAML.parse(sample)) ? 4 : 0;
      assert.equal(warnings.length, expected, sample);
    }
    // The ones the issue named are among them.
    for (const sample of ['2027-06-30', 'yes', 'no', 'on', 'off', '0755']) assert.equal(readDifferentlyByYaml11(sample, YAML.parse(sample)), true, sample);
  });

  it('take a plain scalar starting with a letter for a string but for the words (and a key ending in a colon, which read alone is a mapping)', () => {
    const samples = ['Bench <bench@example.com>', 'src/**/*.secret', 'token_[0-9a-f]{32}', 'a, b [c] {d}', 'x!&*|>%@`', 'on-call', 'Yesterday', 'a:b', 'http://x',
      'y', 'N', 'Yes', 'OFF', 'True', 'NULL', 'e5', 'E-3', 'a:', 'T@:'];
    // Lore reads each as the YAML 1.2 parser does; a key `a:` (from `a:: b`) is the string a:.
    const differently = samples.filter((sample) => readDifferentlyByYaml11(sample, sample.endsWith(':') ? sample : YAML.parse(sample)));
    assert.deepEqual(differently, ['y', 'N', 'Yes', 'OFF', 'e5', 'E-3', 'a:', 'T@:']);
  });

  it('read a plain decimal number as lore does, or are asked (the fast path agrees with the parser on 5,000 random numbers)', () => {
    let state = 42;
    const random = (n: number): number => (state = (state * 1103515245 + 12345) % 2 ** 31) % n;
    const digits = (n: number): string => Array.from({ length: n }, () => String(random(10))).join('');
    const samples = ['0', '1', '-1', '10', '0.5', '1.0', '1.50', '-0', '-0.0', '00', '07', '0755', '1_000', '+1', '1e3', '1.', '.5', '123456789012345', '1234567890123456', '0.000000000000001'];
    for (let i = 0; i < 5000; i++) samples.push(`${['', '-', '+'][random(3)]}${digits(1 + random(17))}${random(2) === 0 ? '' : `.${digits(random(17))}`}`);
    for (const sample of samples) {
      const value = YAML.parse(sample) as unknown;
      const read = YAML.parse(sample, { version: '1.1' }) as unknown;
      assert.equal(readDifferentlyByYaml11(sample, value), read instanceof Date || !isDeepStrictEqual(read, value), `${sample}: ${String(value)} to lore, ${String(read)} to 1.1`);
    }
  });

  it('read text starting as patterns and file names do as lore does, and the words true, false and null (the fast paths agree with the parser on 20,000 random texts)', () => {
    const next = prng(7);
    const random = (n: number): number => Math.floor(next() * n);
    const pick = (items: readonly string[]): string => items[random(items.length)]!;
    const starts = ['_', '\\', '(', '/', '$', '^', '.', '-', '.i', '.n', '.I', '.N', '-.', '--', '+', '~', '=', '<<', '0', '1', '.5', 'y', 'n', 'O', 'T', 'F', 'N', 'e'];
    const pieces = ['nf', 'an', 'AN', 'NF', 'inf', 'nan', 'Inf', 'NaN', 'rue', 'alse', 'ull', 'es', 'o', 'n', 'ff', 'x', 'b', '0', '5', '.', '-', '_', ':', ': ', ' ', ' #', '/', '[', ']', '{', '}', ',', '?', '!', '&', '*', '|', '>', '%', '@', '`', "'", '"', 'e3', '1:20', '55', '755', 'x1F', 'b1', '_1', '-30'];
    const samples = ['true', 'True', 'TRUE', 'tRUE', 'false', 'False', 'FALSE', 'null', 'Null', 'NULL', 'nULL', '.inf', '.Inf', '.INF', '.nan', '.NaN', '.NAN', '.iNF', '.Info', '-.inf', '.env', '-----BEGIN', '--x', '-x',
      '0755', '055', '0e3', '-0', '+1', '~', '=', '<<', '.5', '-.5', '1:20', 'yes', 'Off', 'y'];
    for (let i = 0; i < 20_000; i++) samples.push(pick(starts) + Array.from({ length: random(4) }, () => pick(pieces)).join(''));
    let checked = 0;
    for (const sample of new Set(samples)) {
      // Only the whole text of a plain scalar is asked about, as parse.ts asks.
      const doc = YAML.parseDocument(sample);
      if (doc.errors.length > 0 || !isScalar(doc.contents) || doc.contents.type !== 'PLAIN' || doc.contents.range?.[1] !== sample.length) continue;
      const value = doc.contents.value;
      const read = YAML.parse(sample, { version: '1.1', logLevel: 'error' }) as unknown;
      checked++;
      assert.equal(readDifferentlyByYaml11(sample, value), read instanceof Date || !isDeepStrictEqual(read, value), `${sample}: ${String(value)} to lore, ${String(read)} to 1.1`);
    }
    assert.ok(checked > 5000, `only ${checked} different samples were scalars' text`);
  });

  it('read every file lore writes as lore does: each validates against its schema', async (t) => {
    const repo = gitRepo(t);
    const run = async (...args: string[]): Promise<void> => {
      const result = await lore(args, { cwd: repo });
      assert.equal(result.code, 0, `lore ${args.join(' ')}: ${result.stderr}`);
    };
    await run('init');
    await run('seed');
    // Values a 1.1 reader would retype if they were written plain.
    await run('add', 'recommendation', '--title', 'yes', '--description', '2027-06-30', '--keyword', 'on', '--keyword', '0755', '--keyword', '1:20', '--valid-from', '2026-01-01', '--valid-until', '2027-06-30');
    await run('add', 'prohibition', '--title', 'No', '--description', 'off', '--glob', '0755/**', '--priority', 'high');
    await run('capture', '--task-id', '0755', '--outcome', 'success', '--description', 'yes', '--title', 'On call', '--suggested-description', 'y');
    await run('graph', 'add-entity', '--name', '1.10', '--type', 'service', '--description', 'no', '--prop', 'version=2027-06-30');
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addFormat('date-time', true).addFormat('date', true);
    for (const name of SCHEMA_NAMES) ajv.addSchema(loadSchema(name));
    const schemaOf = (path: string): string | undefined => {
      if (path === 'config.yaml') return 'config';
      if (path.startsWith('knowledge/')) return 'knowledge-entry';
      return { roles: 'role-constraints', gates: 'gate-profile', modes: 'implementation-mode', overrides: 'project-overrides', allow: 'allow-record', graph: 'graph-entity' }[path.split('/')[0]!];
    };
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (name === '.cache' || name === 'schemas') continue;
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.yaml')) files.push(relative(join(repo, '.knowledge'), path));
      }
    };
    walk(join(repo, '.knowledge'));
    assert.ok(files.length >= 25, `only ${files.length} files`);
    for (const file of files) {
      const schema = schemaOf(file);
      assert.ok(schema !== undefined, file);
      const value = YAML.parse(readFileSync(join(repo, '.knowledge', file), 'utf8'), { version: '1.1' }) as unknown;
      const validate = ajv.getSchema(`https://lore-knowledge.dev/schemas/v1/${schema}.schema.json`)!;
      assert.ok(validate(value), `${file} read by a YAML 1.1 reader: ${ajv.errorsText(validate.errors)}`);
    }
  });
});

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LoreError, ValidationError } from '../src/errors.js';
import { loadMemoryFile, saveMemoryFile } from '../src/graph/memory-file.js';
import { LORE_BIN, lore, loreJson } from './helpers/cli.js';
import { tempDir, tempStore, testEnv } from './helpers/temp.js';

const VALID = `${JSON.stringify({ entities: [{ name: 'api', type: 'service' }, { name: 'db', type: 'data_store' }], relationships: [{ from: 'api', to: 'db', type: 'reads_from' }] }, null, 2)}\n`;

describe('loading a memory file', () => {
  it('loads a missing file as an empty graph, and saving creates it', async (t) => {
    const dir = tempDir(t);
    const { graph, exists } = await loadMemoryFile(join(dir, 'context.json'));
    assert.deepEqual([exists, graph.entityCount, graph.relationshipCount], [false, 0, 0]);
    const added = await lore(['graph', 'add-entity', '--name', 'api', '--type', 'service', '--memory-file', 'context.json'], { cwd: dir });
    assert.deepEqual(added, { code: 0, stdout: 'added entity "api" (service)\nwrote context.json\n', stderr: '' });
    assert.equal(readFileSync(join(dir, 'context.json'), 'utf8'), '{\n  "entities": [\n    {\n      "name": "api",\n      "type": "service",\n      "description": "",\n      "tags": [],\n      "properties": {}\n    }\n  ],\n  "relationships": []\n}\n');
  });

  it('uses context.json in the working directory outside a store, and the store inside one', async (t) => {
    const dir = tempDir(t);
    await lore(['graph', 'add-entity', '--name', 'api', '--type', 'service'], { cwd: dir });
    assert.deepEqual(readdirSync(dir), ['context.json']);
    const store = tempStore(t, { '.knowledge/config.yaml': 'version: 1\n' });
    const inStore = await lore(['graph', 'add-entity', '--name', 'api', '--type', 'service'], { cwd: store });
    assert.equal(inStore.stdout, 'added entity "api" (service)\nwrote .knowledge/graph/entities/api.yaml\n');
    assert.ok(!readdirSync(store).includes('context.json'));
  });

  const invalid: Array<[string, string, string[]]> = [
    ['corrupt JSON', '{\n  "entities": [\n    { "name": "api", }\n  ]\n}\n', [
      'error: context.json is not valid JSON',
      "context.json:3:22: error: JSON syntax: expected a property name in double quotes (found '}')",
    ]],
    ['an empty file', '', ['error: context.json is empty: expected a JSON object {"entities": [...], "relationships": [...]}', 'context.json:1:1: error: the file is empty: expected a JSON object {"entities": [...], "relationships": [...]}']],
    ['an entity without a type and a relationship without a target', '{\n  "entities": [\n    { "name": "api" }\n  ],\n  "relationships": [\n    { "from": "api", "type": "calls" }\n  ]\n}\n', [
      'error: context.json is not a valid context graph (2 problems)',
      'context.json:3:5: error: entities[0].type is required but missing',
      'context.json:6:5: error: relationships[0].to is required but missing',
    ]],
    ['two entities of one name', '{ "entities": [{ "name": "a", "type": "x" }, { "name": "a", "type": "y" }], "relationships": [] }', [
      'error: context.json is not a valid context graph (1 problem)',
      'context.json:1:56: error: entities[1].name "a" is also the name of entities[0]: names must be unique',
    ]],
  ];
  for (const [what, text, lines] of invalid) {
    it(`stops with exit 1 on ${what}, naming the line, and leaves the file alone`, async (t) => {
      const dir = tempDir(t);
      writeFileSync(join(dir, 'context.json'), text);
      const result = await lore(['graph', 'add-entity', '--name', 'x', '--type', 't', '--memory-file', 'context.json'], { cwd: dir });
      assert.equal(result.code, 1);
      assert.deepEqual(result.stderr.split('\n').filter((l) => !l.startsWith(' ') && l !== ''), lines);
      assert.equal(readFileSync(join(dir, 'context.json'), 'utf8'), text);
      assert.deepEqual(readdirSync(dir), ['context.json']);
    });
  }

  it('stops with exit 2 when the file cannot be read (a directory at that path)', async (t) => {
    const dir = tempDir(t);
    mkdirSync(join(dir, 'context.json'));
    const result = await lore(['graph', 'show', '--memory-file', 'context.json'], { cwd: dir });
    assert.deepEqual(result, { code: 2, stdout: '', stderr: `error: could not read the context graph context.json: ${join(dir, 'context.json')} is not a regular file\n` });
    await assert.rejects(loadMemoryFile(join(dir, 'context.json')), (error: LoreError) => error.code === 'IO' && error.exitCode === 2);
  });

  it('loads a relationship to a missing entity with a warning, and drops it on the next save', async (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, 'c.json'), '{"entities": [{"name": "a", "type": "x"}],\n "relationships": [{"from": "a", "to": "ghost", "type": "calls"}]}\n');
    const shown = await lore(['graph', 'show', '--memory-file', 'c.json'], { cwd: dir });
    assert.equal(shown.code, 0);
    assert.equal(shown.stderr, 'c.json:2:40: warning: relationship "a" -calls-> "ghost" points at an entity that does not exist; it is ignored\n    1 | {"entities": [{"name": "a", "type": "x"}],\n  > 2 |  "relationships": [{"from": "a", "to": "ghost", "type": "calls"}]}\n      |                                        ^^^^^^^\n');
    const changed = await lore(['graph', 'add-entity', '--name', 'b', '--type', 'x', '--memory-file', 'c.json'], { cwd: dir });
    assert.equal(changed.code, 0);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8')).relationships, []);
  });
});

describe('saving a memory file', () => {
  it('leaves the old file intact when the save fails midway (file size limit), and leaves no temp file', async (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, 'context.json'), VALID);
    const args = [LORE_BIN, 'graph', 'add-entity', '--name', 'big', '--type', 'blob', '--description', 'x'.repeat(4000), '--memory-file', 'context.json'];
    // ulimit -f caps the bytes this process may write, so the new file cannot be written whole.
    const result = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile('sh', ['-c', 'ulimit -f 1 && exec "$@"', 'sh', process.execPath, ...args], { cwd: dir, env: testEnv() }, (error, _stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stderr }));
    });
    assert.equal(result.code, 2);
    assert.equal(result.stderr, 'error: could not save the context graph to context.json: EFBIG: file too large, write; the file was left as it was\n');
    assert.equal(readFileSync(join(dir, 'context.json'), 'utf8'), VALID);
    assert.deepEqual(readdirSync(dir), ['context.json']);
  });

  it('leaves the file untouched when the flow fails (an invalid update)', async (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, 'context.json'), VALID);
    const before = statSync(join(dir, 'context.json'));
    const result = await lore(['graph', 'apply', '-', '--memory-file', 'context.json'], { cwd: dir, input: '{"entities": [{"name": "new", "type": "service"}, {"name": "newer"}]}' });
    assert.equal(result.code, 1);
    assert.equal(readFileSync(join(dir, 'context.json'), 'utf8'), VALID);
    assert.equal(statSync(join(dir, 'context.json')).mtimeMs, before.mtimeMs);
  });

  it('loses no update when several processes change one file at once (the lock)', async (t) => {
    const dir = tempDir(t);
    const names = ['a', 'b', 'c', 'd'];
    const results = await Promise.all(names.map((name) => lore(['graph', 'add-entity', '--name', name, '--type', 't', '--memory-file', 'context.json'], { cwd: dir })));
    assert.deepEqual(results.map((r) => r.code), [0, 0, 0, 0]);
    const saved = JSON.parse(readFileSync(join(dir, 'context.json'), 'utf8')) as { entities: Array<{ name: string }> };
    assert.deepEqual(saved.entities.map((e) => e.name).sort(), names);
    assert.deepEqual(readdirSync(dir), ['context.json']);
  });

  it('does not rewrite an unchanged file', async (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, 'context.json'), VALID);
    const inode = statSync(join(dir, 'context.json')).ino;
    const { code, json } = await loreJson<{ saved: unknown[] }>(['graph', 'add-entity', '--name', 'api', '--type', 'service', '--memory-file', 'context.json'], { cwd: dir });
    assert.deepEqual([code, json.saved], [0, []]);
    assert.equal(statSync(join(dir, 'context.json')).ino, inode);
  });

  it('refuses to write a graph that is not JSON, before touching the file', async (t) => {
    const dir = tempDir(t);
    const path = join(dir, 'context.json');
    writeFileSync(path, VALID);
    const { graph } = await loadMemoryFile(path);
    graph.addOrUpdateEntity({ name: 'api', properties: { size: 10n as never } });
    await assert.rejects(saveMemoryFile(path, graph), (error: LoreError) => {
      assert.equal(error.message, 'the context graph cannot be written as JSON: Do not know how to serialize a BigInt');
      return true;
    });
    assert.equal(readFileSync(path, 'utf8'), VALID);
  });

  it('replaces the file a symbolic link points at, keeping the link', async (t) => {
    const dir = tempDir(t);
    mkdirSync(join(dir, 'shared'));
    writeFileSync(join(dir, 'shared/context.json'), VALID);
    symlinkSync('shared/context.json', join(dir, 'context.json'));
    const result = await lore(['graph', 'relate', 'db', 'backs_up_to', 'api', '--memory-file', 'context.json'], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(statSync(join(dir, 'context.json'), { throwIfNoEntry: true }).isFile());
    assert.match(readFileSync(join(dir, 'shared/context.json'), 'utf8'), /backs_up_to/);
    assert.ok(readdirSync(dir).includes('context.json'));
    assert.ok((await import('node:fs')).lstatSync(join(dir, 'context.json')).isSymbolicLink());
  });

  it('reports invalid content as a ValidationError from the library', async (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, 'c.json'), '[]');
    await assert.rejects(loadMemoryFile(join(dir, 'c.json')), (error: ValidationError) => error instanceof ValidationError && error.problems[0]!.message === 'the record must be a mapping (key: value) (found a list)');
  });
});

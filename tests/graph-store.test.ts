import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadStoreGraph, saveStoreGraph } from '../src/graph/store-graph.js';
import { entityFileStem } from '../src/store/ids.js';
import { inProcess } from './helpers/cli.js';
import { SAMPLE } from './helpers/graph-sample.js';
import { tempStore } from './helpers/temp.js';

const { lore, loreJson } = inProcess;

const ENTITIES = '.knowledge/graph/entities';
const files = (root: string): string[] => readdirSync(join(root, ENTITIES)).sort();
const read = (root: string, name: string): string => readFileSync(join(root, ENTITIES, `${entityFileStem(name)}.yaml`), 'utf8');

describe('the graph in the store', () => {
  it('writes one canonical file per entity, holding the relationships it owns', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\n' });
    const applied = await lore(['graph', 'apply', '-'], { cwd: root, input: JSON.stringify(SAMPLE) });
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(files(root).length, 5);
    assert.deepEqual(files(root), SAMPLE.entities!.map((e) => `${entityFileStem(e.name)}.yaml`).sort());
    assert.equal(read(root, 'Auth "v2" [beta]'), [
      '# yaml-language-server: $schema=../../schemas/graph-entity.schema.json',
      'name: Auth "v2" [beta]',
      'type: service',
      'description: |-',
      '  Issues tokens;',
      '  rotates keys.',
      'tags:',
      '  - core',
      '  - security',
      'properties:',
      '  owner: team-a',
      '  port: 8443',
      'relationships:',
      '  - to: "C:\\\\data\\\\N #1 <b>bold</b> & `code`"',
      '    type: reads "from"',
      '  - to: "C:\\\\data\\\\N #1 <b>bold</b> & `code`"',
      '    type: writes_to',
      '',
    ].join('\n'));
    assert.equal(read(root, 'end'), '# yaml-language-server: $schema=../../schemas/graph-entity.schema.json\nname: end\ntype: keyword\nrelationships:\n  - to: Web App\n    type: documents\n');
    const validate = await lore(['validate'], { cwd: root });
    assert.equal(validate.code, 0, validate.stdout);
  });

  it('loads back exactly what it saved', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\n' });
    await lore(['graph', 'apply', '-'], { cwd: root, input: JSON.stringify(SAMPLE) });
    const { graph, warnings } = await loadStoreGraph(root, { cache: false });
    assert.deepEqual(warnings, []);
    const { json } = await loreJson<unknown>(['graph', 'show'], { cwd: root });
    assert.deepEqual(json, JSON.parse(JSON.stringify(graph.toJSON())));
    assert.equal(graph.entityCount, 5);
    assert.equal(graph.relationshipCount, 5);
  });

  it('rewrites only the files of entities that changed, and deletes the file of a removed entity', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\n' });
    await lore(['graph', 'apply', '-'], { cwd: root, input: JSON.stringify(SAMPLE) });
    const before = Object.fromEntries(files(root).map((f) => [f, statSync(join(root, ENTITIES, f)).ino]));
    // Removing "Web App" cascades to the relationship owned by "end", so end's file changes too.
    const removed = await lore(['graph', 'rm-entity', 'Web App'], { cwd: root });
    assert.equal(removed.stdout, `removed entity "Web App" and 2 relationships\ndeleted ${ENTITIES}/${entityFileStem('Web App')}.yaml\nwrote ${ENTITIES}/end.yaml\n`);
    const after = Object.fromEntries(files(root).map((f) => [f, statSync(join(root, ENTITIES, f)).ino]));
    const changed = Object.keys(before).filter((f) => after[f] !== before[f]).sort();
    assert.deepEqual(changed, [`${entityFileStem('Web App')}.yaml`, 'end.yaml'].sort());
    assert.equal(read(root, 'end'), '# yaml-language-server: $schema=../../schemas/graph-entity.schema.json\nname: end\ntype: keyword\n');
  });

  it('writes through the library only the pending changes', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\n' });
    await lore(['graph', 'apply', '-'], { cwd: root, input: JSON.stringify(SAMPLE) });
    const { graph } = await loadStoreGraph(root);
    graph.addOrUpdateEntity({ name: 'end', tags: ['reserved'] });
    graph.addOrUpdateEntity({ name: 'Web App', description: 'The customer site.' });
    assert.deepEqual(await saveStoreGraph(root, graph), [{ file: `${ENTITIES}/end.yaml`, status: 'updated' }]);
    assert.deepEqual(await saveStoreGraph(root, graph), []);
  });

  it('ignores a hand-written relationship to a missing entity with a warning, as validate does', async (t) => {
    const root = tempStore(t, {
      '.knowledge/config.yaml': 'version: 1\n',
      [`${ENTITIES}/api.yaml`]: 'name: api\ntype: service\nrelationships:\n  - to: db\n    type: reads_from\n',
    });
    const shown = await lore(['graph', 'show', 'api'], { cwd: root });
    assert.deepEqual(shown, {
      code: 0,
      stdout: 'api (service)\n\n1 entity, 0 relationships (the neighbourhood of "api" within 1 step)\n',
      stderr: `${ENTITIES}/api.yaml: warning: relationship "api" -reads_from-> "db" points at an entity that does not exist; it is ignored\n`,
    });
    const validate = await lore(['validate'], { cwd: root });
    assert.match(validate.stdout, /api\.yaml:4:9: warning: relationship "api" -reads_from-> "db" points at an entity that does not exist/);
  });

  it('stops with exit 1, naming file and line, when an entity file is invalid', async (t) => {
    const root = tempStore(t, {
      '.knowledge/config.yaml': 'version: 1\n',
      [`${ENTITIES}/api.yaml`]: 'name: api\ntype: service\ntags:\n  - ""\n',
    });
    const result = await lore(['graph', 'add-entity', '--name', 'db', '--type', 'data_store'], { cwd: root });
    assert.equal(result.code, 1);
    assert.equal(result.stderr.split('\n')[0], 'error: the context graph in .knowledge/graph/entities/ is invalid (1 problem)');
    assert.equal(result.stderr.split('\n')[1], `${ENTITIES}/api.yaml:4:5: error: tags[0] must not be empty`);
    assert.deepEqual(files(root), ['api.yaml']);
  });

  it('exports the store to a memory file and imports it into another store unchanged', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\n' });
    await lore(['graph', 'apply', '-'], { cwd: root, input: JSON.stringify(SAMPLE) });
    const exported = await lore(['graph', 'export', '--memory-file', 'context.json'], { cwd: root });
    assert.equal(exported.stdout, 'wrote context.json: 5 entities, 5 relationships\n');
    // The store lists entities in file-name order; the content is the golden sample's.
    const sorted = (text: string): unknown => {
      const data = JSON.parse(text) as { entities: Array<{ name: string }>; relationships: Array<{ from: string; to: string; type: string }> };
      return { entities: data.entities.sort((a, b) => a.name.localeCompare(b.name)), relationships: data.relationships.sort((a, b) => JSON.stringify([a.from, a.to, a.type]).localeCompare(JSON.stringify([b.from, b.to, b.type]))) };
    };
    assert.deepEqual(sorted(readFileSync(join(root, 'context.json'), 'utf8')), sorted(readFileSync(new URL('./golden/graph/sample.json', import.meta.url), 'utf8')));
    assert.equal((await lore(['graph', 'export'], { cwd: root })).stdout, readFileSync(join(root, 'context.json'), 'utf8'));

    const other = tempStore(t, { '.knowledge/config.yaml': 'version: 1\n' });
    writeFileSync(join(other, 'in.json'), readFileSync(join(root, 'context.json')));
    const imported = await lore(['graph', 'import', 'in.json'], { cwd: other });
    assert.equal(imported.stdout.split('\n')[0], 'added 5 entities, 5 relationships; updated 0 entities, 0 relationships; removed 0 entities, 0 relationships; ignored 0 entries');
    for (const name of SAMPLE.entities!.map((e) => e.name)) assert.equal(read(other, name), read(root, name), name);
  });
});

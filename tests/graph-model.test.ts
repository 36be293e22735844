import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError } from '../src/errors.js';
import { ContextGraph } from '../src/graph/model.js';
import type { Entity, EntityUpdate, GraphUpdate, Relationship, RelationshipUpdate } from '../src/types.js';

function graphWith(entities: EntityUpdate[], relationships: RelationshipUpdate[] = []): { graph: ContextGraph; warnings: string[] } {
  const warnings: string[] = [];
  const graph = new ContextGraph({ onWarning: (w) => warnings.push(w) });
  for (const e of entities) graph.addOrUpdateEntity(e);
  for (const r of relationships) graph.addOrUpdateRelationship(r);
  warnings.length = 0;
  return { graph, warnings };
}

const full = (name: string, rest: Partial<Entity> = {}): Entity => ({ name, description: '', type: 'service', tags: [], properties: {}, ...rest });

describe('addOrUpdateEntity: the merge rules', () => {
  const base: EntityUpdate = { name: 'api', type: 'service', description: 'Serves the API.', tags: ['core', 'http'], properties: { owner: 'team-a', port: 8080 } };
  const cases: Array<[string, EntityUpdate, Entity]> = [
    ['changes the type when an update gives one', { name: 'api', type: 'gateway' },
      full('api', { type: 'gateway', description: 'Serves the API.', tags: ['core', 'http'], properties: { owner: 'team-a', port: 8080 } })],
    ['keeps the description when an update omits it', { name: 'api', tags: ['new'] },
      full('api', { description: 'Serves the API.', tags: ['core', 'http', 'new'], properties: { owner: 'team-a', port: 8080 } })],
    ['empties the description when an update gives an empty one', { name: 'api', description: '' },
      full('api', { description: '', tags: ['core', 'http'], properties: { owner: 'team-a', port: 8080 } })],
    ['overwrites the description when an update gives another', { name: 'api', description: 'The public API.' },
      full('api', { description: 'The public API.', tags: ['core', 'http'], properties: { owner: 'team-a', port: 8080 } })],
    ['unions tags in first-seen order without repeating one', { name: 'api', tags: ['edge', 'core', 'edge', 'beta'] },
      full('api', { description: 'Serves the API.', tags: ['core', 'http', 'edge', 'beta'], properties: { owner: 'team-a', port: 8080 } })],
    ['keeps existing tags when an update gives none', { name: 'api', tags: [] },
      full('api', { description: 'Serves the API.', tags: ['core', 'http'], properties: { owner: 'team-a', port: 8080 } })],
    ['removes tags only when the update says removeTags', { name: 'api', tags: ['edge'], removeTags: ['core', 'absent'] },
      full('api', { description: 'Serves the API.', tags: ['http', 'edge'], properties: { owner: 'team-a', port: 8080 } })],
    ['merges properties key by key, new values winning', { name: 'api', properties: { port: 9090, region: 'eu' } },
      full('api', { description: 'Serves the API.', tags: ['core', 'http'], properties: { owner: 'team-a', port: 9090, region: 'eu' } })],
    ['removes a property only through removeProperties', { name: 'api', properties: { region: 'eu' }, removeProperties: ['owner'] },
      full('api', { description: 'Serves the API.', tags: ['core', 'http'], properties: { port: 8080, region: 'eu' } })],
    ['replaces a nested property value whole, not deeply', { name: 'api', properties: { owner: { team: 'b' } } },
      full('api', { description: 'Serves the API.', tags: ['core', 'http'], properties: { owner: { team: 'b' }, port: 8080 } })],
  ];
  for (const [title, update, expected] of cases) {
    it(title, () => {
      const { graph } = graphWith([base]);
      assert.equal(graph.addOrUpdateEntity(update), 'updated');
      assert.deepEqual(graph.findEntityByName('api'), expected);
      assert.equal(graph.entityCount, 1);
    });
  }

  it('adds a new entity with every field filled in, and says added', () => {
    const { graph } = graphWith([]);
    assert.equal(graph.addOrUpdateEntity({ name: 'db', type: 'data_store', tags: ['sql', 'sql'] }), 'added');
    assert.deepEqual(graph.findEntityByName('db'), full('db', { type: 'data_store', tags: ['sql'] }));
  });

  const invalid: Array<[string, unknown, string]> = [
    ['a new entity without a type', { name: 'db' }, 'invalid entity: type is required: there is no entity named "db", so this entry adds one, and a new entity needs a type'],
    ['an empty name', { name: '', type: 'service' }, 'invalid entity: name must not be empty'],
    ['an empty tag', { name: 'db', type: 'service', tags: ['ok', ''] }, 'invalid entity: tags[1] must not be empty'],
    ['a tag both added and removed', { name: 'db', type: 'service', tags: ['x'], removeTags: ['x'] }, 'invalid entity: removeTags[0] "x" is also in tags: an entry either adds a tag or removes it'],
    ['an unknown field', { name: 'db', type: 'service', tag: ['x'] }, 'invalid entity: unknown field "tag" (did you mean "tags"?)'],
  ];
  for (const [title, update, message] of invalid) {
    it(`refuses ${title} and changes nothing`, () => {
      const { graph } = graphWith([]);
      assert.throws(() => graph.addOrUpdateEntity(update as EntityUpdate), (error: ValidationError) => {
        assert.ok(error instanceof ValidationError);
        assert.equal(error.message, message);
        assert.equal(error.exitCode, 1);
        return true;
      });
      assert.equal(graph.entityCount, 0);
    });
  }
});

describe('addOrUpdateRelationship', () => {
  const ends: EntityUpdate[] = [{ name: 'api', type: 'service' }, { name: 'db', type: 'data_store' }];
  const cases: Array<[string, RelationshipUpdate, boolean, Relationship[], string[]]> = [
    ['adds a relationship between existing entities', { from: 'api', to: 'db', type: 'reads_from', properties: { pool: 5 } }, true,
      [{ from: 'api', to: 'db', type: 'reads_from', properties: { pool: 5 } }, { from: 'api', to: 'db', type: 'writes_to', properties: { batch: true } }], []],
    ['merges the properties of a duplicate triplet instead of adding another', { from: 'api', to: 'db', type: 'writes_to', properties: { batch: false, retries: 3 } }, true,
      [{ from: 'api', to: 'db', type: 'writes_to', properties: { batch: false, retries: 3 } }], []],
    ['ignores a relationship from a missing entity, with a warning naming it', { from: 'web', to: 'db', type: 'reads_from' }, false,
      [{ from: 'api', to: 'db', type: 'writes_to', properties: { batch: true } }], ['relationship "web" -reads_from-> "db" ignored: the from entity "web" does not exist']],
    ['ignores a relationship to a missing entity, with a warning naming it', { from: 'api', to: 'cache', type: 'reads_from' }, false,
      [{ from: 'api', to: 'db', type: 'writes_to', properties: { batch: true } }], ['relationship "api" -reads_from-> "cache" ignored: the to entity "cache" does not exist']],
    ['names both ends when both are missing', { from: 'x', to: 'y', type: 'calls' }, false,
      [{ from: 'api', to: 'db', type: 'writes_to', properties: { batch: true } }], ['relationship "x" -calls-> "y" ignored: the from entity "x" and the to entity "y" do not exist']],
  ];
  for (const [title, rel, returned, expected, warned] of cases) {
    it(title, () => {
      const { graph, warnings } = graphWith(ends, [{ from: 'api', to: 'db', type: 'writes_to', properties: { batch: true } }]);
      assert.equal(graph.addOrUpdateRelationship(rel), returned);
      assert.deepEqual(graph.findRelations({ from: 'api', to: 'db' }).sort((a, b) => a.type.localeCompare(b.type)), expected);
      assert.deepEqual(warnings, warned);
    });
  }

  it('refuses a relationship with an empty type', () => {
    const { graph } = graphWith(ends);
    assert.throws(() => graph.addOrUpdateRelationship({ from: 'api', to: 'db', type: '' }), { message: 'invalid relationship: type must not be empty' });
  });
});

describe('removing', () => {
  it('removes an entity with every relationship from and to it, and nothing else', () => {
    const { graph } = graphWith(
      [{ name: 'web', type: 'app' }, { name: 'api', type: 'service' }, { name: 'db', type: 'data_store' }],
      [{ from: 'web', to: 'api', type: 'calls' }, { from: 'api', to: 'db', type: 'reads_from' }, { from: 'web', to: 'db', type: 'reads_from' }, { from: 'api', to: 'api', type: 'retries' }],
    );
    const removed = graph.removeEntity('api');
    assert.deepEqual(removed?.relationships.map((r) => `${r.from}-${r.type}-${r.to}`).sort(), ['api-reads_from-db', 'api-retries-api', 'web-calls-api']);
    assert.deepEqual(graph.findRelations(), [{ from: 'web', to: 'db', type: 'reads_from', properties: {} }]);
    assert.deepEqual(graph.incoming('db').map((r) => r.from), ['web']);
    assert.deepEqual(graph.entitiesByType('service'), []);
    assert.equal(graph.removeEntity('api'), undefined);
  });

  it('removes one relationship by its triplet', () => {
    const { graph } = graphWith([{ name: 'a', type: 't' }, { name: 'b', type: 't' }], [{ from: 'a', to: 'b', type: 'x' }, { from: 'a', to: 'b', type: 'y' }]);
    assert.equal(graph.removeRelationship('a', 'b', 'x'), true);
    assert.equal(graph.removeRelationship('a', 'b', 'x'), false);
    assert.deepEqual(graph.findRelations({ from: 'a' }).map((r) => r.type), ['y']);
  });
});

describe('applyUpdate', () => {
  const start = (): { graph: ContextGraph; warnings: string[] } => graphWith(
    [{ name: 'api', type: 'service', tags: ['core'] }, { name: 'db', type: 'data_store' }],
    [{ from: 'api', to: 'db', type: 'reads_from' }],
  );

  it('applies entities before relationships, so a relationship may name an entity of the same payload', () => {
    const { graph } = start();
    const result = graph.applyUpdate({
      relationships: [{ from: 'billing', to: 'db', type: 'writes_to' }, { from: 'api', to: 'db', type: 'reads_from', properties: { pool: 5 } }],
      entities: [{ name: 'billing', type: 'service' }, { name: 'api', tags: ['edge'] }],
    });
    assert.deepEqual(result, {
      added: { entities: ['billing'], relationships: [{ from: 'billing', to: 'db', type: 'writes_to' }] },
      updated: { entities: ['api'], relationships: [{ from: 'api', to: 'db', type: 'reads_from' }] },
      removed: { entities: [], relationships: [] },
      ignored: [],
      warnings: [],
    });
    assert.deepEqual(graph.findEntityByName('api')?.tags, ['core', 'edge']);
  });

  it('lists dangling relationships (from and to) as ignored with reasons and warnings, and removals last', () => {
    const { graph, warnings } = start();
    const result = graph.applyUpdate({
      relationships: [{ from: 'ghost', to: 'db', type: 'reads_from' }, { from: 'api', to: 'ghost', type: 'calls' }],
      remove: { entities: ['db', 'nobody'], relationships: [{ from: 'api', to: 'db', type: 'nope' }] },
    });
    assert.deepEqual(result, {
      added: { entities: [], relationships: [] },
      updated: { entities: [], relationships: [] },
      removed: { entities: ['db'], relationships: [{ from: 'api', to: 'db', type: 'reads_from' }] },
      ignored: [
        { entry: 'relationships[0]', reason: '"ghost" -reads_from-> "db": entity "ghost" does not exist' },
        { entry: 'relationships[1]', reason: '"api" -calls-> "ghost": entity "ghost" does not exist' },
        { entry: 'remove.relationships[0]', reason: 'there is no relationship "api" -nope-> "db"' },
        { entry: 'remove.entities[1]', reason: 'there is no entity named "nobody"' },
      ],
      warnings: [
        'relationship "ghost" -reads_from-> "db" ignored: the from entity "ghost" does not exist',
        'relationship "api" -calls-> "ghost" ignored: the to entity "ghost" does not exist',
      ],
    });
    assert.equal(warnings.length, 2, 'the graph listener hears the warnings too');
  });

  it('refuses an invalid payload whole, naming each bad entry by index and field', () => {
    const { graph } = start();
    const payload = { entities: [{ name: 'ok', type: 'service' }, { name: 'new-one' }, { name: 'x', type: '' }], relationships: [{ from: 'api', to: 'db' }] };
    assert.throws(() => graph.applyUpdate(payload, { source: 'update.json' }), (error: ValidationError) => {
      assert.equal(error.message, 'the graph update in update.json is invalid (2 problems); nothing was applied');
      assert.deepEqual(error.problems.map((p) => [p.pointer, p.message]), [
        ['/entities/2/type', 'entities[2].type must not be empty'],
        ['/relationships/0/type', 'relationships[0].type is required but missing'],
      ]);
      return true;
    });
    assert.throws(() => graph.applyUpdate({ entities: [{ name: 'new-one' }] }), { message: 'the graph update is invalid (1 problem); nothing was applied' });
    assert.equal(graph.findEntityByName('ok'), undefined);
    assert.equal(graph.entityCount, 2);
  });

  it('accepts an entity without a type when an earlier entry of the payload added it', () => {
    const { graph } = start();
    const update: GraphUpdate = { entities: [{ name: 'q', type: 'queue' }, { name: 'q', description: 'Jobs.' }] };
    assert.deepEqual(graph.applyUpdate(update).added.entities, ['q']);
    assert.equal(graph.findEntityByName('q')?.description, 'Jobs.');
  });
});

describe('queries', () => {
  // a → b → c → d, e → b, and an island f
  const { graph } = graphWith(
    ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => ({ name, type: name === 'f' ? 'island' : 'node', tags: name < 'c' ? ['early'] : [] })),
    [{ from: 'a', to: 'b', type: 'calls' }, { from: 'b', to: 'c', type: 'calls' }, { from: 'c', to: 'd', type: 'reads' }, { from: 'e', to: 'b', type: 'reads' }],
  );

  const relationCases: Array<[object, string[]]> = [
    [{ from: 'b' }, ['b-calls-c']],
    [{ to: 'b' }, ['a-calls-b', 'e-reads-b']],
    [{ type: 'reads' }, ['c-reads-d', 'e-reads-b']],
    [{ to: 'b', type: 'reads' }, ['e-reads-b']],
    [{}, ['a-calls-b', 'b-calls-c', 'c-reads-d', 'e-reads-b']],
  ];
  for (const [filter, expected] of relationCases) {
    it(`findRelations(${JSON.stringify(filter)})`, () => {
      assert.deepEqual(graph.findRelations(filter).map((r) => `${r.from}-${r.type}-${r.to}`), expected);
    });
  }

  it('finds entities by name, type and tag', () => {
    assert.equal(graph.findEntityByName('c')?.type, 'node');
    assert.deepEqual(graph.entitiesByType('island').map((e) => e.name), ['f']);
    assert.deepEqual(graph.entitiesByTag('early').map((e) => e.name), ['a', 'b']);
  });

  const nearCases: Array<[string, number, 'both' | 'out' | 'in', string[]]> = [
    ['b', 1, 'both', ['b:0', 'c:1', 'a:1', 'e:1']],
    ['b', 2, 'both', ['b:0', 'c:1', 'a:1', 'e:1', 'd:2']],
    ['b', 2, 'out', ['b:0', 'c:1', 'd:2']],
    ['c', 2, 'in', ['c:0', 'b:1', 'a:2', 'e:2']],
    ['f', 3, 'both', ['f:0']],
  ];
  for (const [name, depth, direction, expected] of nearCases) {
    it(`neighbours of ${name} to depth ${depth} (${direction})`, () => {
      const near = graph.neighbours(name, { depth, direction });
      assert.deepEqual(near.entities.map((e) => `${e.name}:${near.distances.get(e.name)}`), expected);
      for (const rel of near.relationships) assert.ok(near.distances.has(rel.from) && near.distances.has(rel.to));
    });
  }

  it('reports names it does not know instead of failing', () => {
    assert.deepEqual(graph.neighbours(['zz', 'a'], { depth: 0 }).missing, ['zz']);
  });

  it('finds a shortest path in either direction, or only forwards when directed', () => {
    const path = graph.shortestPath('a', 'e');
    assert.deepEqual(path?.entities, ['a', 'b', 'e']);
    assert.deepEqual(path?.relationships.map((r) => `${r.from}-${r.type}-${r.to}`), ['a-calls-b', 'e-reads-b']);
    assert.equal(graph.shortestPath('a', 'e', { directed: true }), undefined);
    assert.deepEqual(graph.shortestPath('a', 'd', { directed: true })?.entities, ['a', 'b', 'c', 'd']);
    assert.equal(graph.shortestPath('a', 'f'), undefined);
    assert.deepEqual(graph.shortestPath('a', 'a'), { entities: ['a'], relationships: [] });
  });
});

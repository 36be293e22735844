import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { inProcess } from './helpers/cli.js';
import { SAMPLE } from './helpers/graph-sample.js';
import { tempDir } from './helpers/temp.js';

const { lore, loreJson } = inProcess;

const SYSTEM = {
  entities: [
    { name: 'Web App', type: 'app', tags: ['frontend'] },
    { name: 'Auth Service', type: 'service', description: 'Issues JWT tokens.', tags: ['core'], properties: { owner: 'team-a' } },
    { name: 'User DB', type: 'data_store', tags: ['core'] },
    { name: 'ADR-7', type: 'adr', description: 'Tokens expire after 15 minutes.' },
  ],
  relationships: [
    { from: 'Web App', to: 'Auth Service', type: 'calls' },
    { from: 'Auth Service', to: 'User DB', type: 'reads_from', properties: { pool: 5 } },
    { from: 'ADR-7', to: 'Auth Service', type: 'constrains' },
  ],
};

/** A temp directory with the system above in context.json; commands run there use it by default. */
function system(t: TestContext): string {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'context.json'), JSON.stringify(SYSTEM));
  return dir;
}

describe('lore graph apply', () => {
  it('applies an update from stdin and reports what it did', async (t) => {
    const dir = system(t);
    const update = { entities: [{ name: 'Cache', type: 'data_store' }, { name: 'Auth Service', type: 'gateway' }], relationships: [{ from: 'Auth Service', to: 'Cache', type: 'reads_from' }, { from: 'Auth Service', to: 'Ghost', type: 'calls' }] };
    const result = await lore(['graph', 'apply', '-'], { cwd: dir, input: JSON.stringify(update) });
    assert.deepEqual(result, {
      code: 0,
      stdout: 'added 1 entity, 1 relationship; updated 1 entity, 0 relationships; removed 0 entities, 0 relationships; ignored 1 entry\nwrote context.json\n',
      stderr: 'warning: relationships[1] ignored: "Auth Service" -calls-> "Ghost": entity "Ghost" does not exist\n',
    });
    const { json } = await loreJson<{ type: string }>(['graph', 'show', 'Auth Service', '--depth', '0'], { cwd: dir });
    assert.deepEqual(json, { entities: [{ name: 'Auth Service', type: 'gateway', description: 'Issues JWT tokens.', tags: ['core'], properties: { owner: 'team-a' } }], relationships: [] });
  });

  it('refuses an invalid update with the index, field, line and column of each problem (exit 1)', async (t) => {
    const dir = system(t);
    writeFileSync(join(dir, 'update.json'), '{\n  "entities": [\n    { "name": "Queue" },\n    { "name": "x", "type": "t", "tags": [""] }\n  ]\n}\n');
    const result = await lore(['graph', 'apply', 'update.json'], { cwd: dir });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, [
      'error: the graph update in update.json is invalid (1 problem); nothing was applied',
      'update.json:4:42: error: entities[1].tags[0] must not be empty',
      '    3 |     { "name": "Queue" },',
      '  > 4 |     { "name": "x", "type": "t", "tags": [""] }',
      '      |                                          ^^',
      '',
    ].join('\n'));
    const semantic = await loreJson<{ error: { problems: Array<{ line: number; column: number; message: string }> } }>(['graph', 'apply', '-'], { cwd: dir, input: '{"entities": [{"name": "Queue"}]}' });
    assert.equal(semantic.code, 1);
    assert.deepEqual(semantic.json.error.problems.map((p) => [p.line, p.column, p.message]), [[1, 15, 'entities[0].type is required: there is no entity named "Queue", so this entry adds one, and a new entity needs a type']]);
    assert.equal(readFileSync(join(dir, 'context.json'), 'utf8'), JSON.stringify(SYSTEM));
  });

  it('says where an update is not JSON, and when a file is missing (exit 2)', async (t) => {
    const dir = system(t);
    const bad = await lore(['graph', 'apply', '-'], { cwd: dir, input: '{"entities": [}' });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^error: <stdin> is not valid JSON\n<stdin>:1:15: error: JSON syntax: expected a value \(found '\}'\)\n/);
    assert.deepEqual(await lore(['graph', 'apply', 'nope.json'], { cwd: dir }), { code: 2, stdout: '', stderr: 'error: nope.json does not exist\n' });
  });
});

describe('lore graph add-entity, relate, unrelate, rm-entity', () => {
  it('merges updates by the rules: type change, tag union and removal, property merge and removal', async (t) => {
    const dir = system(t);
    const steps: Array<[string[], string]> = [
      [['--name', 'User DB', '--type', 'database', '--tag', 'sql', '--prop', 'engine=postgres', '--prop', 'replicas=2'], 'updated entity "User DB" (database)\nwrote context.json\n'],
      [['--name', 'User DB', '--remove-tag', 'core', '--remove-prop', 'replicas', '--description', 'Accounts.'], 'updated entity "User DB" (database)\nwrote context.json\n'],
    ];
    for (const [args, stdout] of steps) assert.deepEqual(await lore(['graph', 'add-entity', ...args], { cwd: dir }), { code: 0, stdout, stderr: '' });
    const { json } = await loreJson<{ entities: unknown[] }>(['graph', 'show', 'User DB', '--depth', '0'], { cwd: dir });
    assert.deepEqual(json.entities, [{ name: 'User DB', type: 'database', description: 'Accounts.', tags: ['sql'], properties: { engine: 'postgres' } }]);
  });

  it('keeps properties named like built-in object keys (constructor, toString, __proto__) in the store and back', async (t) => {
    const dir = tempDir(t);
    assert.equal((await lore(['init', '--no-starter', '--store', dir], { cwd: dir })).code, 0);
    const props = ['constructor=c', 'toString=t', '__proto__=p', 'hasOwnProperty=h', 'ok=1'].flatMap((p) => ['--prop', p]);
    const added = await lore(['graph', 'add-entity', '--name', 'pp', '--type', 'service', ...props], { cwd: dir });
    assert.equal(added.code, 0, added.stderr);
    assert.match(readFileSync(join(dir, '.knowledge/graph/entities/pp.yaml'), 'utf8'), /\nproperties:\n {2}constructor: c\n {2}toString: t\n {2}__proto__: p\n {2}hasOwnProperty: h\n {2}ok: 1\n/);
    const { json } = await loreJson<{ entities: Array<{ properties: Record<string, unknown> }> }>(['graph', 'show', 'pp', '--depth', '0'], { cwd: dir });
    const properties = json.entities[0]!.properties;
    assert.deepEqual(Object.entries(properties), [['constructor', 'c'], ['toString', 't'], ['__proto__', 'p'], ['hasOwnProperty', 'h'], ['ok', 1]]);
    assert.equal(Object.getPrototypeOf(properties), Object.prototype);
  });

  it('needs a type for a new entity and names a bad --prop (usage errors)', async (t) => {
    const dir = system(t);
    assert.deepEqual(await lore(['graph', 'add-entity', '--name', 'Queue'], { cwd: dir }), { code: 1, stdout: '', stderr: 'error: invalid entity: type is required: there is no entity named "Queue", so this entry adds one, and a new entity needs a type\n<update>: error: type is required: there is no entity named "Queue", so this entry adds one, and a new entity needs a type\n' });
    assert.deepEqual(await lore(['graph', 'add-entity', '--name', 'Q', '--type', 'q', '--prop', 'novalue'], { cwd: dir }), { code: 2, stdout: '', stderr: 'error: --prop "novalue" is not key=value\nhint: e.g. --prop owner=team-a --prop port=8080\n' });
  });

  it('relates existing entities, merges a repeated triplet, and refuses a missing end (exit 1)', async (t) => {
    const dir = system(t);
    assert.equal((await lore(['graph', 'relate', 'Web App', 'reads_from', 'User DB'], { cwd: dir })).stdout, 'added relationship "Web App" -reads_from-> "User DB"\nwrote context.json\n');
    assert.equal((await lore(['graph', 'relate', 'Auth Service', 'reads_from', 'User DB', '--prop', 'pool=10'], { cwd: dir })).stdout, 'updated relationship "Auth Service" -reads_from-> "User DB"\nwrote context.json\n');
    assert.deepEqual(await lore(['graph', 'relate', 'Web App', 'calls', 'Billing'], { cwd: dir }), {
      code: 1, stdout: '', stderr: 'error: relationship "Web App" -calls-> "Billing" ignored: the to entity "Billing" does not exist\nhint: add the missing entity first with lore graph add-entity; nothing was changed\n',
    });
    const { json } = await loreJson<{ path: unknown }>(['graph', 'path', 'Web App', 'User DB'], { cwd: dir });
    assert.deepEqual(json.path, { entities: ['Web App', 'User DB'], relationships: [{ from: 'Web App', to: 'User DB', type: 'reads_from', properties: {} }] });
  });

  it('unrelates and removes with cascade, and says what does not exist (exit 2)', async (t) => {
    const dir = system(t);
    assert.deepEqual(await lore(['graph', 'unrelate', 'Web App', 'reads', 'Auth Service'], { cwd: dir }), { code: 2, stdout: '', stderr: 'error: there is no relationship "Web App" -reads-> "Auth Service"\nhint: "Web App" -> "Auth Service" has: calls\n' });
    assert.equal((await lore(['graph', 'unrelate', 'Web App', 'calls', 'Auth Service'], { cwd: dir })).stdout, 'removed relationship "Web App" -calls-> "Auth Service"\nwrote context.json\n');
    assert.deepEqual(await lore(['graph', 'rm-entity', 'Auth Servce'], { cwd: dir }), { code: 2, stdout: '', stderr: 'error: no entity named "Auth Servce" in the context graph (context.json)\nhint: did you mean "Auth Service"?\n' });
    assert.equal((await lore(['graph', 'rm-entity', 'Auth Service'], { cwd: dir })).stdout, 'removed entity "Auth Service" and 2 relationships\nwrote context.json\n');
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'context.json'), 'utf8')).relationships, []);
  });
});

describe('lore graph show, find, path, context', () => {
  it('shows an entity with its outgoing and incoming relationships grouped', async (t) => {
    const dir = system(t);
    assert.deepEqual(await lore(['graph', 'show', 'Auth Service'], { cwd: dir }), {
      code: 0,
      stderr: '',
      stdout: [
        'Auth Service (service)  #core',
        '  Issues JWT tokens.',
        '  properties: owner="team-a"',
        '  outgoing:',
        '    -reads_from-> User DB (pool=5)',
        '  incoming:',
        '    <-calls- Web App',
        '    <-constrains- ADR-7',
        '',
        'User DB (data_store)  #core',
        '  incoming:',
        '    <-reads_from- Auth Service (pool=5)',
        '',
        'Web App (app)  #frontend',
        '  outgoing:',
        '    -calls-> Auth Service',
        '',
        'ADR-7 (adr)',
        '  Tokens expire after 15 minutes.',
        '  outgoing:',
        '    -constrains-> Auth Service',
        '',
        '4 entities, 3 relationships (the neighbourhood of "Auth Service" within 1 step)',
        '',
      ].join('\n'),
    });
  });

  it('prints Mermaid and DOT as the golden files', async (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, 'sample.json'), JSON.stringify(SAMPLE));
    for (const [format, file] of [['mermaid', 'sample.mmd'], ['dot', 'sample.dot']]) {
      const result = await lore(['graph', 'show', '--format', format!, '--memory-file', 'sample.json'], { cwd: dir });
      assert.equal(result.stdout, readFileSync(new URL(`./golden/graph/${file}`, import.meta.url), 'utf8'));
    }
    assert.deepEqual(await lore(['graph', 'show', '--format', 'svg', '--memory-file', 'sample.json'], { cwd: dir }), { code: 2, stdout: '', stderr: 'error: --format must be one of text, json, mermaid, dot (found "svg")\n' });
  });

  it('cuts what it shows to --budget nearest first, and says so under the text or on stderr', async (t) => {
    const dir = system(t);
    assert.deepEqual(await lore(['graph', 'show', 'Auth Service', '--budget', '80'], { cwd: dir }), {
      code: 0,
      stderr: '',
      stdout: [
        'Auth Service (service)  #core',
        '  Issues JWT tokens.',
        '  properties: owner="team-a"',
        '',
        '1 of 4 entities, 0 of 3 relationships (the neighbourhood of "Auth Service" within 1 step; cut to fit 80 tokens)',
        '',
      ].join('\n'),
    });
    const mermaid = await lore(['graph', 'show', '--budget', '80', '--format', 'mermaid'], { cwd: dir });
    assert.deepEqual(mermaid, { code: 0, stdout: 'flowchart LR\n  n1["Web App<br/>(app)"]\n', stderr: 'warning: cut to fit --budget 80: 1 of 4 entities, 0 of 3 relationships shown\n' });
    const { json } = await loreJson<{ truncated: unknown }>(['graph', 'show', '--budget', '80'], { cwd: dir });
    assert.deepEqual(json.truncated, { budget: 80, entities: { shown: 1, total: 4 }, relationships: { shown: 0, total: 3 } });
  });

  const finds: Array<[string[], string[]]> = [
    [['--type', 'service'], ['Auth Service']],
    [['--tag', 'core'], ['Auth Service', 'User DB']],
    [['--tag', 'core', '--type', 'data_store'], ['User DB']],
    [['--related-to', 'Auth Service'], ['Web App', 'User DB', 'ADR-7']],
    [['--related-to', 'Auth Service', '--relation', 'constrains'], ['ADR-7']],
    [[], ['Web App', 'Auth Service', 'User DB', 'ADR-7']],
  ];
  it('finds entities by type, tag and relationship', async (t) => {
    const dir = system(t);
    for (const [args, names] of finds) {
      const { json } = await loreJson<{ entities: Array<{ name: string }>; total: number; truncated: boolean }>(['graph', 'find', ...args], { cwd: dir });
      assert.deepEqual([json.entities.map((e) => e.name), json.total, json.truncated], [names, names.length, false], args.join(' '));
    }
    assert.equal((await lore(['graph', 'find', '--type', 'adr'], { cwd: dir })).stdout, 'ADR-7  adr  Tokens expire after 15 minutes.\n1 entity\n');
    assert.equal((await lore(['graph', 'find', '--tag', 'core', '--limit', '1'], { cwd: dir })).stdout, 'Auth Service  service  Issues JWT tokens.\n1 of 2 entities (--limit 1)\n');
    assert.deepEqual(await lore(['graph', 'find', '--relation', 'calls'], { cwd: dir }), { code: 2, stdout: '', stderr: 'error: --relation narrows --related-to: give --related-to NAME too\n' });
  });

  it('prints the shortest path with the direction of each step', async (t) => {
    const dir = system(t);
    assert.equal((await lore(['graph', 'path', 'ADR-7', 'Web App'], { cwd: dir })).stdout, '"ADR-7" -constrains-> "Auth Service" <-calls- "Web App"\n');
    assert.equal((await lore(['graph', 'path', 'ADR-7', 'Web App', '--directed'], { cwd: dir })).stdout, 'no path from "ADR-7" to "Web App" following relationships forwards\n');
  });

  it('prints the context for a prompt, whole or around an entity within a budget', async (t) => {
    const dir = system(t);
    assert.equal((await lore(['graph', 'context', '--around', 'User DB', '--depth', '1'], { cwd: dir })).stdout, [
      'Context graph, the neighbourhood of "User DB" within 1 step, nearest first: 2 entities, 1 relationship.',
      'Entities:',
      '- "User DB" (data_store) | tags: core',
      '- "Auth Service" (service): Issues JWT tokens. | tags: core | properties: {"owner":"team-a"}',
      'Relationships:',
      '- "Auth Service" -reads_from-> "User DB" | properties: {"pool":5}',
      '',
    ].join('\n'));
    const { json } = await loreJson<{ truncated: boolean; tokens: number; entities: unknown; text: string }>(['graph', 'context', '--around', 'User DB', '--depth', '2', '--budget', '90'], { cwd: dir });
    assert.equal(json.truncated, true);
    assert.ok(json.tokens <= 90);
    assert.deepEqual(json.entities, { shown: 1, total: 4 });
    assert.match(json.text, /^Context graph, .*\(TRUNCATED to fit 90 tokens\)/);
    assert.match(json.text, /\n\[truncated: 3 more entities and 3 more relationships left out to fit the budget of 90 tokens\]$/);
    assert.deepEqual(await lore(['graph', 'context', '--budget', 'lots'], { cwd: dir }), { code: 2, stdout: '', stderr: 'error: --budget must be a whole number of at least 1 (found "lots")\n' });
  });
});

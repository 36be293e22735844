import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ValidationError } from '../src/errors.js';
import { loadConfig, openStore } from '../src/store/open.js';
import { parseConfig } from '../src/store/config.js';
import { configTemplate } from '../src/store/config-template.js';
import { entry, knowledgeStore } from './helpers/knowledge.js';
import { tempStore } from './helpers/temp.js';

const CACHE = '.knowledge/.cache/config.json';
const CONFIG = '.knowledge/config.yaml';

describe('the config.yaml cache', () => {
  it('gives what parsing the file gives, problems and their places included', async (t) => {
    const text = 'version: 1\nproject: shop\nmatching:\n  keyword_boost: 2\n  use_semantic: no\n';
    const root = tempStore(t, { [CONFIG]: text });
    const parsed = parseConfig(text, CONFIG);
    assert.ok(parsed.problems.length > 0, 'the fixture has a warning to keep (a YAML 1.1 "no")');
    const first = await loadConfig(root);
    assert.deepEqual(first, parsed);
    assert.equal((JSON.parse(readFileSync(join(root, CACHE), 'utf8')) as { config: unknown }).config !== undefined, true);
    assert.deepEqual(await loadConfig(root), parsed, 'from the cache');
  });

  it('is read while it holds the file as it is, and replaced when the file changes, even in place', async (t) => {
    const root = tempStore(t, { [CONFIG]: 'version: 1\nproject: shop\n' });
    await loadConfig(root);
    const saved = JSON.parse(readFileSync(join(root, CACHE), 'utf8')) as { config: { project: string } };
    saved.config.project = 'from-the-cache';
    writeFileSync(join(root, CACHE), JSON.stringify(saved));
    assert.equal((await loadConfig(root)).config.project, 'from-the-cache', 'the cache answers for the same bytes');
    // The same size, the same times: only the bytes differ.
    writeFileSync(join(root, CONFIG), 'version: 1\nproject: shoe\n');
    utimesSync(join(root, CONFIG), new Date(0), new Date(0));
    assert.equal((await loadConfig(root)).config.project, 'shoe');
  });

  it('keeps refusing an invalid config.yaml, with the same problems', async (t) => {
    const root = tempStore(t, { [CONFIG]: 'version: 1\nmatching:\n  keyword_boost: high\n' });
    const refusal = async (): Promise<unknown> => openStore({ cwd: root }).then(() => undefined, (error: unknown) => error);
    const first = await refusal();
    assert.ok(first instanceof ValidationError);
    const second = await refusal();
    assert.ok(second instanceof ValidationError);
    assert.deepEqual(second.problems, first.problems);
    assert.equal(first.problems[0]?.line, 3);
  });

  it('lets lore query on a warm store run without the YAML parser or ajv, and on a cold one in lore\'s own form', async (t) => {
    // A comment after a value is outside the form the line reader takes: only yaml reads this config.yaml.
    const { root } = await knowledgeStore(t, [entry({ id: 'rec-retry', title: 'Retry flaky uploads' })], { config: 'turns:\n  max_turns: 3 # the shop\n' });
    const hour = new Date(Date.now() - 3600_000);
    for (const file of ['knowledge/recommendations/rec-retry.yaml', 'config.yaml']) utimesSync(join(root, '.knowledge', file), hour, hour);
    const trace = join(root, 'trace.mjs');
    writeFileSync(trace, "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nprocess.on('exit', () => process.stderr.write('LOADED ' + Object.keys(require.cache).filter((k) => /node_modules\\/(yaml|ajv)\\/(?!dist\\/runtime\\/)/.test(k)).map((k) => k.split('node_modules/')[1].split('/')[0]).filter((v, i, a) => a.indexOf(v) === i).sort().join(',') + '\\n'));\n");
    const loaded = (): Promise<string> => new Promise((resolve) => execFile(process.execPath, ['--import', trace, join(import.meta.dirname, '../bin/lore.js'), 'query', 'retry uploads', '--json'], { cwd: root }, (_e, _o, stderr) => resolve(stderr)));
    rmSync(join(root, '.knowledge/.cache'), { recursive: true, force: true });
    // ajv's compiler is never loaded: the records are checked by the validators npm run build generated.
    assert.match(await loaded(), /LOADED yaml\n$/, 'a cold store parses config.yaml with yaml');
    // Nothing needs YAML once the caches hold config.yaml and the entries.
    assert.match(await loaded(), /LOADED \n$/);
    // In the form lore writes, not even a cold store does: the config.yaml of lore init, comments and nested settings.
    writeFileSync(join(root, '.knowledge/config.yaml'), configTemplate('shop', '# yaml-language-server: $schema=schemas/config.schema.json'));
    rmSync(join(root, '.knowledge/.cache'), { recursive: true, force: true });
    assert.match(await loaded(), /LOADED \n$/);
  });
});

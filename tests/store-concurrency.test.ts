// Many processes writing one store at once: every acknowledged write is there afterwards, or the
// writer was told no (exit non-zero, "already exists"). Real processes, real files.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import YAML from 'yaml';
import { lore, type CliResult } from './helpers/cli.js';
import { entry, entryFiles } from './helpers/knowledge.js';
import { tempStore, testEnv } from './helpers/temp.js';

const WORKER = fileURLToPath(new URL('./fixtures/store-worker.mjs', import.meta.url));
const CONFIG = { '.knowledge/config.yaml': 'version: 1\nproject: shop\n' };
const PROHIBITIONS = '.knowledge/knowledge/prohibitions';

/** Runs the worker script; resolves with its acknowledgements (and fails on a non-zero exit). */
function worker(args: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [WORKER, ...args], { env: testEnv(), maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null) return reject(new Error(`worker ${args.join(' ')} failed: ${stderr}`));
      resolve(stdout.split('\n').filter((l) => l.startsWith('ack ')).map((l) => l.slice(4)));
    });
  });
}

/** Runs `lore <args>` `times` times in a row; the results in order. */
async function inSequence(times: number, args: (i: number) => string[], cwd: string): Promise<CliResult[]> {
  const results: CliResult[] = [];
  for (let i = 0; i < times; i++) results.push(await lore(args(i), { cwd }));
  return results;
}

const files = (root: string, dir: string): string[] => readdirSync(join(root, dir)).filter((n) => !n.startsWith('.')).sort();
/** The stored record of the entity named `name` (its file name is a slug of the name). */
function entity(root: string, name: string): { tags?: string[]; relationships?: Array<{ to: string }> } {
  const dir = join(root, '.knowledge/graph/entities');
  const records = readdirSync(dir).map((f) => YAML.parse(readFileSync(join(dir, f), 'utf8')) as { name: string; tags?: string[]; relationships?: Array<{ to: string }> });
  return records.find((r) => r.name === name)!;
}

describe('concurrent writes to one store', () => {
  // 8 × 15 here; npm run bench runs the 8 × 50 of the issue and reports the figures.
  it('gives 8 processes × 15 adds of the same five titles 120 ids and 120 files', async (t) => {
    const root = tempStore(t, CONFIG);
    const acks = (await Promise.all(Array.from({ length: 8 }, (_, w) => worker(['add', root, String(w), '15'])))).flat();
    assert.equal(acks.length, 120);
    assert.equal(new Set(acks).size, 120);
    assert.deepEqual(files(root, PROHIBITIONS), acks.map((id) => `${id}.yaml`).sort());
  });

  it('gives concurrent lore add runs of one title each their own id, and refuses a taken --id', async (t) => {
    const root = tempStore(t, CONFIG);
    const runs = (await Promise.all(Array.from({ length: 6 }, () => inSequence(3, () => ['add', 'prohibition', '--title', 'Never commit env files', '--description', 'No.', '--glob', '**/.env', '--json'], root)))).flat();
    assert.deepEqual(runs.map((r) => r.code), Array(18).fill(0));
    const ids = runs.map((r) => (JSON.parse(r.stdout) as { id: string }).id);
    assert.deepEqual([...ids].sort(), ['pro-never-commit-env-files', ...Array.from({ length: 17 }, (_, i) => `pro-never-commit-env-files-${i + 2}`)].sort());
    assert.equal(files(root, PROHIBITIONS).length, 18);
    const same = await Promise.all(Array.from({ length: 6 }, () => lore(['add', 'prohibition', '--id', 'pro-one', '--title', 'One', '--description', 'No.', '--glob', 'x'], { cwd: root })));
    assert.deepEqual(same.map((r) => r.code).sort(), [0, 2, 2, 2, 2, 2]);
    for (const refused of same.filter((r) => r.code === 2)) assert.match(refused.stderr, /^error: an entry with id pro-one already exists\n/);
  });

  it('keeps every tag 8 processes add to one entity, and every relationship they add', async (t) => {
    const root = tempStore(t, CONFIG);
    const tags = (await Promise.all(Array.from({ length: 8 }, (_, w) => worker(['tag', root, String(w), '6'])))).flat();
    assert.equal(tags.length, 48);
    assert.deepEqual([...(entity(root, 'Shared').tags ?? [])].sort(), [...tags].sort());
    const rels = (await Promise.all(Array.from({ length: 8 }, (_, w) => worker(['relate', root, String(w), '2'])))).flat();
    assert.equal(rels.length, 16);
    assert.equal(entity(root, 'Hub').relationships?.length, 16);
  });

  it('keeps every relationship 8 concurrent lore graph relate runs add', async (t) => {
    const root = tempStore(t, CONFIG);
    const hub = await lore(['graph', 'add-entity', '--name', 'Hub', '--type', 'service'], { cwd: root });
    const spokes = await Promise.all(Array.from({ length: 8 }, (_, i) => lore(['graph', 'add-entity', '--name', `S${i}`, '--type', 'service'], { cwd: root })));
    assert.deepEqual([hub, ...spokes].map((r) => r.code), Array(9).fill(0), [hub, ...spokes].map((r) => r.stderr).join(''));
    const relate = await Promise.all(Array.from({ length: 8 }, (_, i) => lore(['graph', 'relate', 'Hub', 'calls', `S${i}`], { cwd: root })));
    assert.deepEqual(relate.map((r) => r.code), Array(8).fill(0), relate.map((r) => r.stderr).join(''));
    assert.deepEqual(entity(root, 'Hub').relationships?.map((r) => r.to).sort(), Array.from({ length: 8 }, (_, i) => `S${i}`));
  });

  it('keeps all ten fields that ten concurrent lore edit runs set on one entry', async (t) => {
    const root = tempStore(t, { ...CONFIG, ...entryFiles([entry({ id: 'pro-x', type: 'prohibition' })]) });
    const sets = ['title=New title', 'description=New description.', 'details=Some details.', 'sourceRef=PR-7', 'keywords=[env, secrets]', 'patterns=["\\\\.env$"]', 'globs=["**/.env"]', 'content=["AKIA"]', 'validUntil=2030-01-01T00:00:00.000Z', 'priority=critical'];
    const edits = await Promise.all(sets.map((set) => lore(['edit', 'pro-x', '--set', set], { cwd: root })));
    assert.deepEqual(edits.map((r) => r.code), Array(10).fill(0), edits.map((r) => r.stderr).join(''));
    const saved = YAML.parse(readFileSync(join(root, PROHIBITIONS, 'pro-x.yaml'), 'utf8'));
    assert.deepEqual(
      [saved.title, saved.description, saved.details, saved.sourceRef, saved.keywords, saved.patterns, saved.globs, saved.content, saved.validUntil, saved.priority],
      ['New title', 'New description.', 'Some details.', 'PR-7', ['env', 'secrets'], ['\\.env$'], ['**/.env'], ['AKIA'], '2030-01-01T00:00:00.000Z', 'critical'],
    );
  });
});

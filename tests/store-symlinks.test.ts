// A repository is untrusted input: a symlink inside `.knowledge/` may point anywhere. lore never
// reads or writes through one, and says which path it is.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { lore } from './helpers/cli.js';
import { entry, entryFiles } from './helpers/knowledge.js';
import { tempDir, tempStore } from './helpers/temp.js';

const CONFIG = { '.knowledge/config.yaml': 'version: 1\nproject: shop\n' };
const TOKEN = 'ghp_outsideTheRepository0123456789';

/** A folder outside the store with a file holding a token, as a record-shaped YAML file. */
function outside(t: Parameters<typeof tempDir>[0]): { dir: string; file: string } {
  const dir = tempDir(t, 'lore-outside-');
  const file = join(dir, 'secret.yaml');
  writeFileSync(file, `id: pro-x\ntitle: ${TOKEN}\n`);
  return { dir, file };
}

describe('symlinks inside .knowledge/', () => {
  it('are reported by lore validate, with their path, and never read', async (t) => {
    const { file } = outside(t);
    const root = tempStore(t, { ...CONFIG, ...entryFiles([entry({ id: 'rec-ok' })]) });
    symlinkSync(file, join(root, '.knowledge/knowledge/recommendations/rec-leak.yaml'));
    const result = await lore(['validate'], { cwd: root });
    assert.equal(result.code, 1);
    assert.ok(!result.stdout.includes(TOKEN) && !result.stderr.includes(TOKEN), 'the token was printed');
    assert.match(result.stdout, new RegExp(`^\\.knowledge/knowledge/recommendations/rec-leak\\.yaml: error: is a symbolic link \\(it points to ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\): lore never follows symlinks inside \\.knowledge/$`, 'm'));
    const list = await lore(['list', '--json'], { cwd: root });
    assert.ok(!list.stdout.includes(TOKEN) && !list.stderr.includes(TOKEN));
  });

  it('refuses to write through a symlinked folder: lore add writes nothing outside', async (t) => {
    const { dir } = outside(t);
    const root = tempStore(t, CONFIG);
    mkdirSync(join(root, '.knowledge/knowledge'), { recursive: true });
    symlinkSync(dir, join(root, '.knowledge/knowledge/prohibitions'));
    const result = await lore(['add', 'prohibition', '--title', 'Never commit env files', '--description', 'No.', '--glob', '**/.env'], { cwd: root });
    assert.equal(result.code, 2);
    assert.equal(result.stderr, `error: .knowledge/knowledge/prohibitions is a symbolic link (it points to ${dir}): lore never follows symlinks inside .knowledge/\nhint: replace it with the real file or folder\n`);
    assert.deepEqual(readdirSync(dir), ['secret.yaml']);
  });

  it('refuses to append to a log that is a symlink, and leaves its target alone', async (t) => {
    const { dir } = outside(t);
    const target = join(dir, 'events.ndjson');
    writeFileSync(target, '');
    const root = tempStore(t, { ...CONFIG, ...entryFiles([entry({ id: 'rec-ok' })]) });
    mkdirSync(join(root, '.knowledge/log'), { recursive: true });
    symlinkSync(target, join(root, '.knowledge/log/applications.ndjson'));
    const result = await lore(['applied', 'rec-ok', '--task', 'T-1'], { cwd: root });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^error: \.knowledge\/log\/applications\.ndjson is a symbolic link \(it points to .*events\.ndjson\): lore never follows symlinks inside \.knowledge\/\n/);
    assert.equal(readFileSync(target, 'utf8'), '');
  });

  it('refuses a turn log folder that is a symlink', async (t) => {
    const { dir } = outside(t);
    const root = tempStore(t, CONFIG);
    mkdirSync(join(root, '.knowledge/turns'), { recursive: true });
    symlinkSync(dir, join(root, '.knowledge/turns/shop'));
    const result = await lore(['turn', 'record', '--feature', 'F-1', '--task', 'T-1', '--turn', '1', '--player-decision', 'p', '--coach-decision', 'approve', '--progress', 's'], { cwd: root });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^error: \.knowledge\/turns\/shop is a symbolic link/);
    assert.deepEqual(readdirSync(dir), ['secret.yaml']);
  });

  it('refuses a .knowledge that is itself a symlink instead of opening it as the store', async (t) => {
    const { dir } = outside(t);
    const root = tempDir(t);
    mkdirSync(join(dir, 'knowledge', 'prohibitions'), { recursive: true });
    writeFileSync(join(dir, 'config.yaml'), 'version: 1\nproject: shop\n');
    symlinkSync(dir, join(root, '.knowledge'));
    const result = await lore(['validate'], { cwd: root });
    assert.equal(result.code, 2);
    assert.equal(result.stderr, `error: .knowledge is a symbolic link (it points to ${dir}): lore never follows symlinks inside .knowledge/\nhint: replace it with the real file or folder\n`);
    const add = await lore(['add', 'prohibition', '--title', 'X', '--description', 'Y.', '--glob', 'x'], { cwd: root });
    assert.equal(add.code, 2);
    assert.deepEqual(readdirSync(join(dir, 'knowledge', 'prohibitions')), []);
  });
});

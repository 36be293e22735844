// readParsedIfExistsSync keeps a cache file's parse while the file is the same one: a process that
// reads it again and again (lore serve answering commit hooks) parses each version once. Real files
// in a real store's .knowledge/.cache/, the times they really get from the system.
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { RACY_MS, readParsedIfExistsSync } from '../src/fs/read-text.js';
import { tempDir, tempStore } from './helpers/temp.js';

/** A file in the store's cache folder, and a parser that counts its calls. */
function cacheFile(t: TestContext): { path: string; parse: (bytes: Buffer) => string; calls: () => number } {
  const root = tempStore(t);
  mkdirSync(join(root, '.knowledge/.cache'), { recursive: true });
  let calls = 0;
  return {
    path: join(root, '.knowledge/.cache/parsed.txt'),
    parse: (bytes) => {
      calls++;
      return bytes.toString('utf8');
    },
    calls: () => calls,
  };
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));

describe('readParsedIfExistsSync', () => {
  it('parses a settled file once, and again once it is rewritten in place or replaced', async (t) => {
    const { path, parse, calls } = cacheFile(t);
    writeFileSync(path, 'first');
    await settle();
    assert.equal(readParsedIfExistsSync(path, parse), 'first');
    assert.equal(readParsedIfExistsSync(path, parse), 'first');
    assert.equal(calls(), 1);

    // The same size, the same inode: the change time still tells.
    writeFileSync(path, 'FIRST');
    assert.equal(readParsedIfExistsSync(path, parse), 'FIRST');
    assert.equal(calls(), 2);

    // Renamed into place, as lore writes its caches.
    writeFileSync(`${path}.new`, 'other');
    renameSync(`${path}.new`, path);
    assert.equal(readParsedIfExistsSync(path, parse), 'other');
    assert.equal(calls(), 3);
  });

  it('keeps nothing for a file changed within the last RACY_MS: it may change again within the same time tick', (t) => {
    const { path, parse, calls } = cacheFile(t);
    writeFileSync(path, 'fresh');
    assert.equal(readParsedIfExistsSync(path, parse), 'fresh');
    assert.equal(readParsedIfExistsSync(path, parse), 'fresh');
    assert.equal(calls(), 2);
  });

  it('answers undefined for a missing file, forgetting its parse, and parses again with another parser', async (t) => {
    const { path, parse, calls } = cacheFile(t);
    writeFileSync(path, 'kept');
    await settle();
    assert.equal(readParsedIfExistsSync(path, parse), 'kept');
    assert.equal(readParsedIfExistsSync(path, (bytes) => bytes.length), 4);
    rmSync(path);
    assert.equal(readParsedIfExistsSync(path, parse), undefined);
    assert.equal(calls(), 1);
  });

  it('never reads through a symlink inside the store, even where a parse for that path is kept', async (t) => {
    const { path, parse, calls } = cacheFile(t);
    writeFileSync(path, 'inside');
    await settle();
    assert.equal(readParsedIfExistsSync(path, parse), 'inside');
    const outside = join(tempDir(t), 'elsewhere.txt');
    writeFileSync(outside, 'outside');
    rmSync(path);
    symlinkSync(outside, path);
    assert.throws(() => readParsedIfExistsSync(path, parse), /is a symbolic link/);
    assert.equal(calls(), 1);
  });
});

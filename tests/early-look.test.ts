import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { FIND_FORMAT, parseFolderLook, prestartFolderLook, type FolderLook } from '../src/indexer/early-look.js';
import { LOOK_MEMO, lookAtRecordFiles, type FilesLook } from '../src/indexer/file-stamps.js';
import { APPLIED_KINDS } from '../src/store/layout.js';
import { RECORD_EXTENSIONS, recordDir } from '../src/store/record-files.js';
import { forgetCheckedDirs } from '../src/fs/no-follow.js';
import type { KnowledgeEntry } from '../src/types.js';
import { lore } from './helpers/cli.js';
import { entry, knowledgeStore } from './helpers/knowledge.js';
import { tempDir, testEnv, writeFiles } from './helpers/temp.js';

const ENTRIES: Array<KnowledgeEntry | [KnowledgeEntry, 'learning']> = [
  entry({ id: 'pro-no-env', title: 'Never commit env files', description: 'Secrets stay out of git.', keywords: ['secrets', 'env'], priority: 'critical', globs: ['**/.env'] }),
  entry({ id: 'rec-retry', title: 'Retry flaky uploads', description: 'Uploads retry with backoff.', keywords: ['upload'] }),
  [entry({ id: 'learn-cache', title: 'The cache is keyed by content', description: 'Stale uploads caches were a bug once.' }), 'learning'],
];

/** Files a folder of records may hold besides records: lore lists the records and stamps only them. */
const ODD_FILES = {
  '.knowledge/knowledge/recommendations/with space.yaml': 'a: 1\n',
  '.knowledge/knowledge/recommendations/line\nbreak.yml': 'a: 1\n',
  '.knowledge/knowledge/recommendations/-dash.json': '{}\n',
  '.knowledge/knowledge/recommendations/été ünïcode.yaml': 'a: 1\n',
  '.knowledge/knowledge/recommendations/Zed.yaml': 'a: 1\n',
  '.knowledge/knowledge/recommendations/.hidden.yaml': 'a: 1\n',
  '.knowledge/knowledge/recommendations/notes.txt': 'not a record\n',
  '.knowledge/knowledge/learnings/folder.yaml/inside.yaml': 'a: 1\n',
};

const memoPath = (root: string): string => join(root, '.knowledge/.cache', LOOK_MEMO);
const dirsOf = (root: string): string[] => APPLIED_KINDS.map((kind) => recordDir(root, kind));

/** Everything a look holds, as plain values. */
function plain(look: FilesLook | undefined): unknown {
  if (look === undefined) return undefined;
  const count = look.listed.flat().length;
  return { stamp: look.stamp, listed: look.listed, signatures: Array.from({ length: count }, (_, at) => look.stamps.signatureAt(at)) };
}

/** The look lookAtRecordFiles takes itself (nothing prestarted for these folders). */
const ownLook = async (root: string): Promise<unknown> => plain(await lookAtRecordFiles(root, APPLIED_KINDS));

/** The look it takes from find, started first as bin/lore.js starts it. */
async function earlyLook(root: string): Promise<unknown> {
  prestartFolderLook(dirsOf(root));
  return plain(await lookAtRecordFiles(root, APPLIED_KINDS));
}

/** A folder put first on PATH whose `find` is the given shell script. */
function findOnPath(t: TestContext, script: string): string {
  const bin = tempDir(t, 'lore-find-');
  writeFileSync(join(bin, 'find'), `#!/bin/sh\n${script}\n`);
  chmodSync(join(bin, 'find'), 0o755);
  return `${bin}:${process.env.PATH}`;
}

/** Runs `body` with PATH set to `path` (the look's find is spawned with this process's environment). */
async function withPath<T>(path: string, body: () => Promise<T>): Promise<T> {
  const saved = process.env.PATH;
  process.env.PATH = path;
  try {
    return await body();
  } finally {
    process.env.PATH = saved;
  }
}

// How many entry vectors a run computed depends on what the caches held before it, not on the look.
const settled = (stdout: string): string => stdout.replace(/"computed": \d+/g, '"computed": N');

const REAL_FIND = execFileSync('sh', ['-c', 'command -v find'], { encoding: 'utf8' }).trim();

describe("find's look at the entry folders", () => {
  it('reads, for every entry of every folder, the name and the numbers lstat gives', (t) => {
    const root = tempDir(t);
    writeFiles(root, { ...ODD_FILES, '.knowledge/knowledge/prohibitions/pro-a.yaml': 'x\n', '.knowledge/knowledge/prohibitions/pro-b.yaml': 'yy\n' });
    mkdirSync(join(root, '.knowledge/knowledge/learnings/empty'), { recursive: true });
    const dirs = dirsOf(root);
    const output = execFileSync(REAL_FIND, [...dirs, '-maxdepth', '1', '-printf', FIND_FORMAT], { env: { ...process.env, LC_ALL: 'C' } });
    const folders = parseFolderLook(output, dirs.length);
    assert.ok(folders !== undefined);
    for (const [q, dir] of dirs.entries()) {
      const { names, numbers }: FolderLook = folders[q]!;
      assert.deepEqual([...names].sort(), readdirSync(dir).sort(), dir);
      for (const [k, name] of names.entries()) {
        const info = lstatSync(join(dir, name));
        assert.deepEqual([...numbers.subarray(4 * k, 4 * k + 4)], [info.size, info.mtimeMs, info.ctimeMs, info.ino], name);
      }
    }
  });

  it('reads nothing that is not exactly what the format prints', () => {
    const line = (text: string): string => `${text}\0`;
    const good = line('0 d 4096 1700000000.1234567890 1700000000.1234567890 12 learnings') + line('1 f 10 1700000001.0000000010 1700000002.9999999990 13 a.yaml');
    const read = parseFolderLook(Buffer.from(good), 1);
    assert.deepEqual(read?.[0]?.names, ['a.yaml']);
    assert.deepEqual([...read![0]!.numbers], [10, 1700000001 * 1e3 + 10 / 1e6, 1700000002 * 1e3 + 999999999 / 1e6, 13]);
    const broken = {
      'another count of folders': [good, 2],
      'a folder that is a symlink': [good.replace('0 d', '0 l'), 1],
      'entries before any folder': [line('1 f 10 1700000001.0000000010 1700000002.9999999990 13 a.yaml'), 1],
      'a fraction short of nanoseconds': [good.replace('1700000001.0000000010', '1700000001.00000001'), 1],
      'a time without its fraction': [good.replace('1700000001.0000000010', '1700000001'), 1],
      'a time before 1970': [good.replace('1700000001.0000000010', '-1.0000000010'), 1],
      'a size too long to be exact': [good.replace(' 10 ', ' 12345678901234567 '), 1],
      'an empty name': [good.replace(' a.yaml', ' '), 1],
      'a line cut short': [good.slice(0, -10), 1],
      'a depth past 1': [good.replace('1 f', '2 f'), 1],
    } as const;
    for (const [what, [text, count]] of Object.entries(broken)) assert.equal(parseFolderLook(Buffer.from(text), count), undefined, what);
  });

  it('gives lookAtRecordFiles the look it would take itself, and remembers its stamp by the output', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES, { files: ODD_FILES });
    const own = await ownLook(root);
    assert.deepEqual(await earlyLook(root), own);
    // Only the early look writes the memo: the stamp, by a digest of the folders and what find printed.
    const memo = JSON.parse(readFileSync(memoPath(root), 'utf8')) as { format: string; output: string; stamp: string };
    const output = execFileSync(REAL_FIND, [...dirsOf(root), '-maxdepth', '1', '-printf', FIND_FORMAT], { env: { ...process.env, LC_ALL: 'C' } });
    const digest = createHash('sha256').update(`lore-look/1\0${RECORD_EXTENSIONS.join('\0')}\n${dirsOf(root).join('\0')}\n`).update(output).digest('hex');
    assert.deepEqual(memo, { format: 'lore-look/1', output: digest, stamp: (own as { stamp: string }).stamp });
  });

  it('takes the stamp from the memo while find prints the same, and reads the output again when it does not', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES);
    const own = (await ownLook(root)) as { stamp: string };
    await earlyLook(root);
    const memo = JSON.parse(readFileSync(memoPath(root), 'utf8')) as { stamp: string };
    writeFileSync(memoPath(root), JSON.stringify({ ...memo, stamp: 'remembered' }));
    // The same files: the memo's stamp, and the listing and numbers read from the output when asked for.
    assert.deepEqual(await earlyLook(root), { ...(own as object), stamp: 'remembered' });
    // A file's change time moves: find prints other bytes, and the look is read afresh.
    const file = join(root, '.knowledge/knowledge/recommendations/rec-retry.yaml');
    const before = lstatSync(file);
    writeFileSync(file, readFileSync(file));
    utimesSync(file, before.atime, before.mtime);
    const changed = (await ownLook(root)) as { stamp: string };
    assert.notEqual(changed.stamp, own.stamp);
    assert.deepEqual(await earlyLook(root), changed);
    // Moved elsewhere, the store's folders print the same bytes, but they stand for other paths.
    await earlyLook(root);
    const moved = join(tempDir(t), 'moved');
    renameSync(root, moved);
    const there = (await ownLook(moved)) as { stamp: string };
    assert.notEqual(there.stamp, changed.stamp);
    assert.deepEqual(await earlyLook(moved), there);
  });

  it('is left untaken where find fails, prints nothing lore reads, or is not GNU find: the caller looks itself', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES);
    const own = await ownLook(root);
    const finds = {
      'a find that fails': 'exit 1',
      'a find without -printf (BusyBox, BSD)': 'echo "find: unrecognized: -printf" >&2; exit 1',
      'a find whose lines end in newlines': `"${REAL_FIND}" "$@" | tr '\\0' '\\n'`,
      'a find whose times stop at microseconds': `"${REAL_FIND}" "$@" | LC_ALL=C sed 's/\\.\\([0-9]\\{6\\}\\)[0-9]*/.\\1/g'`,
    };
    for (const [what, script] of Object.entries(finds)) {
      rmSync(join(root, '.knowledge/.cache'), { recursive: true, force: true });
      assert.deepEqual(await withPath(findOnPath(t, script), () => earlyLook(root)), own, what);
      assert.equal(existsSync(memoPath(root)), false, what);
    }
    await withPath('/nonexistent', async () => assert.deepEqual(await earlyLook(root), own));
    // A find that cannot even be spawned (spawn throws ELOOP for a loop of links): nothing started.
    const loop = tempDir(t, 'lore-loop-');
    symlinkSync('find', join(loop, 'find'));
    await withPath(`${loop}:${process.env.PATH}`, async () => assert.deepEqual(await earlyLook(root), own));
  });

  it('looks at the folders there are (a new store has no learnings/), and stands for no look where a folder is a symlink', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES);
    rmSync(join(root, '.knowledge/knowledge/learnings'), { recursive: true, force: true });
    const own = await ownLook(root);
    assert.deepEqual(await earlyLook(root), own);
    assert.equal(existsSync(memoPath(root)), true, 'find looked at the two folders there are');
    // The folder made afterwards: find's output is the same, but the folders it looked at are not.
    mkdirSync(join(root, '.knowledge/knowledge/learnings'));
    writeFileSync(join(root, '.knowledge/knowledge/learnings/learn-new.yaml'), 'x: 1\n');
    const grown = await ownLook(root);
    assert.deepEqual(await earlyLook(root), grown);
    rmSync(join(root, '.knowledge/knowledge/learnings'), { recursive: true, force: true });
    const elsewhere = tempDir(t);
    symlinkSync(elsewhere, join(root, '.knowledge/knowledge/learnings'));
    forgetCheckedDirs(); // this process found the folder real before: a new process would look again
    assert.equal(await ownLook(root), undefined);
    assert.equal(await earlyLook(root), undefined);
  });

  it('is started by the CLI for query, check-plan and prompt agent when no daemon is named, and never otherwise', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES);
    const log = join(tempDir(t), 'find.log');
    const PATH = findOnPath(t, `printf '%s\\n' "$*" >> "${log}"; exec "${REAL_FIND}" "$@"`);
    const calls = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
    const plan = JSON.stringify({ task: { description: 'upload retries' }, plan: { approach: 'keep secrets in env', fileChanges: [{ path: 'config/.env' }] } });
    const run = async (args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<[number, string, number]> => {
      rmSync(log, { force: true });
      const result = await lore(args, { cwd: options.cwd ?? root, env: testEnv({ PATH, ...options.env }), input: plan });
      return [result.code, settled(result.stdout), calls().length];
    };
    const without = async (args: string[]): Promise<[number, string]> => {
      const result = await lore(args, { cwd: root, env: testEnv({ PATH: findOnPath(t, 'exit 1') }), input: plan });
      return [result.code, settled(result.stdout)];
    };
    const dirs = dirsOf(root).join(' ');
    rmSync(memoPath(root), { force: true });
    // find writes to an unlinked file in a folder of TMPDIR, which goes at once.
    const tmp = tempDir(t);
    const query = await run(['query', 'retry the uploads', '--json'], { env: { TMPDIR: tmp } });
    assert.equal(query[2], 1);
    // The command took find's look (its memo is written only then): bin/lore.js started it through
    // its own copy of early-look.ts, and the bundled CLI (dist/cli.cjs) has another.
    assert.ok(existsSync(memoPath(root)));
    assert.deepEqual(readdirSync(tmp), []);
    assert.equal(calls()[0], `${dirs} -maxdepth 1 -printf ${FIND_FORMAT}`);
    // What each command prints is what it prints when it looks itself.
    assert.deepEqual(query.slice(0, 2), await without(['query', 'retry the uploads', '--json']));
    const check = await run(['check-plan', '--json']);
    assert.deepEqual(check, [...(await without(['check-plan', '--json'])), 1]);
    assert.equal(check[0], 1); // the plan touches a critical prohibition's files
    const prompt = await run(['prompt', 'agent']);
    assert.deepEqual(prompt, [...(await without(['prompt', 'agent'])), 1]);
    // The store named by --store, from elsewhere.
    const away = tempDir(t);
    assert.equal((await run(['query', 'uploads', '--store', root], { cwd: away }))[2], 1);
    assert.equal((await run(['query', 'uploads', `--store=${root}${sep}.knowledge`], { cwd: away }))[2], 1);
    // A find that cannot start does not stop the command.
    const loop = tempDir(t, 'lore-loop-');
    symlinkSync('find', join(loop, 'find'));
    const looped = await lore(['query', 'retry the uploads', '--json'], { cwd: root, env: testEnv({ PATH: `${loop}:${process.env.PATH}` }) });
    assert.deepEqual([looped.code, settled(looped.stdout)], query.slice(0, 2));
    // Not for other commands, not for help, and not where daemon.json names a daemon that would answer.
    assert.equal((await run(['list']))[2], 0);
    assert.equal((await run(['query', '--help']))[2], 0);
    mkdirSync(join(root, '.knowledge/.cache'), { recursive: true });
    writeFileSync(join(root, '.knowledge/.cache/daemon.json'), '{}');
    assert.equal((await run(['query', 'uploads']))[2], 0);
    assert.equal((await run(['query', 'uploads'], { env: { LORE_NO_DAEMON: '1' } }))[2], 1);
  });
});

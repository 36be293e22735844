// How bin/lore.js runs the CLI (src/cli/load.ts): dist/cli.cjs with V8's code cache in dist/cli.code,
// written by the first run and taken by the next; a damaged or foreign cache written again; the
// modules instead when the bundle is missing or one of them changed since it was made, and always
// for the hook.
// Each test runs a copy of the package, whose dist/ it may change.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { crc32Of } from '../src/fs/checksum.js';
import { copyPackage, type CliResult } from './helpers/cli.js';
import { entry, knowledgeStore } from './helpers/knowledge.js';
import { testEnv } from './helpers/temp.js';

const ENTRIES = [
  entry({ id: 'pro-no-env', title: 'Never commit env files', description: 'Secrets stay out of git.', keywords: ['secrets'], priority: 'critical', globs: ['**/.env'] }),
  entry({ id: 'rec-retry', title: 'Retry flaky uploads', description: 'Uploads retry with backoff.', keywords: ['upload'] }),
  // A title whose width takes the width library, which the CLI imports when it needs it.
  entry({ id: 'rec-wide', title: 'Name files in 日本語 with care', description: 'Wide characters take two columns.', keywords: ['names'] }),
];

/** Runs the copy's bin/lore.js. */
function run(pkg: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [join(pkg, 'bin/lore.js'), ...args], { cwd, env: { ...testEnv(), ...env }, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number') return reject(error);
      resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr });
    });
  });
}

const hex = (value: number): string => value.toString(16).padStart(8, '0');

/**
 * The first line a code cache for `pkg`'s bundle must have, for its body `bytes`: this node, the
 * bundle's path and bytes, the modules' stats as the loader saw them (a checksum: the test of a
 * changed module shows what it does), the body's checksum.
 */
function assertHeader(pkg: string, header: string, bytes: Buffer): void {
  const bundle = join(pkg, 'dist/cli.cjs');
  const source = readFileSync(bundle);
  const node = `${process.version}/${process.arch}/${process.platform}`;
  assert.equal(header.replace(/\/[0-9a-f]{8} /, '/STATS '), `${node}/${hex(crc32Of(Buffer.from(bundle)))}/${source.length}/${hex(crc32Of(source))}/STATS ${hex(crc32Of(bytes))}`);
}

/** The cache file's first line and body. */
function cacheParts(pkg: string): { header: string; body: Buffer; ino: number } {
  const file = join(pkg, 'dist/cli.code');
  const bytes = readFileSync(file);
  const end = bytes.indexOf(0x0a);
  return { header: bytes.toString('latin1', 0, end), body: bytes.subarray(end + 1), ino: statSync(file).ino };
}

/**
 * Puts a bundle of the test's own making in `pkg`'s dist/, recorded as the build records one, to
 * see which one runs: it prints "the bundle: <args>". Returns its bytes.
 */
function fakeBundle(pkg: string): Buffer {
  const fake = Buffer.from([
    'exports.main = async (argv) => { process.stdout.write(`the bundle: ${argv.join(" ")}\\n`); };',
    'exports.keepEngineCode = () => undefined;',
    'exports.saveEngineCode = async () => undefined;',
  ].join('\n'));
  writeFileSync(join(pkg, 'dist/cli.cjs'), fake);
  const made = join(pkg, 'dist/cli.inputs.json');
  const record = JSON.parse(readFileSync(made, 'utf8')) as Record<string, { length: number }>;
  record['cli.cjs']!.length = fake.length;
  writeFileSync(made, JSON.stringify(record));
  return fake;
}

const TASK_AND_PLAN = { task: { description: 'retry the uploads' }, plan: { approach: 'keep the secrets in a .env file', fileChanges: [{ path: 'deploy/.env' }, { path: 'src/upload.ts' }] } };

async function setUp(t: TestContext): Promise<{ pkg: string; root: string; answer: (args: string[], env?: NodeJS.ProcessEnv) => Promise<CliResult> }> {
  const pkg = copyPackage(t);
  rmSync(join(pkg, 'dist/cli.code'), { force: true });
  const { root } = await knowledgeStore(t, ENTRIES, { files: { 'task.json': JSON.stringify(TASK_AND_PLAN.task), 'plan.json': JSON.stringify(TASK_AND_PLAN.plan) } });
  return { pkg, root, answer: (args, env) => run(pkg, args, root, env) };
}

describe('the bundled CLI', () => {
  it('writes its code cache on the first run, takes it on the next, and answers as the modules do', async (t) => {
    const { pkg, answer } = await setUp(t);
    const first = await answer(['list', '--json']);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout).map((e: { id: string }) => e.id), ['rec-retry', 'rec-wide', 'pro-no-env']);
    const written = cacheParts(pkg);
    assertHeader(pkg, written.header, written.body);
    assert.ok(written.body.length > 10_000, `a cache of ${written.body.length} bytes`);

    // A run that took the cache leaves it as it was (a rewrite is a new file).
    assert.deepEqual(await answer(['list', '--json']), first);
    assert.equal(cacheParts(pkg).ino, written.ino);
    assert.deepEqual(cacheParts(pkg).body, written.body);

    // A table from the cache: its wide title takes an import() of the width library.
    const table = await answer(['list']);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /rec-wide +\[medium\] Name files in 日本語 with care\n/);

    // The modules, with the bundle gone, answer the same.
    rmSync(join(pkg, 'dist/cli.cjs'));
    assert.deepEqual(await answer(['list', '--json']), first);
    assert.deepEqual(await answer(['list']), table);
  });

  it('answers as the modules do (LORE_NO_BUNDLE=1): every output and exit code the same', async (t) => {
    const { pkg, answer } = await setUp(t);
    const commands = [
      ['list', '--json'], ['list'], ['show', 'rec-wide'], ['validate'], ['status', '--json'],
      ['query', 'retry the uploads', '--json'], ['query', 'retry the uploads'],
      ['check-plan', '--task', 'task.json', '--plan', 'plan.json', '--json'], ['check-plan', '--task', 'task.json', '--plan', 'plan.json'],
      ['prompt', 'agent', '--task', 'task.json', '--plan', 'plan.json'],
      ['show', 'rec-missing'], ['query'],
    ];
    // The first query computes the entries' vectors (its answer says so); the answers compared read them.
    await answer(['query', 'retry the uploads', '--json']);
    const bundled = [];
    for (const args of commands) bundled.push(await answer(args));
    // The modules answer, not a bundle: one that would print something else is in place.
    fakeBundle(pkg);
    assert.equal((await answer(['list'])).stdout, 'the bundle: list\n');
    for (const [i, args] of commands.entries()) assert.deepEqual(await answer(args, { LORE_NO_BUNDLE: '1' }), bundled[i], args.join(' '));
    // What the plan check found, so that the comparison above compared a blocked plan.
    const blocked = await answer(['check-plan', '--task', 'task.json', '--plan', 'plan.json', '--json'], { LORE_NO_BUNDLE: '1' });
    assert.equal(blocked.code, 1);
    assert.deepEqual(JSON.parse(blocked.stdout).blockers.map((b: { knowledge: { id: string } }) => b.knowledge.id), ['pro-no-env']);
  });

  it('writes again a cache that is damaged, cut short or made for other code, and answers all the same', async (t) => {
    const { pkg, answer } = await setUp(t);
    // The first query computes the entries' vectors (its answer says so); the next ones read them.
    await answer(['query', 'retry the uploads', '--json']);
    const file = join(pkg, 'dist/cli.code');
    rmSync(file);
    const expected = await answer(['query', 'retry the uploads', '--json']);
    assert.equal(expected.code, 0, expected.stderr);
    const good = readFileSync(file);
    const { header, body } = cacheParts(pkg);
    const flipped = Buffer.from(body);
    const middle = flipped.length >> 1;
    flipped[middle] = flipped[middle]! ^ 0xff;
    const cases: Array<[string, Buffer]> = [
      ['a byte changed', Buffer.concat([Buffer.from(`${header}\n`, 'latin1'), flipped])],
      ['cut short', good.subarray(0, good.length - 100)],
      ['made for other code', Buffer.concat([Buffer.from(`${header.replace(/\/(\d+)\//, (_, length: string) => `/${Number(length) + 1}/`)}\n`, 'latin1'), body])],
      ['made for the modules as they were', Buffer.concat([Buffer.from(`${header.replace(/\/[0-9a-f]{8} /, '/00000000 ')}\n`, 'latin1'), body])],
      ['no first line', body],
      ['empty', Buffer.alloc(0)],
    ];
    for (const [name, bytes] of cases) {
      writeFileSync(file, bytes);
      const before = statSync(file).ino;
      assert.deepEqual(await answer(['query', 'retry the uploads', '--json']), expected, name);
      const rewritten = cacheParts(pkg);
      assert.notEqual(rewritten.ino, before, `${name}: written again`);
      assertHeader(pkg, rewritten.header, rewritten.body);
    }
  });

  it('is run only while it is whole and the modules it was made from hold the same bytes, and never for the commit hook', async (t) => {
    const { pkg, root, answer } = await setUp(t);
    const version = await answer(['--version']);
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
    // A bundle of the copy's own making, to see which one runs.
    const bundle = join(pkg, 'dist/cli.cjs');
    const made = join(pkg, 'dist/cli.inputs.json');
    const fake = fakeBundle(pkg);
    const fromBundle = 'the bundle: --version\n';
    assert.equal((await answer(['--version'])).stdout, fromBundle);
    assert.equal((await answer(['list'])).stdout, 'the bundle: list\n');
    // Unless the modules are asked for.
    assert.deepEqual(await answer(['--version'], { LORE_NO_BUNDLE: '1' }), version);

    // The hook keeps the modules: its prestarted reads of git live in them.
    execFileSync('git', ['init', '-q'], { cwd: root });
    const hook = await answer(['hook', 'pre-commit']);
    assert.equal(hook.code, 0, hook.stderr);
    assert.doesNotMatch(hook.stdout + hook.stderr, /the bundle/);

    // A module changed since the bundle was made (a build by tsc alone, a patch): the modules run,
    // for a longer file and for one of the same size.
    const patch = (file: string, bytes: (text: Buffer) => Buffer): (() => void) => {
      const path = join(pkg, 'dist', file);
      const text = readFileSync(path);
      writeFileSync(path, bytes(text));
      return () => writeFileSync(path, text);
    };
    let undo = patch('store/layout.js', (text) => Buffer.concat([text, Buffer.from('// patched\n')]));
    assert.deepEqual(await answer(['--version']), version);
    assert.deepEqual(await answer(['--version']), version);
    // The same bytes again, in a file with other times: the bundle, once the modules are read whole.
    undo();
    assert.equal((await answer(['--version'])).stdout, fromBundle);
    // One letter of its first comment in the other case.
    undo = patch('store/layout.js', (text) => {
      const changed = Buffer.from(text);
      const at = changed.indexOf('// ') + 3;
      assert.match(String.fromCharCode(changed[at]!), /[a-z]/i);
      changed[at] = changed[at]! ^ 0x20;
      return changed;
    });
    assert.deepEqual(await answer(['--version']), version);
    undo();
    assert.equal((await answer(['--version'])).stdout, fromBundle);
    // A module of the loader's own (src/cli/load.ts bundled as dist/cli-load.cjs): the modules run.
    undo = patch('cli/load.js', (text) => Buffer.concat([text, Buffer.from('// patched\n')]));
    assert.deepEqual(await answer(['--version']), version);
    undo();
    assert.equal((await answer(['--version'])).stdout, fromBundle);

    // A bundle cut short (a build that died): the modules.
    writeFileSync(bundle, fake.subarray(0, fake.length - 1));
    assert.deepEqual(await answer(['--version']), version);
    writeFileSync(bundle, fake);
    // No record of what it was made from, or no loader at all: the modules.
    const list = readFileSync(made);
    rmSync(made);
    assert.deepEqual(await answer(['--version']), version);
    writeFileSync(made, list);
    assert.equal((await answer(['--version'])).stdout, fromBundle);
    rmSync(join(pkg, 'dist/cli-load.cjs'));
    assert.deepEqual(await answer(['--version']), version);
  });
});

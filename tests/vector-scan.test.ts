// The vector scan (src/knowledge/vector-scan.ts): the WebAssembly kernel is what its source says,
// runs here, and gives exactly the numbers of the JavaScript loop; without WebAssembly
// (node --jitless) lore ranks and finds duplicates exactly as with it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dot, dotAt, VectorRows } from '../src/knowledge/vector-scan.js';
import { copyPackage, lore } from './helpers/cli.js';
import { prng } from './helpers/glob-fuzz.js';
import { entry, knowledgeStore } from './helpers/knowledge.js';
import { tempDir, testEnv } from './helpers/temp.js';

const WAT = fileURLToPath(new URL('../data/vector-scan.wat', import.meta.url));
const WASM = new URL('../data/vector-scan.wasm', import.meta.url);
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));

const ENTRIES = [
  entry({ id: 'rec-retry', title: 'Retry flaky uploads with backoff', description: 'Uploads to the object store fail now and then; retry them.' }),
  entry({ id: 'rec-resend', title: 'Resend failed uploads after a pause', description: 'Transfers to storage sometimes fail; send them again later.' }),
  entry({ id: 'learn-rotate', title: 'Rotate the database password', description: 'The credentials of the database expire every quarter.' }),
  entry({ id: 'learn-secret', title: 'Change the stored login credentials', description: 'Passwords of the database are rotated by hand.' }),
  entry({ id: 'pro-park', title: 'Never park in the loading bay', description: 'The car park closes at night.', priority: 'high' }),
];

/** rows × dims numbers in [-1, 1) from a seed, with some exact zeros and some tiny values. */
function filled(matrix: VectorRows, seed: number): void {
  const random = prng(seed);
  for (let i = 0; i < matrix.data.length; i++) {
    const r = random();
    matrix.data[i] = r < 0.05 ? 0 : r < 0.1 ? (random() - 0.5) * 1e-30 : random() * 2 - 1;
  }
}

describe('the vector scan', () => {
  it('runs the kernel data/vector-scan.wasm, which is exactly what scripts/build-wasm.mjs makes of data/vector-scan.wat', async () => {
    const { assemble } = await import('../scripts/build-wasm.mjs');
    assert.ok((await assemble(WAT)).equals(readFileSync(WASM)), 'data/vector-scan.wasm is stale: run node scripts/build-wasm.mjs');
    const sha256 = createHash('sha256').update(readFileSync(WASM)).digest('hex');
    assert.match(readFileSync(new URL('../src/knowledge/vector-scan.ts', import.meta.url), 'utf8'), new RegExp(`^const KERNEL_SHA256 = '${sha256}';$`, 'm'), `KERNEL_SHA256 in src/knowledge/vector-scan.ts must be the kernel's: '${sha256}'`);
    assert.deepEqual([new VectorRows(3, 100).kernel, new VectorRows(3, 100, { kernel: false }).kernel, new VectorRows(3, 6).kernel], [true, false, false]);
  });

  it('is built by scripts/build-wasm.mjs in a checkout under a folder with a space and a non-ASCII letter', async (t) => {
    const checkout = join(tempDir(t), 'my lore ü');
    for (const part of ['scripts/build-wasm.mjs', 'data/vector-scan.wat']) cpSync(join(PACKAGE, part), join(checkout, part));
    symlinkSync(join(PACKAGE, 'node_modules'), join(checkout, 'node_modules'));
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['scripts/build-wasm.mjs'], { cwd: checkout, env: testEnv() }, (error, out, stderr) => (error === null ? resolve(out) : reject(new Error(stderr))));
    });
    const bytes = readFileSync(WASM);
    assert.equal(stdout, `data/vector-scan.wasm: 286 bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}\n`);
    assert.deepEqual(readFileSync(join(checkout, 'data/vector-scan.wasm')), bytes);
  });

  it('gives the same numbers as the JavaScript loop to the last bit, for every row and every range', () => {
    for (const [rows, dims, seed] of [[1, 4, 1], [37, 100, 2], [1000, 100, 3], [64, 8, 4], [5, 1536, 5]] as const) {
      const kernel = new VectorRows(rows, dims);
      const loop = new VectorRows(rows, dims, { kernel: false });
      filled(kernel, seed);
      loop.data.set(kernel.data);
      const random = prng(seed + 100);
      for (let q = 0; q < 5; q++) {
        const query = Float32Array.from({ length: dims }, () => random() * 2 - 1);
        const from = q === 0 ? 0 : Math.floor(random() * rows);
        const to = q === 0 ? rows : from + Math.floor(random() * (rows - from + 1));
        const expected = Array.from({ length: to - from }, (_, k) => dotAt(query, loop.data, (from + k) * dims, dims));
        assert.deepEqual([...kernel.scan(query, from, to)], expected, `${rows}×${dims}, rows ${from} to ${to}`);
        assert.deepEqual([...loop.scan(query, from, to)], expected, `${rows}×${dims}, rows ${from} to ${to}, the loop`);
      }
    }
  });

  it('gives the same numbers for NaN, infinities, -0, float32 denormals and overflow, and when its memory ends at the last row', () => {
    const special = [NaN, Infinity, -Infinity, -0, 0, 1e-45, -1.4e-40, 3.4e38, -3.4e38, 1, -1];
    const kinds = new Set<string>();
    // 1365 rows of 8: 8 × 8 + 8 × 1365 + 4 × 1365 × 8 bytes, exactly one page: the last row ends the memory.
    for (const [rows, dims, seed] of [[40, 4, 6], [12, 4096, 7], [1365, 8, 8]] as const) {
      const kernel = new VectorRows(rows, dims);
      const loop = new VectorRows(rows, dims, { kernel: false });
      const random = prng(seed);
      const value = (): number => (random() < 0.1 ? special[Math.floor(random() * special.length)]! : (random() - 0.5) * 10 ** Math.floor(random() * 60 - 30));
      for (let i = 0; i < kernel.data.length; i++) kernel.data[i] = value();
      loop.data.set(kernel.data);
      // A query of float64 numbers, some past the float32 range (1e300 × 3.4e38 is Infinity in both).
      for (const query of [Float32Array.from({ length: dims }, value), Array.from({ length: dims }, () => value() * (random() < 0.2 ? 1e300 : 1))]) {
        const expected = [...loop.scan(query)];
        assert.deepEqual([...kernel.scan(query)], expected, `${rows}×${dims}`);
        for (const x of expected) kinds.add(Number.isNaN(x) ? 'NaN' : Number.isFinite(x) ? 'finite' : 'infinite');
      }
    }
    assert.deepEqual([...kinds].sort(), ['NaN', 'finite', 'infinite'], 'the inputs reach every kind of result');
  });

  it('adds each product in float64, so its dot product is the exact sum where that sum is exact', () => {
    const matrix = new VectorRows(2, 4);
    matrix.data.set([0.5, 0.25, -2, 8, 1, 1, 1, 1]);
    assert.deepEqual([...matrix.scan([2, 4, 0.5, 0.125])], [2, 6.625]);
    assert.equal(dot(Float32Array.of(1, 2, 3, 4, 5), Float32Array.of(5, 4, 3, 2, 1)), 35);
    // A width that is not a multiple of 4 runs the loop, and a query of another width is refused.
    const odd = new VectorRows(1, 5);
    odd.data.set([1, 2, 3, 4, 5]);
    assert.deepEqual([...odd.scan([5, 4, 3, 2, 1])], [35]);
    assert.throws(() => odd.scan([1, 2, 3]), { message: 'a query of 3 dimensions against rows of 5' });
  });

  it('leaves query and duplicates exactly as they are when Node has no WebAssembly (--jitless)', async (t) => {
    const { root } = await knowledgeStore(t, ENTRIES);
    const run = async (args: string[], jitless: boolean): Promise<string> => {
      const result = await lore([...args, '--json'], { cwd: root, env: testEnv(jitless ? { NODE_OPTIONS: '--jitless' } : {}) });
      assert.equal(result.code, 0, result.stderr);
      return result.stdout;
    };
    // The runs below compare the loop with the kernel only while --jitless leaves Node without the kernel.
    const probe = `const { VectorRows } = await import(${JSON.stringify(pathToFileURL(join(PACKAGE, 'dist/knowledge/vector-scan.js')).href)}); process.stdout.write(String(new VectorRows(2, 4).kernel));`;
    const kernelWhenJitless = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--jitless', '--input-type=module', '-e', probe], { env: testEnv() }, (error, stdout, stderr) => (error === null ? resolve(stdout) : reject(new Error(stderr))));
    });
    assert.equal(kernelWhenJitless, 'false');
    await run(['query', 'warm up'], false); // writes the entry-vector snapshot both runs below read
    for (const args of [['query', 'send the storage transfers again'], ['duplicates', '--threshold', '0.5']]) {
      const withKernel = await run(args, false);
      assert.match(withKernel, /"(semantic similarity|similarity)/, `${args[0]} compares meanings`);
      assert.equal(await run(args, true), withKernel, args[0]);
    }
  });

  it('refuses a range outside its rows, so the kernel never writes past its results into them', () => {
    for (const kernel of [true, false]) {
      const matrix = new VectorRows(4, 4, { kernel });
      matrix.data.set([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4]);
      const query = [1, 1, 1, 1];
      for (const [from, to] of [[2, 7], [-1, 2], [1.5, 3], [0, NaN], [5, 5]]) {
        assert.throws(() => matrix.scan(query, from, to), { name: 'RangeError', message: `rows ${from} to ${to} of a matrix of 4 rows` }, `kernel ${kernel}: ${from} to ${to}`);
      }
      assert.deepEqual([...matrix.data], [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4], `kernel ${kernel}: the rows are as they were`);
      // An empty range, anywhere from 0 to the end, and one ending before it starts, is nothing.
      assert.deepEqual([[...matrix.scan(query, 4, 4)], [...matrix.scan(query, 0, 0)], [...matrix.scan(query, 3, 1)], [...matrix.scan(query, 2)]], [[], [], [], [12, 16]]);
    }
    assert.throws(() => new VectorRows(-1, 4), { name: 'RangeError', message: 'a matrix of -1 rows of 4 dimensions' });
    assert.throws(() => new VectorRows(2, 0.5), { name: 'RangeError', message: 'a matrix of 2 rows of 0.5 dimensions' });
  });

  it('runs the JavaScript loop when data/vector-scan.wasm is missing or damaged, and lore answers the same', async (t) => {
    // A copy of the package whose kernel file is then damaged.
    const pkg = copyPackage(t);
    const kernelFile = join(pkg, 'data/vector-scan.wasm');
    const bytes = readFileSync(kernelFile);
    // A valid module that subtracts where the kernel adds (f64x2.add is 0xfd 0xf0 0x01, f64x2.sub 0xfd 0xf1 0x01).
    const subtracting = Buffer.from(bytes);
    subtracting[subtracting.indexOf(Buffer.from([0xfd, 0xf0, 0x01])) + 1] = 0xf1;
    assert.ok((globalThis as unknown as { WebAssembly: { validate(b: Uint8Array): boolean } }).WebAssembly.validate(subtracting));
    const { root } = await knowledgeStore(t, ENTRIES);
    const run = (bin: string, args: string[]): Promise<string> => new Promise((resolve, reject) => {
      execFile(process.execPath, [bin, ...args, '--json'], { cwd: root, env: testEnv() }, (error, stdout, stderr) => (error === null ? resolve(stdout) : reject(new Error(`${args.join(' ')}: ${stderr}`))));
    });
    await run(join(PACKAGE, 'bin/lore.js'), ['query', 'warm up']); // writes the entry-vector snapshot every run below reads
    const commands = [['query', 'send the storage transfers again'], ['duplicates', '--threshold', '0.5']];
    const expected = await Promise.all(commands.map((args) => run(join(PACKAGE, 'bin/lore.js'), args)));
    const cases: Array<[string, () => void]> = [
      ['a subtraction for an addition', () => writeFileSync(kernelFile, subtracting)],
      ['cut short', () => writeFileSync(kernelFile, bytes.subarray(0, 100))],
      ['missing', () => rmSync(kernelFile)],
    ];
    for (const [name, damage] of cases) {
      damage();
      // The copy's module, loaded afresh for each case (the query part makes it another module).
      const copy = (await import(`${pathToFileURL(join(pkg, 'dist/knowledge/vector-scan.js')).href}?${encodeURIComponent(name)}`)) as typeof import('../src/knowledge/vector-scan.js');
      const matrix = new copy.VectorRows(2, 4);
      matrix.data.set([1, 2, 3, 4, 5, 6, 7, 8]);
      assert.deepEqual([matrix.kernel, [...matrix.scan([1, 1, 1, 1])]], [false, [10, 26]], name);
      for (const [k, args] of commands.entries()) assert.equal(await run(join(pkg, 'bin/lore.js'), args), expected[k], `${name}: ${args[0]}`);
    }
  });
});

// One query against every row of a matrix of float32 vectors: the entry vectors of a knowledge
// index (semantic ranking), the meanings of entries (lore duplicates). The rows live in the memory
// of a small WebAssembly SIMD kernel (data/vector-scan.wat) that takes 0.2 ms over 10,000 rows of
// 100 dimensions where the JavaScript loop takes 1 ms. Where WebAssembly or its SIMD is missing
// (node --jitless, an old CPU), or the width is not a multiple of 4, the loop below does the same
// work: the same float64 products added in the same order, so both give the same numbers to the
// last bit (tests/vector-scan.test.ts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const KERNEL = new URL('../../data/vector-scan.wasm', import.meta.url);
/**
 * The sha256 of the kernel lore was tested with (tests/vector-scan.test.ts fails when it is not the
 * file's). A damaged file can still be a valid module that adds wrong, traps or never returns.
 */
const KERNEL_SHA256 = 'f3db1767ea2559116d75a6e62d84ca103bb2fa27c8015cce16efd9f43d3355d1';

type Scan = (query: number, matrix: number, rows: number, dims: number, out: number) => void;

/** What this module uses of WebAssembly (absent under node --jitless); lore's TypeScript libraries do not declare it. */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;

let kernel: object | null | undefined;

/** The compiled kernel, or null where this Node cannot run it (read and compiled once, ~0.1 ms). */
function compiledKernel(): object | null {
  if (kernel === undefined) {
    try {
      const bytes = readFileSync(KERNEL);
      kernel = createHash('sha256').update(bytes).digest('hex') === KERNEL_SHA256 ? new wasm!.Module(bytes) : null;
    } catch {
      kernel = null; // no WebAssembly, no SIMD, or no kernel file: the loop below
    }
  }
  return kernel;
}

/** Whether `n` can count rows or dimensions: a whole number from 0 on. */
function isCount(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

/** The dot product of `query` with the row of `matrix` at `offset`, added as the kernel adds it. */
export function dotAt(query: ArrayLike<number>, matrix: Float32Array, offset: number, dims: number): number {
  // Four sums, one per dimension modulo 4, as the kernel's lanes hold them; the rest of a width
  // that is not a multiple of 4 goes to the first.
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 4 <= dims; d += 4) {
    s0 += query[d]! * matrix[offset + d]!;
    s1 += query[d + 1]! * matrix[offset + d + 1]!;
    s2 += query[d + 2]! * matrix[offset + d + 2]!;
    s3 += query[d + 3]! * matrix[offset + d + 3]!;
  }
  for (; d < dims; d++) s0 += query[d]! * matrix[offset + d]!;
  return s0 + s2 + (s1 + s3);
}

/** The dot product of two vectors of the same width: the cosine similarity of two unit vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  return dotAt(a, b, 0, a.length);
}

/**
 * `rows` vectors of `dims` float32, row r at r × dims of `data` (the caller fills it), and the dot
 * product of a query with each of them.
 *
 * @example
 * const matrix = new VectorRows(entries.length, 100);
 * matrix.data.set(vectorOfEntry0, 0);
 * matrix.scan(queryVector)[0]; // the query's cosine with entry 0 (unit vectors)
 */
export class VectorRows {
  readonly data: Float32Array;
  /** Whether the WebAssembly kernel runs the scans (false: the JavaScript loop). */
  readonly kernel: boolean;
  private readonly query: Float64Array;
  private readonly out: Float64Array;
  private readonly run: Scan | undefined;

  /** `kernel: false` uses the JavaScript loop even where the kernel runs (tests compare the two). */
  constructor(readonly rows: number, readonly dims: number, options: { kernel?: boolean } = {}) {
    if (!isCount(rows) || !isCount(dims)) throw new RangeError(`a matrix of ${rows} rows of ${dims} dimensions`);
    const module = options.kernel === false || dims % 4 !== 0 ? null : compiledKernel();
    if (module !== null) {
      // The query (float64), the results (float64), then the rows, in one memory of their own.
      const queryBytes = 8 * dims;
      const outBytes = 8 * rows;
      const bytes = queryBytes + outBytes + 4 * rows * dims;
      try {
        const memory = new wasm!.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
        const instance = new wasm!.Instance(module, { lore: { memory } });
        this.query = new Float64Array(memory.buffer, 0, dims);
        this.out = new Float64Array(memory.buffer, queryBytes, rows);
        this.data = new Float32Array(memory.buffer, queryBytes + outBytes, rows * dims);
        this.run = instance.exports.scan as Scan;
        this.kernel = true;
        return;
      } catch {
        // more memory than WebAssembly may have: the loop below
      }
    }
    this.query = new Float64Array(dims);
    this.out = new Float64Array(rows);
    this.data = new Float32Array(rows * dims);
    this.run = undefined;
    this.kernel = false;
  }

  /**
   * The dot products of `query` (`dims` numbers) with rows `from` to `to - 1`, at 0 to
   * `to - from - 1` of the array returned, which the next scan overwrites (nothing when `to` is
   * not past `from`).
   */
  scan(query: ArrayLike<number>, from = 0, to = this.rows): Float64Array {
    if (query.length !== this.dims) throw new RangeError(`a query of ${query.length} dimensions against rows of ${this.dims}`);
    // The kernel writes a result per row of the range, right before the rows: one past the end would overwrite the first.
    if (!isCount(from) || !isCount(to) || from > this.rows || to > this.rows) throw new RangeError(`rows ${from} to ${to} of a matrix of ${this.rows} rows`);
    const count = Math.max(0, to - from);
    if (this.run !== undefined) {
      this.query.set(query);
      this.run(this.query.byteOffset, this.data.byteOffset + 4 * from * this.dims, count, this.dims, this.out.byteOffset);
    } else {
      for (let k = 0; k < count; k++) this.out[k] = dotAt(query, this.data, (from + k) * this.dims, this.dims);
    }
    return this.out.subarray(0, count);
  }
}

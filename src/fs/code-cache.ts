// CommonJS code run with V8's code cache: the bytecode V8 compiled for a file in an earlier run, kept
// in a file of its own, so a short process neither parses the code nor compiles its functions
// again. Two use it: the commit hook for the regex engine (re2js: 25-40 ms without, a few ms with),
// and bin/lore.js for the whole CLI (cli/load.ts). The cache file is "<key> <sum>\n<bytes>": the
// key names node, the platform, the code's path and its exact bytes (length and CRC-32); the sum,
// the CRC-32 of the bytes, refuses a damaged file (V8 checks neither in release builds). Anything
// unusable is compiled as usual and written again. A code cache is code: keep it where only those
// who can change the code it was made from can write (the guard: .git/lore/; the CLI: lore's own
// dist/), never where a clone or an archive could put one.
import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import { checksum } from './checksum.js';
import { readBytesIfExistsSync } from './read-text.js';

/** The longest first line a cache file may have. */
const MAX_HEADER = 512;

export interface CachedModule {
  exports: unknown;
  /** Writes the code cache when this run had no usable one; call once the code has done its work (its compiled functions are saved too). */
  save(): Promise<void>;
}

/**
 * What a code cache is made for: this node on this platform, and the code at `filename` with
 * exactly these bytes; and `also`, what else the caller keys it by.
 */
function keyOf(filename: string, source: Buffer, also: string): string {
  return `${process.version}/${process.arch}/${process.platform}/${checksum(Buffer.from(filename))}/${source.length}/${checksum(source)}${also === '' ? '' : `/${also}`}`;
}

/** The code cache in `file` made for `source` at `filename` (and `also`); undefined when it is missing, unreadable, damaged or made for other code. */
export function savedCode(filename: string, source: Buffer, file: string, also = ''): Buffer | undefined {
  try {
    const saved = readBytesIfExistsSync(file);
    if (saved === undefined) return undefined;
    const end = saved.indexOf(0x0a);
    if (end < 0 || end > MAX_HEADER) return undefined;
    const bytes = saved.subarray(end + 1);
    return saved.toString('latin1', 0, end) === `${keyOf(filename, source, also)} ${checksum(bytes)}` && bytes.length > 0 ? bytes : undefined;
  } catch {
    return undefined; // unreadable: compiled as usual, and written again
  }
}

/**
 * Runs the CommonJS file `filename`, whose bytes are `source`, as require would (it enters
 * require's cache), with `cachedData` (savedCode) when there is one; its `save` writes the cache
 * to `file`, keyed with `also`, when V8 did not take one.
 */
export function runWithCodeCache(filename: string, source: Buffer, cachedData: Buffer | undefined, file: string, also = ''): CachedModule {
  // ASCII (the bundled CLI) becomes a string without decoding UTF-8.
  const text = isAscii(source) ? source.toString('latin1') : source.toString('utf8');
  // No import() here: Node 20 gives code compiled from a cache no way to run one (the bundled CLI
  // imports packages through dist/cli-import.cjs, scripts/bundle-cli.mjs).
  const script = new Script(Module.wrap(text), { filename, ...(cachedData === undefined ? {} : { cachedData }) });
  // A module like any other: in require's cache (a later require gets this one), loaded by the same steps.
  const module = new Module(filename);
  module.filename = filename;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(filename));
  const cache = createRequire(filename).cache;
  cache[filename] = module;
  try {
    (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(filename), module, filename, dirname(filename));
  } catch (error) {
    delete cache[filename];
    throw error;
  }
  module.loaded = true;
  // Written again only when V8 did not take it (none, or made by another V8 or with other flags).
  let saved = cachedData !== undefined && !script.cachedDataRejected;
  return {
    exports: module.exports,
    save: async () => {
      if (saved) return;
      saved = true;
      const bytes = script.createCachedData();
      const header = Buffer.from(`${keyOf(filename, source, also)} ${checksum(bytes)}\n`, 'latin1');
      // Imported only here, once a build or an upgrade: its node:crypto costs 4 ms of every command's start.
      const { writeFileAtomic } = await import('./atomic-write.js');
      await writeFileAtomic(file, Buffer.concat([header, bytes]), { durable: false }).catch(() => undefined);
    },
  };
}

/** Requires `specifier` from `from` as `require` would, with the code cache in `file`. */
export function requireWithCodeCache(specifier: string, from: string | URL, file: string): CachedModule {
  const require = createRequire(from);
  const filename = require.resolve(specifier);
  const loaded = require.cache[filename];
  if (loaded !== undefined) return { exports: loaded.exports, save: async () => undefined };
  const source = readFileSync(filename);
  return runWithCodeCache(filename, source, savedCode(filename, source, file), file);
}

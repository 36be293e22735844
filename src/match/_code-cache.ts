// A CommonJS module loaded with V8's code cache: the bytecode V8 compiled for it in an earlier run,
// kept in a file, so a short process (the commit hook) neither parses it nor compiles its functions
// again (re2js: 25-40 ms without, a few ms with). The file is "<key> <sha1 of the bytes>\n<bytes>":
// the key names node, the platform and the module's exact source, the sha1 refuses a damaged file
// (V8 itself does not check the bytes of a code cache in release builds). Anything unusable is
// compiled as usual and written again. Keep the file where nothing from a clone or an archive can
// put one (.git/): a code cache is code.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { readBytesIfExistsSync } from '../fs/read-text.js';

const sha1 = (data: string | Uint8Array): string => createHash('sha1').update(data).digest('hex');
/** Two sha1s, a space and a newline. */
const HEADER = 82;

export interface CachedModule {
  exports: unknown;
  /** Writes the code cache when this run had no usable one; call once the module has done its work (its compiled functions are saved too). */
  save(): Promise<void>;
}

/** Requires `specifier` from `from` as `require` would, with the code cache in `file`. */
export function requireWithCodeCache(specifier: string, from: string | URL, file: string): CachedModule {
  const require = createRequire(from);
  const filename = require.resolve(specifier);
  const loaded = require.cache[filename];
  if (loaded !== undefined) return { exports: loaded.exports, save: async () => undefined };
  const source = readFileSync(filename, 'utf8');
  const key = sha1(`${process.version}\0${process.arch}\0${process.platform}\0${filename}\0${source}`);
  let cachedData: Buffer | undefined;
  try {
    const saved = readBytesIfExistsSync(file);
    if (saved !== undefined && saved.length > HEADER && saved.toString('latin1', 0, HEADER) === `${key} ${sha1(saved.subarray(HEADER))}\n`) cachedData = saved.subarray(HEADER);
  } catch {
    // unreadable: compiled as usual, and written again
  }
  const script = new Script(Module.wrap(source), { filename, ...(cachedData === undefined ? {} : { cachedData }) });
  // A module like any other: in require's cache (a later require gets this one), loaded by the same steps.
  const module = new Module(filename);
  module.filename = filename;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(filename));
  require.cache[filename] = module;
  try {
    (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(filename), module, filename, dirname(filename));
  } catch (error) {
    delete require.cache[filename];
    throw error;
  }
  module.loaded = true;
  let usable = cachedData !== undefined && !script.cachedDataRejected;
  return {
    exports: module.exports,
    save: async () => {
      if (usable) return;
      usable = true;
      const bytes = script.createCachedData();
      await writeFileAtomic(file, Buffer.concat([Buffer.from(`${key} ${sha1(bytes)}\n`, 'latin1'), bytes]), { durable: false }).catch(() => undefined);
    },
  };
}

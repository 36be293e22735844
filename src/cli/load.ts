// How bin/lore.js loads the CLI for every command but the commit hook (whose prestarted git reads
// live in the modules it imports itself), itself bundled into dist/cli-load.cjs with what it
// imports (a CommonJS file is required in well under a millisecond; these modules imported one by
// one took 10 ms): dist/cli.cjs, the CLI's own modules in one CommonJS file
// that `npm run build` bundles (scripts/bundle-cli.mjs), run with V8's code cache
// (fs/code-cache.ts) in dist/cli.code, which the first run after a build writes (and the regex
// engine with its own, in dist/regex-engine.code, as the commit hook keeps it in .git/lore/). A command then
// neither resolves some ninety modules nor parses and compiles their code again. The modules
// themselves (dist/cli/main.js) are loaded instead when the bundle is missing, or when one of the
// modules it was made from no longer holds what dist/cli.inputs.json says (a build by tsc alone
// after a change, a patched module), or when there is no usable cache and none can be written
// (lore installed where its user cannot write): a bundle compiled on every run is slower than
// the modules.
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { crc32Of } from '../fs/checksum.js';
import { runWithCodeCache, savedCode } from '../fs/code-cache.js';

/**
 * Starts the entry files' look (cli/_early-look.ts) before the CLI loads, for bin/lore.js: imported
 * only then, as child_process and what finds the store are for the commands that look.
 */
export async function prestartEntryLook(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  (await import('./_early-look.js')).prestartEntryLook(args, cwd, env);
}

type Cli = typeof import('./main.js');

const DIST = fileURLToPath(new URL('../', import.meta.url));
const BUNDLE = `${DIST}cli.cjs`;
const INPUTS = `${DIST}cli.inputs.json`;
const CODE = `${DIST}cli.code`;
const ENGINE = `${DIST}regex-engine.code`;
const MODULES = new URL('./main.js', import.meta.url);

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

const hex = (value: number): string => value.toString(16).padStart(8, '0');

type Inputs = Array<[file: string, size: number, crc: number]>;

/** The modules the bundle was made from (dist/cli.inputs.json): each file under dist/, its size and CRC-32. */
function inputsOf(): Inputs {
  const inputs = JSON.parse(readFileSync(INPUTS, 'utf8')) as unknown;
  const valid = Array.isArray(inputs) && inputs.length > 0 && inputs.every((i) => Array.isArray(i) && typeof i[0] === 'string' && typeof i[1] === 'number' && typeof i[2] === 'number');
  if (!valid) throw new Error(`${INPUTS} does not list the bundle's modules`);
  return inputs as Inputs;
}

/**
 * The modules as stat shows them now: the CRC-32 of each one's size, change time and inode (any
 * write changes a file's change time); undefined when one is missing.
 */
function statsOf(inputs: Inputs): string | undefined {
  const numbers = new Float64Array(3 * inputs.length);
  for (let i = 0; i < inputs.length; i++) {
    const stat = statSync(DIST + inputs[i]![0], { throwIfNoEntry: false });
    if (stat === undefined) return undefined;
    numbers.set([stat.size, stat.ctimeMs, stat.ino], 3 * i);
  }
  return hex(crc32Of(new Uint8Array(numbers.buffer)));
}

/** Whether each module holds exactly what the bundle was made from. */
function unchanged(inputs: Inputs): boolean {
  return inputs.every(([file, size, crc]) => {
    const bytes = readFileSync(DIST + file);
    return bytes.length === size && crc32Of(bytes) === crc;
  });
}

/**
 * The bundled CLI, when there is one made from the modules as they are, and it is worth running;
 * and how to keep its code cache. The cache is keyed by the modules' stats too: while they stay,
 * the modules are as they were when a run read them whole and wrote it.
 */
function bundled(): { cli: Cli; save(): Promise<void> } | undefined {
  let source: Buffer;
  let inputs: Inputs;
  let stats: string | undefined;
  try {
    inputs = inputsOf();
    stats = statsOf(inputs);
    if (stats === undefined) return undefined;
    source = readFileSync(BUNDLE);
  } catch {
    return undefined; // no bundle (lore running from src/, or built without one)
  }
  const cachedData = savedCode(BUNDLE, source, CODE, stats);
  if (cachedData === undefined && (!writable(DIST) || !unchanged(inputs))) return undefined;
  const loaded = runWithCodeCache(BUNDLE, source, cachedData, CODE, stats);
  return { cli: loaded.exports as Cli, save: loaded.save };
}

/** Runs the CLI with `argv` (cli/main.ts's main), from the bundle when there is one worth running. */
export async function main(argv: readonly string[]): Promise<void> {
  const bundle = bundled();
  // By URL: bundled into dist/cli-load.cjs, this module is no longer beside main.js.
  if (bundle === undefined) return ((await import(MODULES.href)) as Cli).main(argv);
  bundle.cli.keepEngineCode(ENGINE);
  await bundle.cli.main(argv);
  await Promise.all([bundle.save(), bundle.cli.saveEngineCode()]);
}

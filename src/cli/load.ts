// How bin/lore.js loads the CLI for every command but the commit hook (whose prestarted git reads
// live in the modules it imports itself). This module is bundled into dist/cli-load.cjs with what
// it imports (a CommonJS file is required in well under a millisecond; these modules imported one
// by one took 10 ms). It runs dist/cli.cjs, the CLI's modules in one CommonJS file that `npm run
// build` bundles (scripts/bundle-cli.mjs), with V8's code cache (fs/code-cache.ts) in
// dist/cli.code, which the first run after a build writes (and the regex engine with its own, in
// dist/regex-engine.code, as the commit hook keeps it in .git/lore/): a command then neither
// resolves its modules nor parses and compiles their code again.
//
// The modules themselves (dist/cli/main.js, dist/cli/_early-look.js) run instead when one of the
// modules a bundle was made from no longer holds what dist/cli.inputs.json says (a build by tsc
// alone after a change, a patched module; for this loader too), when a bundle is missing or not
// whole, or when there is no usable cache and none can be written (lore installed where its user
// cannot write): a bundle compiled on every run is slower than the modules.
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checksum, crc32Of } from '../fs/checksum.js';
import { runWithCodeCache, savedCode } from '../fs/code-cache.js';

type Cli = typeof import('./main.js');
type EarlyLook = typeof import('./_early-look.js');

const DIST = fileURLToPath(new URL('../', import.meta.url));
const BUNDLE = `${DIST}cli.cjs`;
const LOADER = `${DIST}cli-load.cjs`;
const MADE = `${DIST}cli.inputs.json`;
const CODE = `${DIST}cli.code`;
const ENGINE = `${DIST}regex-engine.code`;
// By URL: bundled into dist/cli-load.cjs, this module is no longer beside them.
const MODULES = new URL('./main.js', import.meta.url).href;
const EARLY_LOOK = new URL('./_early-look.js', import.meta.url).href;

type Inputs = Array<[file: string, size: number, crc: number]>;

/** What scripts/bundle-cli.mjs recorded of a bundle: its length, and each module it was made from with its size and CRC-32. */
interface Made {
  length: number;
  inputs: Inputs;
}

function isMade(value: unknown): value is Made {
  if (typeof value !== 'object' || value === null) return false;
  const { length, inputs } = value as Partial<Made>;
  return typeof length === 'number' && Array.isArray(inputs) && inputs.length > 0 && inputs.every((i) => Array.isArray(i) && typeof i[0] === 'string' && typeof i[1] === 'number' && typeof i[2] === 'number');
}

let made: Record<string, unknown> | undefined;

/** What dist/cli.inputs.json records of the bundle `name`; undefined when nothing (lore running from src/, or built without bundles). */
function madeOf(name: string): Made | undefined {
  try {
    made ??= JSON.parse(readFileSync(MADE, 'utf8')) as Record<string, unknown>;
  } catch {
    made = {};
  }
  const entry = made[name];
  return isMade(entry) ? entry : undefined;
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
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
  return checksum(new Uint8Array(numbers.buffer));
}

/** Whether each module holds exactly what the bundle was made from. */
function unchanged(inputs: Inputs): boolean {
  return inputs.every(([file, size, crc]) => {
    try {
      const bytes = readFileSync(DIST + file);
      return bytes.length === size && crc32Of(bytes) === crc;
    } catch {
      return false;
    }
  });
}

/** Whether this loader is the one made from the modules as they are (their bytes read each time: there are a dozen and a half, small). */
let loaderCurrent: boolean | undefined;
function currentLoader(): boolean {
  if (loaderCurrent === undefined) {
    const loader = madeOf('cli-load.cjs');
    loaderCurrent = loader !== undefined && statSync(LOADER, { throwIfNoEntry: false })?.size === loader.length && unchanged(loader.inputs);
  }
  return loaderCurrent;
}

/**
 * The bundled CLI, when there is one made from the modules as they are, and it is worth running;
 * and how to keep its code cache. The cache is keyed by the modules' stats too: while they stay,
 * the modules are as they were when a run read them whole and wrote it.
 */
function bundled(): { cli: Cli; save(): Promise<void> } | undefined {
  const bundle = madeOf('cli.cjs');
  if (bundle === undefined || !currentLoader()) return undefined;
  let source: Buffer;
  let stats: string | undefined;
  try {
    stats = statsOf(bundle.inputs);
    source = readFileSync(BUNDLE);
  } catch {
    return undefined;
  }
  if (stats === undefined || source.length !== bundle.length) return undefined;
  const cachedData = savedCode(BUNDLE, source, CODE, stats);
  if (cachedData === undefined && (!writable(DIST) || !unchanged(bundle.inputs))) return undefined;
  const loaded = runWithCodeCache(BUNDLE, source, cachedData, CODE, stats);
  return { cli: loaded.exports as Cli, save: loaded.save };
}

/**
 * Starts the entry files' look (cli/_early-look.ts) before the CLI loads, for bin/lore.js: imported
 * only then, as child_process and what finds the store are for the commands that look; the
 * module's own file when this loader is not current.
 */
export async function prestartEntryLook(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  const early = currentLoader() ? await import('./_early-look.js') : ((await import(EARLY_LOOK)) as EarlyLook);
  early.prestartEntryLook(args, cwd, env);
}

/** Runs the CLI with `argv` (cli/main.ts's main), from the bundle when there is one worth running. */
export async function main(argv: readonly string[]): Promise<void> {
  const bundle = bundled();
  if (bundle === undefined) return ((await import(MODULES)) as Cli).main(argv);
  bundle.cli.keepEngineCode(ENGINE);
  await bundle.cli.main(argv);
  await Promise.all([bundle.save(), bundle.cli.saveEngineCode()]);
}

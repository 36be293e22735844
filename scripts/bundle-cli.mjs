// The step of `npm run build` after tsc and the validators: dist/cli.cjs, the CLI's modules
// (dist/cli/main.js and every module it reaches, statically or by import()) in one CommonJS file,
// which bin/lore.js runs with V8's code cache through dist/cli-load.cjs (src/cli/load.ts and what
// it imports, bundled the same way), each while the modules it was made from hold what
// dist/cli.inputs.json records. Packages stay outside, loaded from node_modules as before.
// Two things a module does differently in one file, made the same:
// - import.meta.url: each module's becomes the URL of its own file under dist/, so the paths it
//   makes from it (package.json, schemas/, data/, the generated validators) do not move. Any other
//   use of import.meta fails the build.
// - import() of a package: code compiled from a code cache cannot run one in Node 20 (the loader
//   behind it is lost), so it goes through dist/cli-import.cjs, a module of its own that can.
import { build } from 'esbuild';
import { crc32Of } from '../dist/fs/checksum.js';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = `${ROOT}dist/`;

/** `import('x')` of a package or a built-in (not of lore's own modules, which are bundled). */
const PACKAGE_IMPORT = /\bimport\((['"])([^'".][^'"]*)\1\)/g;

const inBundle = {
  name: 'lore-modules',
  setup(bundle) {
    bundle.onLoad({ filter: /\.js$/ }, async ({ path }) => {
      const own = relative(DIST, path);
      if (own.startsWith('..')) return undefined;
      const text = await readFile(path, 'utf8');
      const contents = text
        .replaceAll('import.meta.url', `__loreModuleUrl(${JSON.stringify(own.split('\\').join('/'))})`)
        .replace(PACKAGE_IMPORT, (_, quote, specifier) => `__loreImport(${quote}${specifier}${quote})`);
      return { contents, loader: 'js' };
    });
  },
};

const common = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  // Strict first, as the modules are.
  banner: {
    js: [
      '"use strict";',
      'const __loreModuleUrl = (file) => require("node:url").pathToFileURL(require("node:path").join(__dirname, file)).href;',
      'const __loreImport = require("./cli-import.cjs");',
    ].join('\n'),
  },
  plugins: [inBundle],
  logLevel: 'warning',
  logOverride: { 'empty-import-meta': 'error' },
};

/** Writes `bytes` to `path` whole or not at all: a command started meanwhile reads the old file or the new one. */
async function replace(path, bytes) {
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, bytes);
  await rename(temp, path);
}

await replace(`${DIST}cli-import.cjs`, '// import() for the bundled CLI (scripts/bundle-cli.mjs).\nmodule.exports = (specifier) => import(specifier);\n');
// For each bundle, its length and what it was made from, each module's size and CRC-32: the loader
// runs a bundle only while they all hold the same (after a build by tsc alone or a patched module,
// the modules run). Written last, once both bundles are in place.
const made = {};
// The CLI, and the loader bin/lore.js requires to run it (src/cli/load.ts). The CLI cannot import()
// at all (above); the loader imports the modules when it does not run the bundle.
for (const [entry, out, imports] of [['cli/main.js', 'cli.cjs', /\bimport\(/], ['cli/load.js', 'cli-load.cjs', /\bimport\(\s*['"`]/]]) {
  const { metafile, outputFiles } = await build({ ...common, entryPoints: [`${DIST}${entry}`], outfile: `${DIST}${out}`, metafile: true, write: false });
  const text = outputFiles[0].text;
  const left = imports.exec(text);
  if (left !== null) throw new Error(`${out} imports with import() at ${left.index}: ${text.slice(left.index, left.index + 60)}`);
  // esbuild writes strings, regular expressions and names in ASCII (its default charset) but keeps
  // comments as they are: with a sign in a comment made '?', the file is ASCII, which the loader
  // reads as a one-byte string without decoding UTF-8 (3 ms of a command).
  const bytes = Buffer.from(text.replace(/[^\x00-\x7f]/gu, '?'), 'latin1');
  await replace(`${DIST}${out}`, bytes);
  const inputs = await Promise.all(Object.keys(metafile.inputs).map(async (file) => {
    const own = relative(DIST, resolve(ROOT, file));
    if (own.startsWith('..')) throw new Error(`${file} is not under dist/`);
    const module = await readFile(resolve(ROOT, file));
    return [own.split('\\').join('/'), module.length, crc32Of(module)];
  }));
  made[out] = { length: bytes.length, inputs };
}
await replace(`${DIST}cli.inputs.json`, `${JSON.stringify(made)}\n`);

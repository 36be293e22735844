// The step of `npm run build` after tsc and the validators: dist/cli.cjs, the CLI's modules
// (dist/cli/main.js and every module it reaches, statically or by import()) in one CommonJS file,
// which bin/lore.js runs with V8's code cache through dist/cli-load.cjs (src/cli/load.ts and what
// it imports, bundled the same way), while the modules it was made from hold what
// dist/cli.inputs.json records. Packages stay outside, loaded from node_modules as before.
// Two things a module does differently in one file, made the same:
// - import.meta.url: each module's becomes the URL of its own file under dist/, so the paths it
//   makes from it (package.json, schemas/, data/, the generated validators) do not move. Any other
//   use of import.meta fails the build.
// - import() of a package: code compiled from a code cache cannot run one in Node 20 (the loader
//   behind it is lost), so it goes through dist/cli-import.cjs, a module of its own that can.
import { build } from 'esbuild';
import { readFile, writeFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';

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

await writeFile(`${DIST}cli-import.cjs`, '// import() for the bundled CLI (scripts/bundle-cli.mjs).\nmodule.exports = (specifier) => import(specifier);\n');
for (const [entry, out] of [['cli/main.js', 'cli.cjs'], ['cli/load.js', 'cli-load.cjs']]) {
  const outfile = `${DIST}${out}`;
  const { metafile } = await build({ ...common, entryPoints: [`${DIST}${entry}`], outfile, metafile: true });
  if (out === 'cli.cjs') {
    // What the bundle was made from, each module's size and CRC-32: the loader runs it only while
    // they all hold the same (after a build by tsc alone or a patched module, the modules run).
    const inputs = await Promise.all(Object.keys(metafile.inputs).map(async (file) => {
      const own = relative(DIST, resolve(ROOT, file));
      if (own.startsWith('..')) throw new Error(`${file} is not under dist/`);
      const bytes = await readFile(resolve(ROOT, file));
      return [own.split('\\').join('/'), bytes.length, crc32(bytes)];
    }));
    await writeFile(`${DIST}cli.inputs.json`, `${JSON.stringify(inputs)}\n`);
  }
  const text = await readFile(outfile, 'utf8');
  const left = /\bimport\(\s*['"`]/.exec(text);
  if (left !== null) throw new Error(`${out} still imports with import() at ${left.index}: ${text.slice(left.index, left.index + 60)}`);
  // esbuild writes strings, regular expressions and names in ASCII (its default charset) but keeps
  // comments as they are: with a sign in a comment made '?', the file is ASCII, which the loader
  // reads as a one-byte string without decoding UTF-8 (3 ms of a command).
  await writeFile(outfile, text.replace(/[^\x00-\x7f]/gu, '?'));
}

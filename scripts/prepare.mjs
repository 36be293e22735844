// npm's `prepare` for this repository: build dist/ and point git at hooks/ through husky — but only
// here. npm also runs `prepare` when it packs the package or installs it from git; there it must
// do nothing it cannot do: build only where the sources and TypeScript are, and set up husky only
// at the top of a git work tree (not inside someone's node_modules).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { npm } from './_npm.mjs';

const require = createRequire(import.meta.url);
const installed = (name) => {
  try {
    return require.resolve(name) !== '';
  } catch {
    return false;
  }
};

if (existsSync('src') && installed('typescript')) npm(['run', 'build']);
if (existsSync('.git') && installed('husky')) {
  const { default: husky } = await import('husky');
  const problem = husky('hooks');
  if (problem !== '') console.error(`husky: ${problem}`);
}

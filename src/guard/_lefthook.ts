// lefthook owns the hooks of a repository that configures it: it rewrites them on `lefthook
// install`, so lore does not edit them; it says what to add to lefthook's config instead.
import { readdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { isErrno } from '../errors.js';

// lefthook's config names (https://lefthook.dev/configuration): lefthook or .lefthook, -local
// variants, .yml/.yaml/.toml/.json/.jsonc, in the root or in .config/.
const CONFIG = /^\.?lefthook(-local)?\.(ya?ml|toml|jsonc?)$/;

/** The command lefthook runs: lefthook puts nothing on PATH, so the local install is named. */
export const LEFTHOOK_RUN = './node_modules/.bin/lore hook pre-commit';

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return [];
    throw error;
  }
}

/** lefthook's config files in the repository (root, then .config/), main configs before -local ones. */
export async function lefthookConfigs(root: string): Promise<string[]> {
  const found = [
    ...(await names(root)).filter((name) => CONFIG.test(name)).map((name) => join(root, name)),
    ...(await names(join(root, '.config'))).filter((name) => CONFIG.test(name)).map((name) => join(root, '.config', name)),
  ];
  const local = (path: string): number => (/lefthook-local\./.test(path) ? 1 : 0);
  return found.sort((a, b) => local(a) - local(b));
}

/** What to add to a lefthook config so it runs lore's check, in that config's format. */
export function lefthookSnippet(config: string): string {
  const ext = extname(config);
  if (ext === '.toml') return `[pre-commit.commands.lore]\nrun = "${LEFTHOOK_RUN}"\n`;
  if (ext === '.json' || ext === '.jsonc') return `${JSON.stringify({ 'pre-commit': { commands: { lore: { run: LEFTHOOK_RUN } } } }, null, 2)}\n`;
  return `pre-commit:\n  commands:\n    lore:\n      run: ${LEFTHOOK_RUN}\n`;
}

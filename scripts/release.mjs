// npm run release -- <version>: builds dist/ and tags v<version> on a release commit whose tree is
// HEAD's tree + dist/ + a package.json for installing (the version set; no scripts, so npm and the
// pre-commit framework install it from git without a build; no devDependencies, which the
// pre-commit framework would install). The commit is made with a temporary index and git plumbing:
// the working tree, the index and the current branch stay as they are.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { npm } from './_npm.mjs';

const git = (args, options = {}) => execFileSync('git', args, { encoding: 'utf8', ...options }).trim();
const stop = (message, code = 1) => {
  console.error(`release: ${message}`);
  process.exit(code);
};

const version = process.argv[2] ?? '';
if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) stop(`usage: npm run release -- <version>, e.g. 0.2.0 (found "${version}")`, 2);
const tag = `v${version}`;
if (git(['status', '--porcelain']) !== '') stop('the working tree has changes (git status): commit or stash them first');
if (git(['tag', '--list', tag]) !== '') stop(`the tag ${tag} already exists`);

rmSync('dist', { recursive: true, force: true });
npm(['run', 'build']);

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
pkg.version = version;
delete pkg.scripts;
delete pkg.devDependencies;

const temp = mkdtempSync(join(tmpdir(), 'lore-release-'));
try {
  const env = { ...process.env, GIT_INDEX_FILE: join(temp, 'index') };
  const plumb = (args, input) => git(args, { env, input });
  plumb(['read-tree', 'HEAD']);
  // Not the validators of the operations' outputs, which only the tests use (package.json's files).
  plumb(['add', '--force', '--', 'dist', ':(exclude)dist/schema/generated/ops/*.output.schema.cjs', ':(exclude)dist/*.code', ':(exclude)dist/.*.tmp']);
  const blob = plumb(['hash-object', '-w', '--stdin'], `${JSON.stringify(pkg, null, 2)}\n`);
  plumb(['update-index', '--cacheinfo', `100644,${blob},package.json`]);
  const commit = plumb(['commit-tree', plumb(['write-tree']), '-p', 'HEAD', '-m', `Release ${tag}: HEAD with dist/ and an install-only package.json`]);
  git(['tag', '-a', tag, '-m', `lore ${version}`, commit]);
  console.log(`release: tagged ${tag} (commit ${commit.slice(0, 12)}); publish it with: git push origin ${tag}`);
} finally {
  rmSync(temp, { recursive: true, force: true });
}

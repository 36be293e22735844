import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { inProcess } from './helpers/cli.js';
import { commitFiles, guardRepo, prohibition, prohibitionPath } from './helpers/guard.js';
import { sarifErrors } from './helpers/sarif.js';
import { gitSync } from './helpers/temp.js';

const { lore } = inProcess;

const GOLDEN = new URL('./golden/guard/', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

describe('lore check --format', () => {
  // One range, four reports: a blocking path, a warning, a finding suppressed by lore-allow.
  for (const [format, file] of [['text', 'check.txt'], ['json', 'check.json'], ['sarif', 'check.sarif'], ['markdown', 'check.md']] as const) {
    it(`writes the ${format} report byte for byte (golden file ${file})`, async (t) => {
      const repo = guardRepo(t, {
        [prohibitionPath('pro-env')]: prohibition('pro-env', { title: 'Never commit .env files', globs: ['**/.env'] }),
        [prohibitionPath('pro-todo')]: prohibition('pro-todo', { title: 'No TODO without an issue', priority: 'medium', content: ['TODO [a-z]'] }),
      });
      const base = gitSync(repo, ['rev-parse', 'HEAD']).trim();
      gitSync(repo, ['checkout', '-q', '-b', 'feature']);
      const commit = commitFiles(repo, {
        'config/.env': 'TOKEN=x\n',
        'src/app.ts': 'export const a = 1; // TODO cache it\n// lore-allow: pro-todo reason="tracked in the roadmap"\n// TODO split\n// TODO(#12) has an issue\n',
      }, 'findings');
      const result = await lore(['check', '--range', 'main...feature', '--format', format], { cwd: repo });
      assert.deepEqual([result.code, result.stderr], [1, '']);
      if (format === 'sarif') assert.deepEqual(sarifErrors(JSON.parse(result.stdout)), []);
      // Ids, the temp folder and the version vary from run to run; everything else is compared as printed.
      const stable = [[commit, '<commit>'], [commit.slice(0, 12), '<commit>'], [base, '<base>'], [base.slice(0, 12), '<base>'], [repo, '<repo>']]
        .reduce((text, [from, to]) => text.split(from!).join(to!), result.stdout).replace(`"version": "${version}"`, '"version": "<version>"');
      // UPDATE_GOLDEN=1 rewrites the golden file; review its diff before committing it.
      if (process.env.UPDATE_GOLDEN === '1') writeFileSync(new URL(file, GOLDEN), stable);
      assert.equal(stable, readFileSync(new URL(file, GOLDEN), 'utf8'));
    });
  }
});

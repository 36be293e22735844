import type { OpCases } from '../helpers/op-cases.js';
import { prohibition, prohibitionPath } from '../helpers/guard.js';

const RULE = { [prohibitionPath('pro-env')]: prohibition('pro-env', { globs: ['**/.env'] }), '.knowledge/config.yaml': 'version: 1\nproject: demo\n' };

export const GUARD_CASES: OpCases = {
  check: [{ args: ['check'], git: true, files: RULE }, { args: ['check', '--files', '.env'], git: true, files: { ...RULE, '.env': 'A=1\n' }, code: 1 }],
  test: [
    { args: ['test'], files: { ...RULE, [prohibitionPath('pro-env')]: prohibition('pro-env', { globs: ['**/.env'], tests: { match: [{ path: '.env' }], noMatch: [{ path: '.env.example' }] } }) } },
    { args: ['test', 'pro-env'], files: { ...RULE, [prohibitionPath('pro-env')]: prohibition('pro-env', { globs: ['**/.env'], tests: { match: [{ path: 'a.txt' }] } }) }, code: 1 },
  ],
  diff: [{ args: ['diff', 'HEAD...HEAD'], git: true, files: RULE }],
};

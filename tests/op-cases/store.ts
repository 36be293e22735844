import { DEFAULT_GATES } from '../../src/entities/defaults.js';
import { renderRecord } from '../../src/store/write.js';
import type { OpCases } from '../helpers/op-cases.js';
import { entry, entryFiles } from '../helpers/knowledge.js';

const ENTRIES = entryFiles([entry({ id: 'pro-env', type: 'prohibition', priority: 'critical', globs: ['**/.env'] }), entry({ id: 'rec-strict' })]);
const GATE = { '.knowledge/gates/feature-4-6.yaml': renderRecord('gate', DEFAULT_GATES.find((g) => g.id === 'QG-feature-4-6')) };

export const STORE_CASES: OpCases = {
  init: [{ args: ['init'], git: true, files: { 'README.md': '# demo\n' } }, { args: ['init', '--no-starter'], git: true, files: { 'README.md': '# demo\n' } }],
  seed: [{ args: ['seed', '--dry-run'] }, { args: ['seed'] }],
  'pack list': [{ args: ['pack', 'list'] }],
  'extends list': [{ args: ['extends', 'list'] }, { args: ['extends', 'list'], files: { '.knowledge/config.yaml': 'version: 1\nextends:\n  - name: org\n    url: ../org.git\n' } }],
  'extends add': [{ args: ['extends', 'add', '../org.git', '--ref', 'main', '--path', 'teams/web'] }],
  'extends rm': [{ args: ['extends', 'rm', 'org'], files: { '.knowledge/config.yaml': 'version: 1\nextends:\n  - name: org\n    url: ../org.git\n' } }],
  sync: [{ args: ['sync'] }],
  'pack add': [{ args: ['pack', 'add', 'secrets'] }, { args: ['pack', 'add', 'secrets', '--dry-run'] }],
  validate: [{ args: ['validate'], files: ENTRIES }, { args: ['validate'], files: { '.knowledge/knowledge/prohibitions/pro-bad.yaml': 'id: pro-bad\n' }, code: 1 }],
  doctor: [{ args: ['doctor'], code: 1 }, { args: ['doctor', '--fix'] }],
  status: [{ args: ['status'], files: ENTRIES }],
  changes: [{ args: ['changes'], git: true, files: { '.knowledge/config.yaml': 'version: 1\nproject: shop\n', ...ENTRIES } }, { args: ['changes', '--base', 'main'], git: true, files: { '.knowledge/config.yaml': 'version: 1\nproject: shop\n' } }],
  list: [{ args: ['list'], files: { ...ENTRIES, ...GATE } }, { args: ['list', 'prohibitions', '--priority', 'critical'], files: ENTRIES }],
  show: [{ args: ['show', 'pro-env'], files: ENTRIES }, { args: ['show', 'QG-feature-4-6'], files: GATE }],
};

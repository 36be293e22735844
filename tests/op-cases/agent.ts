import type { OpCases } from '../helpers/op-cases.js';
import { entry, entryFiles } from '../helpers/knowledge.js';

export const AGENT_CASES: OpCases = {
  prime: [
    { args: ['prime'], files: entryFiles([entry({ id: 'pro-env', type: 'prohibition', priority: 'critical', globs: ['**/.env'] }), entry({ id: 'rec-strict' })]) },
    { args: ['prime', '--role', 'coach', '--budget', '200'] },
  ],
};

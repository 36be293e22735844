import type { OpCases } from '../helpers/op-cases.js';
import { chain, DAG_LOG, node } from '../helpers/dag.js';

const shop = { project: 'shop', projectContext: '/work/shop' };
const line = (value: object): string => `${JSON.stringify(value)}\n`;
/** Project shop (the config's project): a labelled chain a0 ← a1 ← a2 ← a3, a critic of a1, a summary of a0..a1. */
const LOG = {
  [DAG_LOG]: [
    ...chain(4, 'a', shop).map((n, i) => (i === 0 ? { ...n, branchLabel: 'cart' } : n)),
    node('c1', 5, { ...shop, role: 'critic', verdict: 'needs_revision', verdictReason: 'no retries', target: 'a1', parents: ['a1'], tags: [] }),
    node('s1', 6, { ...shop, role: 'summary', tags: ['summary'], thought: 'Cart planned', summarizedSegment: ['a0', 'a1'] }),
    node('a1', 5, { ...shop, parents: ['a0'], children: ['c1'], updatedAt: '2026-01-01T00:00:05.000Z', artifacts: [{ id: 'art-1', project: 'shop', name: 'cart.ts', path: 'src/cart.ts' }] }),
  ].map(line).join(''),
};
const KG = { 'old/kg.shop.json': JSON.stringify({ entities: [{ id: 'k1', thought: 'Start', role: 'actor', tags: ['task'], diff: '+x' }, { id: 'k2', thought: 'Next', role: 'actor', tags: ['task'], parents: ['k1'] }] }) };

export const DAG_CASES: OpCases = {
  'dag append': [
    { args: ['dag', 'append', '--project-context', '/work/shop', '--thought', 'Plan', '--tag', 'task'] },
    { args: ['dag', 'append', '--project-context', '/srv/shop', '--thought', 'Go on', '--tag', 'task', '--parent', 'a3', '--artifact', 'src/pay.ts', '--branch-label', 'pay'], files: LOG },
    { args: ['dag', 'append', '--from-file', '-'], stdin: JSON.stringify({ projectContext: '/work/shop', thought: 'From stdin', tags: ['task'], artifacts: [{ path: 'a.md', uri: 'https://x/a.md' }] }) },
  ],
  'dag critic': [{ args: ['dag', 'critic', '--target', 'a3', '--verdict', 'approved', '--reason', 'fine', '--reference', 'src/cart.ts'], files: LOG }],
  'dag get': [{ args: ['dag', 'get', 'a1'], files: LOG }, { args: ['dag', 'get', 's1'], files: LOG }],
  'dag children': [{ args: ['dag', 'children', 'a1'], files: LOG }, { args: ['dag', 'children', 'a3'], files: LOG }],
  'dag parents': [{ args: ['dag', 'parents', 'c1'], files: LOG }, { args: ['dag', 'parents', 'a0'], files: LOG }],
  'dag heads': [{ args: ['dag', 'heads'], files: LOG }, { args: ['dag', 'heads', '--project', 'other'], files: LOG }],
  'dag branches': [{ args: ['dag', 'branches'], files: LOG }, { args: ['dag', 'branches'] }],
  'dag resume': [{ args: ['dag', 'resume', 'a3', '--window', '2'], files: LOG }, { args: ['dag', 'resume', 'cart'], files: LOG }],
  'dag export': [{ args: ['dag', 'export'], files: LOG }, { args: ['dag', 'export', '--tag', 'task', '--limit', '1'], files: LOG }],
  'dag projects': [{ args: ['dag', 'projects'], files: LOG }, { args: ['dag', 'projects'] }],
  'dag switch': [{ args: ['dag', 'switch', 'other'], files: LOG }, { args: ['dag', 'switch', 'shop'], files: LOG }],
  'dag migrate': [{ args: ['dag', 'migrate', 'old'], files: KG }],
  'dag summarize': [{ args: ['dag', 'summarize', '--branch', 'a3', '--text', 'Done'], files: LOG }],
  'dag rm': [{ args: ['dag', 'rm', 'a3'], files: LOG }, { args: ['dag', 'rm', 'a1', '--cascade'], files: LOG }],
};

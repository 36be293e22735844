// The commit guard's operations: check a change, and summarise a change of the knowledge itself.
import type { OpEntry } from '../_define.js';

export const GUARD_OPS: readonly OpEntry[] = [
  // Not read-only: with writeBaseline it writes a file (any path the caller names).
  { name: 'guard.check', summary: 'check a change against the prohibitions (the staged change, a range of commits, or files): findings and whether it is blocked', readOnly: false, load: () => import('./check.js') },
  { name: 'guard.test', summary: "run the prohibitions' rule tests (inputs each must match and must not) through the guard's and check-plan's matching", readOnly: true, load: () => import('./test.js') },
  { name: 'guard.diff', summary: 'summarise what changed in .knowledge/ between two refs, riskiest first, for a pull request', readOnly: true, load: () => import('./diff.js') },
];

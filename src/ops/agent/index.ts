// What an agent asks for at the start of a session.
import type { OpEntry } from '../_define.js';

export const AGENT_OPS: readonly OpEntry[] = [
  { name: 'agent.export', summary: 'write the rule files coding agents read (AGENTS.md, CLAUDE.md, Cursor rules, Copilot instructions) from the store, or with check only say which are stale', readOnly: false, load: () => import('./export.js') },
  { name: 'agent.prime', summary: 'what to know at the start of a session, within a token budget: critical and high prohibitions, the role\'s constraints, the top recommendations and learnings for the paths to work on', readOnly: true, load: () => import('./prime.js') },
];

// Every operation: its name, summary, whether it only reads, and where its module is. Modules
// load when their operation runs, so a command (or an MCP tool list) never loads more than it uses.
// Each area keeps its own table (src/ops/<area>/index.ts); this file joins them.
import type { OpEntry } from './_define.js';
import { AGENT_OPS } from './agent/index.js';
import { DAG_OPS } from './dag/index.js';
import { EXTENDS_OPS } from './extends/index.js';
import { GRAPH_OPS } from './graph/index.js';
import { GUARD_OPS } from './guard/index.js';
import { KNOWLEDGE_OPS } from './knowledge/index.js';
import { PLAYER_COACH_OPS } from './player-coach/index.js';
import { STORE_OPS } from './store/index.js';

export type { OpEntry };

/** The table of operations, area by area. */
export const OPS: readonly OpEntry[] = [...STORE_OPS, ...EXTENDS_OPS, ...GUARD_OPS, ...AGENT_OPS, ...GRAPH_OPS, ...PLAYER_COACH_OPS, ...KNOWLEDGE_OPS, ...DAG_OPS];

/** The operation of this name, or undefined. */
export function findOp(name: string): OpEntry | undefined {
  return OPS.find((op) => op.name === name);
}

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

/** The areas of operations, each with its title (docs/reference/operations.md groups them so). */
export const OP_AREAS: ReadonlyArray<{ title: string; ops: readonly OpEntry[] }> = [
  { title: 'Store', ops: STORE_OPS },
  { title: 'Org-wide knowledge', ops: EXTENDS_OPS },
  { title: 'Commit guard', ops: GUARD_OPS },
  { title: 'Agents', ops: AGENT_OPS },
  { title: 'Context graph', ops: GRAPH_OPS },
  { title: 'Player/coach', ops: PLAYER_COACH_OPS },
  { title: 'Knowledge', ops: KNOWLEDGE_OPS },
  { title: 'Thought DAG', ops: DAG_OPS },
];

/** The table of operations, area by area. */
export const OPS: readonly OpEntry[] = OP_AREAS.flatMap((area) => area.ops);

/** The operation of this name, or undefined. */
export function findOp(name: string): OpEntry | undefined {
  return OPS.find((op) => op.name === name);
}

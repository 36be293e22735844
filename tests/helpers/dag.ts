// Thought-log fixtures: stores whose log holds given lines, and node lines with defaults.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { DagNode } from '../../src/types.js';
import { tempStore } from './temp.js';

export const DAG_LOG = '.knowledge/log/knowledge_graph.ndjson';

/** The time of the n-th second of 2026, for fixtures whose order matters. */
export const at = (second: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

/** An actor node of project "demo" (context /work/demo) created at second `second`, with overrides. */
export function node(id: string, second: number, extra: Partial<DagNode> = {}): DagNode {
  return { id, project: 'demo', projectContext: '/work/demo', thought: `thought ${id}`, role: 'actor', parents: [], children: [], tags: ['task'], createdAt: at(second), ...extra };
}

/** A chain n0 ← n1 ← ... of `count` nodes (each the first parent of the next). */
export function chain(count: number, prefix = 'n', extra: Partial<DagNode> = {}): DagNode[] {
  return Array.from({ length: count }, (_, i) => node(`${prefix}${i}`, i, { parents: i === 0 ? [] : [`${prefix}${i - 1}`], ...extra }));
}

/** A temp store whose thought log holds `lines` (raw strings are written as they are). */
export function dagStore(t: TestContext, lines: Array<object | string> = []): string {
  const text = lines.map((l) => (typeof l === 'string' ? l : `${JSON.stringify(l)}\n`)).join('');
  return tempStore(t, lines.length === 0 ? {} : { [DAG_LOG]: text });
}

/** The parsed lines of a store's thought log ([] when it does not exist). */
export function logLines(root: string): Array<Record<string, unknown>> {
  const file = join(root, DAG_LOG);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
}

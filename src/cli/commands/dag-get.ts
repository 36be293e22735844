import type { DagNode } from '../../types.js';
import { defineOpCommand } from '../command.js';
import { table } from '../format.js';
import { DAG_OPTIONS, dagInput } from './_dag.js';

function show(value: DagNode[keyof DagNode]): string {
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.map((v) => (typeof v === 'string' ? v : v.path)).join(', ');
  return String(value);
}

export const command = defineOpCommand<DagNode>({
  name: 'dag get',
  summary: 'show one node of the DAG',
  usage: '<id> [options]',
  description: 'Prints the node as its latest line records it. Its recorded children are the critics that reviewed it; lore dag children lists every node whose parents include it.',
  options: { ...DAG_OPTIONS },
  positionals: [1, 1],
  examples: ['lore dag get 1f2e3d4c5b6a', 'lore dag get 1f2e3d4c5b6a --project other-app --json'],
  op: 'dag.get',
  input: (ctx) => ({ id: ctx.args[0]!, ...dagInput(ctx) }),
  print(node, ctx) {
    ctx.print(table(Object.entries(node).map(([key, value]) => [key, show(value as DagNode[keyof DagNode])]), ctx.columns));
  },
});

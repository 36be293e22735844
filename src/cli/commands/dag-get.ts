import type { DagNode } from '../../types.js';
import { defineCommand } from '../command.js';
import { table } from '../format.js';
import { DAG_OPTIONS, openDag, projectOption } from './_dag.js';

function show(value: DagNode[keyof DagNode]): string {
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.map((v) => (typeof v === 'string' ? v : v.path)).join(', ');
  return String(value);
}

export const command = defineCommand({
  name: 'dag get',
  summary: 'show one node of the DAG',
  usage: '<id> [options]',
  description: 'Prints the node as its latest line records it. Its recorded children are the critics that reviewed it; lore dag children lists every node whose parents include it.',
  options: { ...DAG_OPTIONS },
  positionals: [1, 1],
  examples: ['lore dag get 1f2e3d4c5b6a', 'lore dag get 1f2e3d4c5b6a --project other-app --json'],
  async run(ctx) {
    const dag = await openDag(ctx);
    const node = dag.get(ctx.args[0]!, projectOption(ctx));
    if (ctx.json) {
      ctx.printJson(node);
      return;
    }
    ctx.print(table(Object.entries(node).map(([key, value]) => [key, show(value as DagNode[keyof DagNode])]), ctx.columns));
  },
});

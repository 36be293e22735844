import { defineCommand } from '../command.js';
import { DAG_OPTIONS, openDag, printNodes, projectOption } from './_dag.js';

export const command = defineCommand({
  name: 'dag children',
  summary: 'list the nodes whose parents include a node',
  usage: '<id> [options]',
  description: 'Children are the nodes that name the node as a parent (critics of it included), oldest first.',
  options: { ...DAG_OPTIONS },
  positionals: [1, 1],
  examples: ['lore dag children 1f2e3d4c5b6a', 'lore dag children 1f2e3d4c5b6a --json'],
  async run(ctx) {
    const dag = await openDag(ctx);
    const children = dag.children(ctx.args[0]!, projectOption(ctx));
    if (ctx.json) {
      ctx.printJson(children);
      return;
    }
    printNodes(ctx, children, `no node follows ${ctx.args[0]}`);
  },
});

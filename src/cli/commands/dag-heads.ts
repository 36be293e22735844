import { defineCommand } from '../command.js';
import { DAG_OPTIONS, openDag, printNodes, projectOption } from './_dag.js';

export const command = defineCommand({
  name: 'dag heads',
  summary: 'list the latest nodes: those no node names as a parent',
  usage: '[options]',
  description: 'Heads are the tips of the lines of thought of the project, oldest first. Summary nodes are never heads.',
  options: { ...DAG_OPTIONS },
  positionals: [0, 0],
  examples: ['lore dag heads', 'lore dag heads --project other-app --json'],
  async run(ctx) {
    const dag = await openDag(ctx);
    const heads = dag.heads(projectOption(ctx));
    if (ctx.json) {
      ctx.printJson(heads);
      return;
    }
    printNodes(ctx, heads, `no nodes in project ${dag.project(ctx.string('project'))}`);
  },
});

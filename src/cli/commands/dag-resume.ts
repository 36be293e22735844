import { UsageError } from '../../errors.js';
import { defineCommand } from '../command.js';
import { DAG_OPTIONS, openDag, printNodes, projectOption } from './_dag.js';

export const command = defineCommand({
  name: 'dag resume',
  summary: 'the context to resume a branch: its last nodes and summaries',
  usage: '<id|label> [--window N] [options]',
  description: 'Walks first parents back from the node (or the newest head of the labelled branch) up to the window, and puts first the summaries whose segment covers the node where the walk stopped, oldest first.',
  options: {
    window: { type: 'string', value: 'N', description: 'how many nodes to walk back (default 20)' },
    ...DAG_OPTIONS,
  },
  positionals: [1, 1],
  examples: ['lore dag resume parser', 'lore dag resume 9a8b7c6d5e4f --window 5 --json'],
  async run(ctx) {
    const window = ctx.string('window');
    if (window !== undefined && !/^[1-9][0-9]*$/.test(window)) throw new UsageError(`--window must be a whole number of at least 1 (found ${JSON.stringify(window)})`);
    const dag = await openDag(ctx);
    const result = dag.resume(ctx.args[0]!, { ...projectOption(ctx), ...(window === undefined ? {} : { window: Number(window) }) });
    if (ctx.json) {
      ctx.printJson(result);
      return;
    }
    const stopped = result.stoppedAt === null ? 'from the root' : `stopped before ${result.stoppedAt}`;
    ctx.print(ctx.style.dim(`# resume ${result.branch}: ${result.nodes.length} nodes, window ${result.window}, ${stopped}`));
    printNodes(ctx, result.nodes, 'nothing to resume');
  },
});

import type { ResumeResult } from '../../dag/queries.js';
import { defineOpCommand } from '../command.js';
import { DAG_OPTIONS, dagInput, printNodes } from './_dag.js';

export const command = defineOpCommand<ResumeResult>({
  name: 'dag resume',
  summary: 'the context to resume a branch: its last nodes and summaries',
  usage: '<id|label> [--window N] [options]',
  description: 'Walks first parents back from the node (or the newest head of the labelled branch) up to the window, and puts first the summaries whose segment covers the node where the walk stopped, oldest first.',
  options: {
    window: { type: 'integer', min: 1, value: 'N', description: 'how many nodes to walk back (default 20)' },
    ...DAG_OPTIONS,
  },
  positionals: [1, 1],
  examples: ['lore dag resume parser', 'lore dag resume 9a8b7c6d5e4f --window 5 --json'],
  op: 'dag.resume',
  input(ctx) {
    const window = ctx.number('window');
    return { branch: ctx.args[0]!, ...(window === undefined ? {} : { window }), ...dagInput(ctx) };
  },
  print(result, ctx) {
    const stopped = result.stoppedAt === null ? 'from the root' : `stopped before ${result.stoppedAt}`;
    ctx.print(ctx.style.dim(`# resume ${result.branch}: ${result.nodes.length} nodes, window ${result.window}, ${stopped}`));
    printNodes(ctx, result.nodes, 'nothing to resume');
  },
});

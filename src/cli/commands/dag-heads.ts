import type { HeadsOutput } from '../../ops/dag/heads.js';
import { defineOpCommand } from '../command.js';
import { DAG_OPTIONS, dagInput, printNodes } from './_dag.js';

export const command = defineOpCommand<HeadsOutput>({
  name: 'dag heads',
  summary: 'list the latest nodes: those no node names as a parent',
  usage: '[options]',
  description: 'Heads are the tips of the lines of thought of the project, oldest first. Summary nodes are never heads.',
  options: { ...DAG_OPTIONS },
  positionals: [0, 0],
  examples: ['lore dag heads', 'lore dag heads --project other-app --json'],
  op: 'dag.heads',
  input: dagInput,
  print(output, ctx) {
    printNodes(ctx, output.heads, `no nodes in project ${output.project}`);
  },
});

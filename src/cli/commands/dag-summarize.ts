import { UsageError } from '../../errors.js';
import type { DagNode } from '../../types.js';
import { defineOpCommand } from '../command.js';
import { DAG_OPTIONS, dagInput } from './_dag.js';

export const command = defineOpCommand<DagNode>({
  name: 'dag summarize',
  summary: 'append a summary of the unsummarised nodes of a branch',
  usage: '--branch ID|LABEL --text TEXT [options]',
  description: [
    'The segment is the first-parent line ending at the branch (a node id, or the newest head of a labelled branch), from the node after the last one a summary already covers. resume shows summaries in place of what lies beyond its window.',
    'Refused with BRANCH_NOT_FOUND (no such node or label), ALREADY_SUMMARIZED (nothing left to summarise) or INSUFFICIENT_NODES (fewer than 2 nodes in the segment); --json prints the code.',
  ].join('\n\n'),
  options: {
    branch: { type: 'string', value: 'ID|LABEL', description: 'the branch to summarise' },
    text: { type: 'string', value: 'TEXT', description: 'the summary' },
    ...DAG_OPTIONS,
  },
  positionals: [0, 0],
  examples: ['lore dag summarize --branch parser --text "Split the parser; the reader streams; tests cover empty files"'],
  op: 'dag.summarize',
  input(ctx) {
    const [branch, text] = [ctx.string('branch'), ctx.string('text')];
    if (branch === undefined || text === undefined) throw new UsageError('lore dag summarize needs --branch ID|LABEL and --text TEXT');
    return { branch, text, ...dagInput(ctx) };
  },
  print(summary, ctx) {
    ctx.print(`summary ${summary.id} covers ${summary.summarizedSegment!.length} nodes: ${summary.summarizedSegment!.join(', ')}`);
  },
});

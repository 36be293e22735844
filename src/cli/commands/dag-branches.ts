import type { BranchesOutput } from '../../ops/dag/branches.js';
import { defineOpCommand } from '../command.js';
import { table } from '../format.js';
import { DAG_OPTIONS, dagInput, describe } from './_dag.js';

export const command = defineOpCommand<BranchesOutput>({
  name: 'dag branches',
  summary: 'list the branches: each head with its label and depth',
  usage: '[options]',
  description: "A branch's label is the branchLabel of the nearest labelled node on its first-parent line; its depth is the number of first-parent steps back to a root.",
  options: { ...DAG_OPTIONS },
  positionals: [0, 0],
  examples: ['lore dag branches', 'lore dag branches --json'],
  op: 'dag.branches',
  input: dagInput,
  print({ project, branches }, ctx) {
    if (branches.length === 0) {
      ctx.print(`no branches in project ${project}`);
      return;
    }
    ctx.print(table(branches.map((b) => [b.branchId, b.label ?? '-', `depth ${b.depth}`, describe(b.head)]), ctx.columns));
  },
});

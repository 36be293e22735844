import type { ExportOutput } from '../../ops/dag/export.js';
import { defineOpCommand } from '../command.js';
import { table } from '../format.js';
import { DAG_OPTIONS, dagInput } from './_dag.js';

export const command = defineOpCommand<ExportOutput>({
  name: 'dag export',
  summary: 'the plan view of a project, optionally of one tag',
  usage: '[--tag T] [--limit N] [options]',
  description: 'Each node with id, thought, tags, branchLabel, verdict, parents, children (the nodes whose parents include it) and artifacts, oldest first (with --limit, only the first N; a note says how many were left out). --json is the form for programs: { project, total, truncated, nodes }.',
  options: {
    tag: { type: 'string', value: 'TAG', description: 'only nodes with this tag' },
    limit: { type: 'integer', min: 1, value: 'N', description: 'at most N nodes, oldest first (default: all)' },
    ...DAG_OPTIONS,
  },
  positionals: [0, 0],
  examples: ['lore dag export --json', 'lore dag export --tag risk', 'lore dag export --limit 20 --json'],
  op: 'dag.export',
  input(ctx) {
    const [tag, limit] = [ctx.string('tag'), ctx.number('limit')];
    return { ...(tag === undefined ? {} : { tag }), ...(limit === undefined ? {} : { limit }), ...dagInput(ctx) };
  },
  print(plan, ctx) {
    const tag = ctx.string('tag');
    if (plan.nodes.length === 0) {
      ctx.print(`no nodes${tag === undefined ? '' : ` tagged ${tag}`} in project ${plan.project}`);
      return;
    }
    ctx.print(table(plan.nodes.map((p) => [p.id, `[${p.tags.join(', ')}]`, p.verdict ?? '', p.thought.replace(/\s+/g, ' ')]), ctx.columns));
    if (plan.truncated) ctx.note(`showing the first ${plan.nodes.length} of ${plan.total} nodes; --limit N shows more`);
  },
});

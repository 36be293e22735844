import { defineCommand } from '../command.js';
import { table } from '../format.js';
import { DAG_OPTIONS, openDag, projectOption } from './_dag.js';

export const command = defineCommand({
  name: 'dag export',
  summary: 'the plan view of a project, optionally of one tag',
  usage: '[--tag T] [options]',
  description: 'Each node with id, thought, tags, branchLabel, verdict, parents, children (the nodes whose parents include it) and artifacts, oldest first. --json is the form for programs.',
  options: {
    tag: { type: 'string', value: 'TAG', description: 'only nodes with this tag' },
    ...DAG_OPTIONS,
  },
  positionals: [0, 0],
  examples: ['lore dag export --json', 'lore dag export --tag risk'],
  async run(ctx) {
    const dag = await openDag(ctx);
    const tag = ctx.string('tag');
    const plan = dag.exportPlan({ ...projectOption(ctx), ...(tag === undefined ? {} : { tag }) });
    if (ctx.json) {
      ctx.printJson(plan);
      return;
    }
    if (plan.length === 0) {
      ctx.print(`no nodes${tag === undefined ? '' : ` tagged ${tag}`} in project ${dag.project(ctx.string('project'))}`);
      return;
    }
    ctx.print(table(plan.map((p) => [p.id, `[${p.tags.join(', ')}]`, p.verdict ?? '', p.thought.replace(/\s+/g, ' ')]), ctx.columns));
  },
});

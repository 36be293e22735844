import { UsageError } from '../../errors.js';
import { defineCommand } from '../command.js';
import { DAG_OPTIONS, openDag } from './_dag.js';

export const command = defineCommand({
  name: 'dag switch',
  summary: 'make a project the current one',
  usage: '<name> [options]',
  description: 'The current project is what the dag commands work on without --project. It is kept in .knowledge/.cache/ (never committed); lore dag append also switches to the project of the node it appends.',
  options: { ...DAG_OPTIONS },
  positionals: [0, 1],
  examples: ['lore dag switch my-app', 'lore dag switch --project other-app --json'],
  async run(ctx) {
    const [name, option] = [ctx.args[0], ctx.string('project')];
    if (name !== undefined && option !== undefined && name !== option) throw new UsageError(`lore dag switch got two projects: ${name} and --project ${option}`);
    const project = name ?? option;
    if (project === undefined) throw new UsageError('lore dag switch needs a project name', 'lore dag projects lists them');
    const dag = await openDag(ctx);
    const result = await dag.switchProject(project);
    if (ctx.json) {
      ctx.printJson(result);
      return;
    }
    ctx.print(`current project: ${result.project}${result.known ? '' : ' (no nodes yet)'}`);
  },
});

import { UsageError } from '../../errors.js';
import { defineOpCommand } from '../command.js';
import { DAG_OPTIONS, dagInput } from './_dag.js';

export const command = defineOpCommand<{ project: string; previous: string; known: boolean }>({
  name: 'dag switch',
  summary: 'make a project the current one',
  usage: '<name> [options]',
  description: 'The current project is what the dag commands work on without --project. It is kept in .knowledge/.cache/ (never committed); lore dag append also switches to the project of the node it appends.',
  options: { ...DAG_OPTIONS },
  positionals: [0, 1],
  examples: ['lore dag switch my-app', 'lore dag switch --project other-app --json'],
  op: 'dag.switch',
  input(ctx) {
    const [name, option] = [ctx.args[0], dagInput(ctx).project];
    if (name !== undefined && option !== undefined && name !== option) throw new UsageError(`lore dag switch got two projects: ${name} and --project ${option}`);
    const project = name ?? option;
    if (project === undefined) throw new UsageError('lore dag switch needs a project name', 'lore dag projects lists them');
    return { project };
  },
  print(result, ctx) {
    ctx.print(`current project: ${result.project}${result.known ? '' : ' (no nodes yet)'}`);
  },
});

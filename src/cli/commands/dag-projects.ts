import type { ProjectsOutput } from '../../ops/dag/projects.js';
import { distinctLocations } from '../../dag/project-name.js';
import { defineOpCommand } from '../command.js';
import { plural, table } from '../format.js';
import { DAG_OPTIONS, dagInput } from './_dag.js';

export const command = defineOpCommand<ProjectsOutput>({
  name: 'dag projects',
  summary: 'list the projects of the thought log, and name collisions',
  usage: '[options]',
  description: 'Every project with its node count and the directories (projectContexts) that gave its name. Two different directories that give one name are reported as a collision. * marks the current project (or --project).',
  options: { ...DAG_OPTIONS },
  positionals: [0, 0],
  examples: ['lore dag projects', 'lore dag projects --json'],
  op: 'dag.projects',
  input: dagInput,
  print({ current, projects }, ctx) {
    if (projects.length === 0) {
      ctx.print(`no projects in the thought log yet (current project: ${current})`);
      return;
    }
    ctx.print(table(projects.map((p) => [p.current ? '*' : ' ', p.name, plural(p.nodes, 'node'), p.contexts.join(', ')]), ctx.columns));
    for (const p of projects.filter((x) => x.collision)) {
      // A bare name (a migrated node's projectContext) is no directory: only located contexts count.
      ctx.note(ctx.style.yellow(`warning: project name collision: ${distinctLocations(p.contexts).length} different directories give the name ${p.name}`));
    }
  },
});

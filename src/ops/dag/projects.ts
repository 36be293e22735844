import type { ProjectInfo } from '../../dag/dag.js';
import { defineOp } from '../_define.js';
import { openDag, type ProjectInput } from './_dag.js';

/** The projects of the log, and which one is current (or was named). */
export interface ProjectsOutput {
  current: string;
  projects: ProjectInfo[];
}

export const op = defineOp<ProjectInput, ProjectsOutput>({
  name: 'dag.projects',
  async run(input, ctx) {
    const dag = await openDag(ctx);
    const current = dag.project(input.project);
    return { current, projects: dag.projects().map((p) => ({ ...p, current: p.name === current })) };
  },
});

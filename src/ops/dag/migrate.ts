import { resolve } from 'node:path';
import type { Problem } from '../../errors.js';
import type { MigratedProject } from '../../dag/migrate.js';
import { defineOp } from '../_define.js';
import { openDag, problemText, projectOf, type ProjectInput } from './_dag.js';

export interface MigrateOutput {
  projects: MigratedProject[];
  added: number;
  skipped: number;
  warnings: Problem[];
}

export const op = defineOp<{ dir: string } & ProjectInput, MigrateOutput>({
  name: 'dag.migrate',
  async run(input, ctx) {
    const dag = await openDag(ctx);
    const result = await dag.migrate(resolve(ctx.ws.cwd, input.dir), { ...projectOf(input), onProgress: ctx.progress });
    for (const warning of result.warnings) ctx.note(problemText(warning));
    return result;
  },
});

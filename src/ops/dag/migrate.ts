import type { Problem } from '../../errors.js';
import type { MigratedProject } from '../../dag/migrate.js';
import { defineOp } from '../_define.js';
import { inputPath } from '../_paths.js';
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
    const result = await dag.migrate(await inputPath(ctx, input.dir, 'dir'), { ...projectOf(input), onProgress: ctx.progress });
    for (const warning of result.warnings) ctx.note(problemText(warning));
    return result;
  },
});

import { resolve } from 'node:path';
import type { AppendInput } from '../../dag/append.js';
import type { AppendResult } from '../../dag/dag.js';
import { defineOp } from '../_define.js';
import { openDag, type ProjectInput } from './_dag.js';

/** The node as an agent gives it (`lore dag append --from-file` reads the same JSON). */
export const op = defineOp<AppendInput & ProjectInput, AppendResult>({
  name: 'dag.append',
  async run(input, ctx) {
    const dag = await openDag(ctx);
    // A relative projectContext names a folder of the workspace's directory.
    const context = input.projectContext.trim() === '' ? input.projectContext : resolve(ctx.ws.cwd, input.projectContext);
    const result = await dag.append({ ...input, projectContext: context });
    for (const warning of result.warnings) ctx.note(`warning: ${warning}`);
    return result;
  },
});

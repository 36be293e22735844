import { resolveGateConfig, type ResolvedGate } from '../../entities/gates.js';
import { defineOp } from '../_define.js';
import type { TaskInput } from './_task.js';

/** The resolved gates; overrideFile is null when the project has no override file. */
export type GatesShowOutput = Omit<ResolvedGate, 'overrideFile'> & { overrideFile: string | null };

export const op = defineOp<TaskInput, GatesShowOutput>({
  name: 'gates.show',
  async run(input, { ws }) {
    const resolved = await resolveGateConfig({ store: await ws.store(), taskType: input.task_type, complexity: input.complexity, project: input.project });
    return { ...resolved, overrideFile: resolved.overrideFile ?? null };
  },
});

import { resolveRoleConstraints, type ResolvedRole } from '../../entities/roles.js';
import { defineOp } from '../_define.js';

export interface RolesShowInput {
  role: string;
  project?: string;
}

/** The resolved role; overrideFile is null when the project has no override file. */
export type RolesShowOutput = Omit<ResolvedRole, 'overrideFile'> & { overrideFile: string | null };

export const op = defineOp<RolesShowInput, RolesShowOutput>({
  name: 'roles.show',
  async run(input, { ws }) {
    const resolved = await resolveRoleConstraints({ store: await ws.store(), role: input.role, project: input.project });
    return { ...resolved, overrideFile: resolved.overrideFile ?? null };
  },
});

import { listGateProfiles, type ListedGate } from '../../entities/gates.js';
import { defineOp } from '../_define.js';

export interface GatesListOutput {
  project: string;
  /** The project's override file; null when it has none. */
  overrideFile: string | null;
  profiles: ListedGate[];
}

export const op = defineOp<{ project?: string }, GatesListOutput>({
  name: 'gates.list',
  async run(input, { ws }) {
    const listed = await listGateProfiles({ store: await ws.store(), project: input.project });
    return { project: listed.project, overrideFile: listed.overrideFile ?? null, profiles: listed.profiles };
  },
});

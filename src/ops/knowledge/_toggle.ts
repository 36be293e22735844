// entry.enable and entry.disable: one definition, two operations.
import { setEnabled } from '../../knowledge/manage.js';
import type { WriteStatus } from '../../store/write.js';
import { defineOp, type Op } from '../_define.js';

export interface ToggleOutput {
  id: string;
  file: string;
  status: WriteStatus;
  enabled: boolean;
}

/** The operation that sets an entry's `enabled` to the given value. */
export function toggleOp(enabled: boolean): Op<{ id: string }, ToggleOutput> {
  return defineOp<{ id: string }, ToggleOutput>({
    name: enabled ? 'entry.enable' : 'entry.disable',
    async run(input, { ws }) {
      const result = await setEnabled({ store: await ws.store(), id: input.id, enabled, env: ws.env });
      return { id: result.entry.id, file: result.file, status: result.status, enabled };
    },
  });
}

import { initStore, type InitResult } from '../../entities/init.js';
import { defineOp } from '../_define.js';

export const op = defineOp<{ starter?: boolean }, Pick<InitResult, 'root' | 'changed' | 'updated' | 'seeded'>>({
  name: 'store.init',
  async run(input, { ws }) {
    const result = await initStore({ cwd: ws.cwd, store: ws.storeDir, env: ws.env, starter: input.starter !== false });
    return { root: result.root, changed: result.changed, updated: result.updated, seeded: result.seeded };
  },
});

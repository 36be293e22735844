import { join } from 'node:path';
import { LOCK_PATH, syncSources, type SyncResult } from '../../extends/sources.js';
import { KNOWLEDGE_DIR } from '../../store/layout.js';
import { defineOp } from '../_define.js';

export const op = defineOp<{ update?: boolean }, SyncResult>({
  name: 'extends.sync',
  async run(input, { ws, progress }) {
    const store = await ws.store();
    const result = await syncSources(store.root, { update: input.update === true, env: ws.env, onProgress: progress });
    ws.invalidate([join(store.root, KNOWLEDGE_DIR, 'config.yaml'), join(store.root, LOCK_PATH)]);
    return result;
  },
});

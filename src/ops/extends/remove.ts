import { join } from 'node:path';
import { editSources, LOCK_PATH, type ResolvedSource } from '../../extends/sources.js';
import { KNOWLEDGE_DIR } from '../../store/layout.js';
import { defineOp } from '../_define.js';

export const op = defineOp<{ name: string }, { removed: string; sources: ResolvedSource[] }>({
  name: 'extends.remove',
  async run(input, { ws, note }) {
    const store = await ws.store();
    const sources = await editSources(store.root, { remove: input.name });
    ws.invalidate([join(store.root, KNOWLEDGE_DIR, 'config.yaml'), join(store.root, LOCK_PATH)]);
    note('run lore sync to take it out of .knowledge/extends.lock, then commit both files');
    return { removed: input.name, sources };
  },
});

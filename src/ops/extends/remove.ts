import { join } from 'node:path';
import { editSources, LOCK_PATH, type ResolvedSource } from '../../extends/sources.js';
import { KNOWLEDGE_DIR } from '../../store/layout.js';
import { defineOp } from '../_define.js';

export const op = defineOp<{ name: string }, { removed: string; sources: ResolvedSource[] }>({
  name: 'extends.remove',
  async run(input, { ws }) {
    const store = await ws.store();
    const sources = await editSources(store.root, { remove: input.name });
    ws.invalidate([join(store.root, KNOWLEDGE_DIR, 'config.yaml'), join(store.root, LOCK_PATH)]);
    return { removed: input.name, sources };
  },
});

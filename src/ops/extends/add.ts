import { join } from 'node:path';
import { editSources, LOCK_PATH, nameFromUrl, type ResolvedSource } from '../../extends/sources.js';
import { KNOWLEDGE_DIR } from '../../store/layout.js';
import { defineOp } from '../_define.js';

export interface AddSourceInput {
  url: string;
  name?: string;
  ref?: string;
  path?: string;
}

export const op = defineOp<AddSourceInput, { added: ResolvedSource; sources: ResolvedSource[] }>({
  name: 'extends.add',
  async run(input, { ws }) {
    const store = await ws.store();
    const name = input.name ?? nameFromUrl(input.url);
    const sources = await editSources(store.root, { add: { name, url: input.url, ...(input.ref === undefined ? {} : { ref: input.ref }), ...(input.path === undefined ? {} : { path: input.path }) } });
    ws.invalidate([join(store.root, KNOWLEDGE_DIR, 'config.yaml'), join(store.root, LOCK_PATH)]);
    return { added: sources.find((s) => s.name === name)!, sources };
  },
});

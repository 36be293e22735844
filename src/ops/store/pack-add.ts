import { addPack } from '../../entities/packs.js';
import type { SeedItem } from '../../entities/seed.js';
import { defineOp } from '../_define.js';

export const op = defineOp<{ name: string; dryRun?: boolean }, { pack: string; dryRun: boolean; items: SeedItem[] }>({
  name: 'pack.add',
  async run(input, { ws }) {
    const store = await ws.store();
    const dryRun = input.dryRun === true;
    return { pack: input.name, dryRun, items: await addPack(store.root, input.name, { dryRun }) };
  },
});

import { seedDefaults, type SeedItem } from '../../entities/seed.js';
import { defineOp } from '../_define.js';

export const op = defineOp<{ force?: boolean; dryRun?: boolean }, { dryRun: boolean; items: SeedItem[] }>({
  name: 'store.seed',
  async run(input, { ws }) {
    const store = await ws.store();
    const dryRun = input.dryRun === true;
    return { dryRun, items: await seedDefaults(store.root, { force: input.force === true, dryRun }) };
  },
});

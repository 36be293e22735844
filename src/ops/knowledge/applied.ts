import { loadUsageStats, NO_USAGE, recordApplication, type UsageStats } from '../../knowledge/stats.js';
import type { ApplicationEvent } from '../../types.js';
import { defineOp } from '../_define.js';

export const op = defineOp<{ entryId: string; taskId: string; helpful?: boolean }, { event: ApplicationEvent; stats: UsageStats }>({
  name: 'usage.record',
  async run(input, { ws }) {
    const store = await ws.store();
    const event = await recordApplication({ store, entryId: input.entryId, taskId: input.taskId, helpful: input.helpful, env: ws.env });
    const stats = (await loadUsageStats(store.root)).stats.get(event.entryId) ?? NO_USAGE;
    return { event, stats };
  },
});

import type { SeedItem } from '../../entities/seed.js';
import { defineOpCommand } from '../command.js';
import { plural } from '../format.js';

export const command = defineOpCommand<{ dryRun: boolean; items: SeedItem[] }>({
  name: 'seed',
  summary: 'write the default roles, gate profiles and modes',
  usage: '[options]',
  description: [
    'Writes ROLE-player, ROLE-coach, the six quality-gate profiles and the three implementation modes',
    'with their stable ids. Idempotent: records equal to the defaults are kept as they are, and a record',
    'a person edited is skipped unless --force.',
  ].join('\n'),
  options: {
    force: { type: 'boolean', description: 'reset records that differ from the defaults' },
    'dry-run': { type: 'boolean', description: 'show what would happen, write nothing' },
  },
  positionals: [0, 0],
  examples: ['lore seed', 'lore seed --dry-run', 'lore seed --force'],
  op: 'store.seed',
  input: (ctx) => ({ force: ctx.flag('force'), dryRun: ctx.flag('dry-run') }),
  print({ dryRun, items }, ctx) {
    const verb = dryRun ? 'would be ' : '';
    for (const item of items) {
      if (item.status === 'kept') continue;
      const label = item.status === 'skipped' ? ctx.style.yellow('skipped') : ctx.style.green(`${verb}${item.status}`);
      ctx.print(`${label} ${item.id} (${item.file})${item.reason === undefined ? '' : `: ${item.reason}`}`);
    }
    const count = (status: string): number => items.filter((i) => i.status === status).length;
    ctx.print(`${verb}added ${count('added')}, reset ${count('reset')}, kept ${count('kept')}, skipped ${plural(count('skipped'), 'edited record')}`);
  },
});

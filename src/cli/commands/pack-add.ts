import type { SeedItem } from '../../entities/seed.js';
import { defineOpCommand } from '../command.js';
import { plural } from '../format.js';

export const command = defineOpCommand<{ pack: string; dryRun: boolean; items: SeedItem[] }>({
  name: 'pack add',
  summary: "add a starter pack's prohibitions that are missing from the store",
  usage: '<name> [options]',
  description: [
    'Writes the records of the pack that the store lacks into .knowledge/knowledge/prohibitions/, all or',
    'none (under the store\'s write lock). Each is an ordinary record marked sourceRef: pack:<name>; one',
    'that is already there is kept, and one a person edited is skipped, never overwritten. lore pack list',
    'names the packs.',
  ].join('\n'),
  options: {
    'dry-run': { type: 'boolean', description: 'show what would happen, write nothing' },
  },
  positionals: [1, 1],
  examples: ['lore pack add secrets', 'lore pack add secrets --dry-run --json'],
  op: 'pack.add',
  input: (ctx) => ({ name: ctx.args[0]!, dryRun: ctx.flag('dry-run') }),
  print({ pack, dryRun, items }, ctx) {
    const verb = dryRun ? 'would be ' : '';
    for (const item of items) {
      if (item.status === 'added') ctx.print(`${ctx.style.green(`${verb}added`)} ${item.file}`);
      else if (item.status === 'skipped') ctx.print(`${ctx.style.yellow('skipped')} ${item.file}: ${item.reason ?? 'differs from the pack'}`);
    }
    const count = (status: string): number => items.filter((i) => i.status === status).length;
    ctx.print(`pack ${pack}: ${verb}added ${count('added')}, ${count('kept')} already there, skipped ${plural(count('skipped'), 'edited record')}`);
  },
});

import type { PackSummary } from '../../ops/store/pack-list.js';
import { defineOpCommand } from '../command.js';
import { plural } from '../format.js';

export const command = defineOpCommand<{ packs: PackSummary[] }>({
  name: 'pack list',
  summary: 'list the starter packs of prohibitions, with their rules',
  usage: '[options]',
  description: 'Lists the packs this lore ships (packs/<name>/ in the package): reviewed prohibitions, each with rule tests. lore pack add NAME writes one into the store.',
  options: {},
  positionals: [0, 0],
  examples: ['lore pack list', 'lore pack list --json'],
  op: 'pack.list',
  input: () => ({}),
  print({ packs }, ctx) {
    for (const pack of packs) {
      ctx.print(`${ctx.style.bold(pack.name)}: ${pack.description} (${plural(pack.rules.length, 'rule')})`);
      for (const rule of pack.rules) ctx.print(`  ${rule.id} [${rule.priority}] ${rule.title}`);
    }
  },
});

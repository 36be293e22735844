import type { ListedSource } from '../../ops/extends/list.js';
import { defineOpCommand } from '../command.js';
import { table } from '../format.js';

export const command = defineOpCommand<ListedSource[]>({
  name: 'extends list',
  summary: "list config.yaml's org-wide knowledge sources and their pins",
  usage: '',
  description: 'Each source of config.yaml\'s extends, in order: its url, ref and folder, the commit .knowledge/extends.lock pins it to, and whether this clone has fetched that commit (lore sync).',
  options: {},
  positionals: [0, 0],
  examples: ['lore extends list', 'lore extends list --json'],
  op: 'extends.list',
  input: () => ({}),
  print(sources, ctx) {
    if (sources.length === 0) {
      ctx.print('no extends sources (lore extends add <url-or-path>)');
      return;
    }
    const pin = (s: ListedSource): string => (s.commit === null ? 'not pinned: lore sync' : `${s.commit.slice(0, 12)}${s.fetched ? '' : ' (not fetched: lore sync)'}`);
    ctx.print(table(sources.map((s) => [s.name, `${s.ref} of ${s.url}`, `folder ${s.path}`, pin(s)]), ctx.columns));
  },
});

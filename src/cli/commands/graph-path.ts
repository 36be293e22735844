import type { PathOutput } from '../../ops/graph/path.js';
import { defineOpCommand } from '../command.js';
import { MEMORY_FILE_OPTION, memoryFileInput } from './_graph.js';

export const command = defineOpCommand<PathOutput>({
  name: 'graph path',
  summary: 'the shortest chain of relationships between two entities',
  usage: '<A> <B> [options]',
  description: 'Follows relationships in either direction (only forwards with --directed). Prints "no path" (exit 0, "path": null in JSON) when nothing connects them.',
  options: {
    directed: { type: 'boolean', description: 'follow relationships only from -> to' },
    ...MEMORY_FILE_OPTION,
  },
  positionals: [2, 2],
  examples: ['lore graph path "Web App" "User DB"', 'lore graph path "Web App" "User DB" --directed --json'],
  op: 'graph.path',
  input(ctx) {
    const [from, to] = ctx.args as [string, string];
    return { from, to, ...(ctx.flag('directed') ? { directed: true } : {}), ...memoryFileInput(ctx) };
  },
  print({ from, to, path }, ctx) {
    if (path === null) {
      ctx.print(`no path from ${JSON.stringify(from)} to ${JSON.stringify(to)}${ctx.flag('directed') ? ' following relationships forwards' : ''}`);
      return;
    }
    let line = JSON.stringify(path.entities[0]);
    path.relationships.forEach((rel, i) => {
      const next = path.entities[i + 1]!;
      line += rel.to === next && rel.from === path.entities[i] ? ` -${rel.type}-> ` : ` <-${rel.type}- `;
      line += JSON.stringify(next);
    });
    ctx.print(line);
  },
});

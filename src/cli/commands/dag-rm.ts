import type { RemoveOutput } from '../../ops/dag/remove.js';
import { defineOpCommand } from '../command.js';
import { plural } from '../format.js';
import { DAG_OPTIONS, dagInput } from './_dag.js';

export const command = defineOpCommand<RemoveOutput>({
  name: 'dag rm',
  summary: 'delete a node (tombstones; --cascade for what follows)',
  usage: '<id> [--cascade] [options]',
  description: 'Appends a tombstone line; the log is never rewritten. A node that other nodes name as a parent is kept unless --cascade, which deletes them (and what follows from them) too. Summaries covering a deleted node are kept and reported.',
  options: {
    cascade: { type: 'boolean', description: 'also delete every node that follows from it' },
    ...DAG_OPTIONS,
  },
  positionals: [1, 1],
  examples: ['lore dag rm 9a8b7c6d5e4f', 'lore dag rm 1f2e3d4c5b6a --cascade --json'],
  op: 'dag.remove',
  input: (ctx) => ({ id: ctx.args[0]!, ...(ctx.flag('cascade') ? { cascade: true } : {}), ...dagInput(ctx) }),
  print(result, ctx) {
    ctx.print(`deleted ${plural(result.deleted.length, 'node')}: ${result.deleted.join(', ')}`);
    if (result.affectedSummaries.length > 0) ctx.note(ctx.style.yellow(`warning: summaries covering deleted nodes were kept: ${result.affectedSummaries.join(', ')}`));
  },
});

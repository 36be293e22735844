import { describeRelationship } from '../../graph/merge.js';
import type { RelateOutput } from '../../ops/graph/relate.js';
import { defineOpCommand } from '../command.js';
import { MEMORY_FILE_OPTION, memoryFileInput, parseProps, savedLines } from './_graph.js';

export const command = defineOpCommand<RelateOutput>({
  name: 'graph relate',
  summary: 'add a typed relationship FROM -TYPE-> TO, or merge its properties',
  usage: '<FROM> <TYPE> <TO> [options]',
  description: [
    'Both entities must exist: otherwise nothing changes and the command says which end is missing (exit 1).',
    'At most one relationship per (FROM, TO, TYPE): relating again merges the properties.',
  ].join('\n'),
  options: {
    prop: { type: 'string', multiple: true, value: 'K=V', description: 'a property of the relationship (JSON value or string)' },
    ...MEMORY_FILE_OPTION,
  },
  positionals: [3, 3],
  exits: { 1: 'an end of the relationship does not exist (nothing changed)' },
  examples: ['lore graph relate "Web App" calls "Auth Service"', 'lore graph relate "Auth Service" reads_from "User DB" --prop pool=5'],
  op: 'graph.relate',
  input(ctx) {
    const [from, type, to] = ctx.args as [string, string, string];
    return { from, type, to, properties: parseProps(ctx.strings('prop')), ...memoryFileInput(ctx) };
  },
  print(output, ctx) {
    ctx.print(`${output.change} relationship ${describeRelationship(output.relationship)}`);
    for (const line of savedLines(output.saved)) ctx.print(line);
  },
});

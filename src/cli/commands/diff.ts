import type { KnowledgeDiff } from '../../guard/knowledge-diff.js';
import { diffToMarkdown } from '../../guard/report-diff.js';
import { defineOpCommand } from '../command.js';

export const command = defineOpCommand<KnowledgeDiff>({
  name: 'diff',
  summary: 'summarise what changed in .knowledge/ between two refs, riskiest first (for PRs)',
  usage: '<BASE...HEAD> [options]',
  description: [
    'Compares .knowledge/ at the merge base of BASE and HEAD with HEAD: entries added, removed and changed',
    'field by field, gate thresholds, role constraints, overrides, allowlist records, graph entities,',
    'configuration, lines appended to logs, and problems introduced. Changes that weaken enforcement',
    '(a prohibition lowered, disabled or deleted, a gate lowered, a must_not_do removed, a new exception)',
    'come first. Markdown by default: one comment a reviewer reads in a minute.',
  ].join('\n'),
  options: { format: { type: 'enum', values: ['markdown', 'json'], value: 'FORMAT', description: 'markdown (default) or json' } },
  positionals: [1, 1],
  examples: ['lore diff origin/main...HEAD', 'lore diff origin/main...HEAD --format json', 'lore diff main...feature > comment.md'],
  op: 'guard.diff',
  input: (ctx) => ({ range: ctx.args[0]! }),
  print(diff, ctx) {
    if (ctx.string('format') === 'json') ctx.printJson(diff);
    else ctx.print(diffToMarkdown(diff).trimEnd());
  },
});

import { UsageError } from '../../errors.js';
import { VERDICTS } from '../../dag/line.js';
import type { AppendResult } from '../../dag/dag.js';
import { defineOpCommand } from '../command.js';
import { DAG_OPTIONS, dagInput } from './_dag.js';

export const command = defineOpCommand<AppendResult>({
  name: 'dag critic',
  summary: "review a node: append a critic's verdict",
  usage: '--target ID --verdict VERDICT [--reason TEXT] [options]',
  description: [
    'Appends a critic node whose parent and target is the reviewed node, and in the same locked step an updated line of the target with the critic among its children.',
    'Verdicts: approved, needs_revision, reject. The critic node belongs to the target\'s project.',
  ].join('\n\n'),
  options: {
    target: { type: 'string', value: 'ID', description: 'the node reviewed' },
    verdict: { type: 'enum', values: VERDICTS, value: 'VERDICT', description: 'approved, needs_revision or reject' },
    reason: { type: 'string', value: 'TEXT', description: 'why (verdictReason)' },
    thought: { type: 'string', value: 'TEXT', description: 'the text of the critic node (default: the reason, else the verdict)' },
    reference: { type: 'string', multiple: true, value: 'REF', description: 'a file, id or URL the verdict refers to' },
    tag: { type: 'string', multiple: true, value: 'TAG', description: 'a tag for the critic node' },
    id: { type: 'string', value: 'ID', description: 'the critic node id (default: generated)' },
    ...DAG_OPTIONS,
  },
  positionals: [0, 0],
  examples: [
    'lore dag critic --target 1f2e3d4c5b6a --verdict needs_revision --reason "no test covers the empty file"',
    'lore dag critic --target 9a8b7c6d5e4f --verdict approved --json',
  ],
  op: 'dag.critic',
  input(ctx) {
    const target = ctx.string('target');
    const verdict = ctx.string('verdict');
    if (target === undefined || verdict === undefined) throw new UsageError('lore dag critic needs --target ID and --verdict approved|needs_revision|reject');
    const optional = (key: string, value: string | undefined): Record<string, string> => (value === undefined ? {} : { [key]: value });
    return {
      target,
      verdict,
      ...optional('verdictReason', ctx.string('reason')),
      ...optional('thought', ctx.string('thought')),
      ...optional('id', ctx.string('id')),
      ...(ctx.strings('reference').length === 0 ? {} : { verdictReferences: ctx.strings('reference') }),
      tags: ctx.strings('tag'),
      ...dagInput(ctx),
    };
  },
  print(result, ctx) {
    const reason = result.node.verdictReason === undefined ? '' : ` (${result.node.verdictReason})`;
    ctx.print(`critic ${result.node.id} on ${result.node.target}: ${result.node.verdict}${reason}`);
  },
});

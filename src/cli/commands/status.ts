import type { StatusOutput } from '../../ops/store/status.js';
import { KINDS, RECORD_KINDS } from '../../store/layout.js';
import { defineOpCommand } from '../command.js';
import { plural, table } from '../format.js';

export const command = defineOpCommand<StatusOutput>({
  name: 'status',
  summary: 'summarise the store: records per kind, logs, validity',
  usage: '[options]',
  description: 'What `npm start` runs on this repository. Exit 0 when the store is valid, 1 when it is not.',
  options: {},
  positionals: [0, 0],
  exits: { 1: 'the store is invalid' },
  examples: ['lore status', 'lore status --json'],
  op: 'store.status',
  input: () => ({}),
  exit: (status) => (status.valid ? 0 : 1),
  print(status, ctx) {
    ctx.print(`${ctx.style.bold('lore store')} ${status.root}/.knowledge${status.project === null ? '' : ` (project ${status.project})`}`);
    ctx.print('');
    ctx.print(table(RECORD_KINDS.map((kind) => [`  ${KINDS[kind].label}`, String(status.counts[kind])]), ctx.columns));
    for (const log of status.logs) ctx.print(`  ${log.file}: ${plural(log.lines, 'line')}`);
    ctx.print('');
    const verdict = `${plural(status.errors, 'error')}, ${plural(status.warnings, 'warning')}`;
    ctx.print(status.valid ? ctx.style.green(`valid (${verdict})`) : ctx.style.red(`invalid (${verdict}): run "lore validate" for details`));
  },
});

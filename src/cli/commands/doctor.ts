import type { DoctorReport } from '../../store/doctor.js';
import { defineOpCommand } from '../command.js';

export const command = defineOpCommand<DoctorReport>({
  name: 'doctor',
  summary: 'find (and with --fix remove) what crashes left in the store',
  usage: '[--fix] [options]',
  description: [
    'A killed lore process can leave a temp file of a write it never finished, a lock file it never released,',
    'or the journal of an operation it was applying. None of it is knowledge. lore doctor lists it, and what',
    "the store's .gitignore would let into a commit. With --fix it completes (or undoes) the interrupted",
    "operation, removes the leftovers of processes that are gone and adds the missing .gitignore lines, under",
    "the store's write lock. Exit 0 when there is nothing to fix (or it was fixed), 1 when something needs --fix.",
  ].join('\n'),
  options: { fix: { type: 'boolean', description: 'complete the interrupted operation, remove the leftovers, fix .gitignore' } },
  positionals: [0, 0],
  exits: { 1: 'something needs --fix' },
  examples: ['lore doctor', 'lore doctor --fix'],
  op: 'store.doctor',
  input: (ctx) => ({ fix: ctx.flag('fix') }),
  exit: (report) => (!report.fix && report.items.length > 0 ? 1 : 0),
  print(report, ctx) {
    const { recovered } = report;
    if (recovered !== undefined) ctx.print(`${recovered.action} an interrupted ${recovered.operation} of process ${recovered.pid} (${recovered.files} file${recovered.files === 1 ? '' : 's'})`);
    for (const item of report.items) ctx.print(`${item.file}: ${item.message}`);
    if (report.items.length === 0 && recovered === undefined) ctx.print(ctx.style.green('nothing to fix: no crash leftovers, .gitignore complete'));
    else if (!report.fix && report.items.length > 0) ctx.print(ctx.style.yellow('lore doctor --fix deals with them'));
  },
});

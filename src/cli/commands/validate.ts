import type { ValidateOutput } from '../../ops/store/validate.js';
import { defineOpCommand } from '../command.js';
import { formatProblem, plural } from '../format.js';

export const command = defineOpCommand<ValidateOutput>({
  name: 'validate',
  summary: 'check every file of the store against its schema and rules',
  usage: '[options]',
  description: [
    'Checks every record and log line: schema errors, duplicate ids, file names that do not match ids,',
    'regexes and globs that cannot be used, overlapping gate ranges, relationships to missing entities',
    '(a warning) and files that are not part of the format. Lists every problem with its file, line,',
    'column and field. Exit 0 when valid (warnings allowed), 1 when invalid, 2 when it could not run.',
  ].join('\n'),
  options: {},
  positionals: [0, 0],
  exits: { 1: 'the store is invalid (warnings alone are not)' },
  examples: ['lore validate', 'lore validate --json'],
  op: 'store.validate',
  input: () => ({}),
  exit: (report) => (report.valid ? 0 : 1),
  print(report, ctx) {
    for (const problem of report.problems) ctx.print(formatProblem(problem, ctx.style));
    const summary = `checked ${plural(report.files, 'record file')} and ${plural(report.logs, 'log')}: ${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}`;
    ctx.print(report.valid ? ctx.style.green(summary) : ctx.style.red(summary));
  },
});

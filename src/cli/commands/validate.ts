import { validateStore } from '../../store/validate.js';
import { defineCommand } from '../command.js';
import { formatProblem, plural, sortProblems } from '../format.js';

export const command = defineCommand({
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
  examples: ['lore validate', 'lore validate --json'],
  async run(ctx) {
    const store = await ctx.openStore({ allowInvalidConfig: true });
    const report = await validateStore(store, { onProgress: (done, total) => ctx.progress(`reading ${done}/${total} files...`) });
    ctx.progress(undefined);
    const problems = sortProblems(report.problems);
    if (ctx.json) {
      ctx.printJson({ valid: report.valid, files: report.files, records: report.records.length, errors: report.errors, warnings: report.warnings, problems });
    } else {
      for (const problem of problems) ctx.print(formatProblem(problem, ctx.style));
      const summary = `checked ${plural(report.files, 'record file')} and ${plural(report.logs.length, 'log')}: ${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}`;
      ctx.print(report.valid ? ctx.style.green(summary) : ctx.style.red(summary));
    }
    return report.valid ? 0 : 1;
  },
});

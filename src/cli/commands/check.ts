import { UsageError } from '../../errors.js';
import type { CheckOutput } from '../../ops/guard/check.js';
import { defineOpCommand } from '../command.js';
import { formatOf, printReport } from './_guard-output.js';

export const command = defineOpCommand<CheckOutput>({
  name: 'check',
  summary: 'check a change against the prohibitions: staged, a range of commits, or files',
  usage: '[--staged | --range BASE...HEAD | --files PATH...] [options]',
  description: [
    'Tests the paths of a change against prohibitions\' patterns and globs, and its added lines against',
    'their content regexes. A critical match blocks (exit 1); lower priorities warn (exit 0). The rules',
    'are those committed before the change plus those in it, so a change cannot weaken a rule to let',
    'itself through. The report always says what was scanned.',
    '',
    '--staged (the default) reads the index exactly as git will commit it. --range checks every commit',
    'from the merge base (for CI; an empty range is an error). --files checks whole working-tree files.',
  ].join('\n'),
  options: {
    staged: { type: 'boolean', description: 'check the staged change (default)' },
    range: { type: 'string', value: 'BASE...HEAD', description: 'check every commit of a range, e.g. origin/main...HEAD' },
    files: { type: 'boolean', description: 'check the files given as arguments' },
    format: { type: 'enum', values: ['text', 'json', 'sarif', 'markdown'], value: 'FORMAT', description: 'text (default), json, sarif or markdown' },
    baseline: { type: 'string', value: 'FILE', description: 'ignore findings recorded in this baseline' },
    'write-baseline': { type: 'string', value: 'FILE', description: 'record the current findings as a baseline' },
    verbose: { type: 'boolean', description: 'also list suppressed and allowed findings, and the role decision' },
  },
  positionals: [0, Infinity],
  exits: { 1: 'a critical prohibition matches the change (not with --write-baseline)' },
  examples: ['lore check', 'lore check --range origin/main...HEAD --format sarif > lore.sarif', 'lore check --files .env config/app.yaml', 'lore check --range origin/main...HEAD --write-baseline .lore-baseline.json'],
  op: 'guard.check',
  input(ctx) {
    formatOf(ctx);
    const modes = [ctx.flag('staged'), ctx.string('range') !== undefined, ctx.flag('files')].filter(Boolean).length;
    if (modes > 1) throw new UsageError('give only one of --staged, --range and --files');
    if (ctx.args.length > 0 && !ctx.flag('files')) throw new UsageError(`unexpected argument "${ctx.args[0]}"`, 'to check files, use lore check --files PATH...');
    if (ctx.flag('files') && ctx.args.length === 0) throw new UsageError('--files needs at least one path');
    const [range, baseline, writeBaseline] = [ctx.string('range'), ctx.string('baseline'), ctx.string('write-baseline')];
    return {
      ...(range !== undefined ? { range } : ctx.flag('files') ? { files: ctx.args } : { staged: true }),
      ...(baseline === undefined ? {} : { baseline }),
      ...(writeBaseline === undefined ? {} : { writeBaseline }),
    };
  },
  // Writing a baseline records the findings; it does not block.
  exit: (report) => (report.baselineWritten === undefined && report.blocked ? 1 : 0),
  print(report, ctx) {
    if (report.baselineWritten !== undefined) {
      ctx.note(`lore: wrote ${report.baselineWritten} finding${report.baselineWritten === 1 ? '' : 's'} to the baseline ${ctx.string('write-baseline')}`);
      return 0;
    }
    const format = formatOf(ctx);
    // --format json prints what --json prints: the operation's output.
    if (format === 'json') {
      ctx.printJson(report);
      return report.blocked ? 1 : 0;
    }
    return printReport(ctx, { ...report, project: report.project ?? undefined, role: report.role ?? undefined }, format);
  },
});

import type { RuleTestReport } from '../../guard/rule-tests.js';
import { defineOpCommand } from '../command.js';
import { plural } from '../format.js';

export const command = defineOpCommand<RuleTestReport & { passed: boolean }>({
  name: 'test',
  summary: "run the prohibitions' rule tests",
  usage: '[ids...] [options]',
  description: [
    'Runs every rule test of every prohibition (or of the ones named): each input under tests.match must',
    'match and each under tests.noMatch must not, through the matching the commit guard (paths, added',
    'lines) and lore check-plan (plan texts) use. Exit 0 when all pass, 1 naming each rule and test that',
    'failed, 2 when it could not run. lore validate runs them too.',
  ].join('\n'),
  options: {},
  positionals: [0, Infinity],
  exits: { 1: 'a rule test failed' },
  examples: ['lore test', 'lore test secrets-env-files --json'],
  op: 'guard.test',
  input: (ctx) => (ctx.args.length === 0 ? {} : { ids: ctx.args }),
  exit: (report) => (report.passed ? 0 : 1),
  print(report, ctx) {
    for (const failure of report.failures) ctx.print(`${ctx.style.red('FAIL')} ${failure.entryId} (${failure.file}): ${failure.message}`);
    const summary = `${plural(report.tests, 'rule test')} of ${plural(report.rules, 'prohibition')}: ${report.failures.length === 0 ? 'all passed' : `${report.failures.length} failed`}`;
    ctx.print(report.passed ? ctx.style.green(summary) : ctx.style.red(summary));
  },
});

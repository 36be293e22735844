import type { KnowledgeCheckResult, ProhibitionMatch } from '../../knowledge/pre-task-check.js';
import { defineOpCommand, type CommandContext } from '../command.js';
import { plural } from '../format.js';
import { readTaskPlan, TASK_PLAN_OPTIONS } from '../_knowledge.js';

function printMatches(ctx: CommandContext, label: string, matches: readonly ProhibitionMatch[]): void {
  for (const match of matches) {
    const { knowledge } = match;
    ctx.print(`  ${label === 'blocker' ? ctx.style.red(label) : ctx.style.yellow(label)}  ${knowledge.id}  [${knowledge.priority}] ${knowledge.title}${knowledge.from === undefined ? '' : ` (from ${knowledge.from})`}`);
    const unlisted = match.unlistedPaths ?? 0;
    // Paths come first in `matches`: the count of unlisted ones goes after the last listed path.
    const keywordsFrom = match.matches.findIndex((reason) => reason.kind === 'keyword');
    match.matches.forEach((reason, i) => {
      if (i === keywordsFrom && unlisted > 0) ctx.print(`           ... and ${plural(unlisted, 'more file')}`);
      ctx.print(`           ${reason.reason}`);
    });
    if (keywordsFrom === -1 && unlisted > 0) ctx.print(`           ... and ${plural(unlisted, 'more file')}`);
  }
}

export const command = defineOpCommand<KnowledgeCheckResult & { warningsOmitted?: number }>({
  name: 'check-plan',
  summary: 'check a task plan against the knowledge base before the task starts',
  usage: '[--task FILE --plan FILE] [options]',
  description: [
    'Matches every applicable prohibition against the plan: its patterns and globs against the paths of',
    'fileChanges, its keywords against the approach as whole words ("env" does not match "environment";',
    '"env*" would). A critical match blocks when pre_task_check.block_on_critical (exit 1, canProceed false);',
    'other matches warn. Adds the most relevant recommendations (max_recommendations) and learnings',
    '(max_learnings) and a token-budgeted summary. Without --task and --plan it reads one',
    '{ "task": ..., "plan": ... } object from stdin. An invalid prohibition stops the check (it could be the',
    'one the plan breaks). Exit 0 proceed, 1 blocked, invalid input or an invalid prohibition, 2 usage.',
  ].join('\n'),
  options: {
    ...TASK_PLAN_OPTIONS,
    budget: { type: 'integer', min: 1, value: 'TOKENS', description: 'token budget of the summary (default 800)' },
    'max-warnings': { type: 'integer', min: 1, value: 'N', description: 'list at most N warnings, the most severe first (default: every one)' },
  },
  positionals: [0, 0],
  exits: { 1: 'the plan is blocked (a critical prohibition matches), its input is invalid, or a prohibition is invalid' },
  examples: ['lore check-plan --task task.json --plan plan.json', 'cat task-and-plan.json | lore check-plan --json'],
  op: 'plan.check',
  daemon: true,
  async input(ctx) {
    const budget = ctx.number('budget');
    return { ...(await readTaskPlan(ctx)), ...(budget === undefined ? {} : { budget }), maxWarnings: ctx.number('max-warnings') ?? 0 };
  },
  exit: (result) => (result.canProceed ? 0 : 1),
  print(result, ctx) {
    if (!result.enabled) return void ctx.print(result.summary);
    const warnings = result.warnings.length + (result.warningsOmitted ?? 0);
    // With pre_task_check.block_on_critical false a critical match is listed as a warning: say so rather than "none matches".
    const critical = result.warnings.filter((w) => w.knowledge.priority === 'critical').length;
    const why = critical > 0
      ? `${plural(critical, 'critical prohibition matches', 'critical prohibitions match')} the plan but ${critical === 1 ? 'does' : 'do'} not block (pre_task_check.block_on_critical is false)`
      : 'no critical prohibition matches the plan';
    const verdict = result.canProceed
      ? (critical > 0 ? ctx.style.yellow : ctx.style.green)(`can proceed${warnings > 0 ? ` with ${plural(warnings, 'warning')}` : ''}: ${why}`)
      : ctx.style.red(`BLOCKED: ${plural(result.blockers.length, 'critical prohibition matches', 'critical prohibitions match')} the plan`);
    ctx.print(verdict);
    printMatches(ctx, 'blocker', result.blockers);
    printMatches(ctx, 'warning', result.warnings);
    if (result.warningsOmitted !== undefined) ctx.print(`  ... and ${plural(result.warningsOmitted, 'more warning')} (--max-warnings)`);
    for (const [label, items] of [['recommendations', result.recommendations], ['learnings', result.learnings]] as const) {
      if (items.length === 0) continue;
      ctx.print(`${label} (${items.length})`);
      for (const { knowledge } of items) ctx.print(`  ${knowledge.id}  [${knowledge.priority}] ${knowledge.title}${knowledge.from === undefined ? '' : ` (from ${knowledge.from})`}`);
    }
    ctx.print(ctx.style.dim(`checked ${plural(result.checked.prohibitions, 'applicable prohibition')} against ${plural(result.checked.files, 'file change')} and the approach`));
  },
});

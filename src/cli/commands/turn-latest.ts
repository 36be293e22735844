import { projectOf } from '../../entities/sources.js';
import { escalationFor, latestTurn, readTurnLog, type TurnLog } from '../../turns/turn-log.js';
import type { TurnState } from '../../types.js';
import { defineCommand, type CommandContext } from '../command.js';
import { formatProblem } from '../format.js';
import { PROJECT_OPTION, required } from './_player-coach.js';

export const TURN_LOG_OPTIONS = {
  feature: { type: 'string', value: 'F', description: 'the feature (FEAT-XXX)' },
  ref: { type: 'string', value: 'REV', description: 'read the log as committed in REV (what hooks and CI use), not the working tree' },
  ...PROJECT_OPTION,
} as const;

/** Reads the turn log a command names; skipped lines are reported on stderr. */
export async function openTurnLog(ctx: CommandContext, name: string): Promise<TurnLog> {
  const store = await ctx.openStore();
  const log = await readTurnLog({ store, project: projectOf(store, ctx.string('project')), feature: required(ctx, 'feature', name), ref: ctx.string('ref'), env: ctx.env });
  for (const problem of log.problems) ctx.note(formatProblem({ ...problem, severity: 'warning' }, ctx.style));
  return log;
}

/** Where a log was read: "feature F of project P" plus "at REV". */
export function logName(log: TurnLog): string {
  return `feature ${log.feature} of project ${log.project}${log.ref === undefined ? '' : ` at ${log.ref}`}`;
}

function describeTurn(t: TurnState): string[] {
  const ac = Object.entries(t.acceptance_criteria_status).map(([id, s]) => `${id} ${s}`).join(', ');
  const gates = t.quality_gate_results === null ? 'none recorded' : typeof t.quality_gate_results.passed === 'boolean' ? (t.quality_gate_results.passed ? 'passed' : 'failed') : 'recorded';
  return [
    `${t.id} (turn ${t.turn_number}, task ${t.task_id}, ${t.timestamp})`,
    `  player: ${t.player_decision}`,
    `  coach: ${t.coach_decision}${t.coach_reason === undefined ? '' : ` - ${t.coach_reason}`}`,
    `  progress: ${t.progress_summary}`,
    `  acceptance criteria: ${ac === '' ? 'none' : ac}`,
    `  blockers: ${t.blockers_found.length === 0 ? 'none' : t.blockers_found.join(' | ')}`,
    `  mode: ${t.mode}`,
    `  quality gates: ${gates}`,
  ];
}

export const command = defineCommand({
  name: 'turn latest',
  summary: 'show the latest turn of a feature',
  usage: '--feature F [options]',
  description: [
    'The latest turn is the highest turn_number, then the newest timestamp (not the last line of the log).',
    'With --ref, the log is read from that commit through git. When the task of the latest turn has had',
    "three or more consecutive revise verdicts, it says that the coach's escalate_when rule applies.",
  ].join('\n'),
  options: TURN_LOG_OPTIONS,
  positionals: [0, 0],
  examples: ['lore turn latest --feature FEAT-001', 'lore turn latest --feature FEAT-001 --ref HEAD --json'],
  async run(ctx) {
    const log = await openTurnLog(ctx, 'turn latest');
    const turn = latestTurn(log.turns);
    const escalation = turn === undefined ? null : escalationFor(log.turns, turn.task_id);
    if (ctx.json) {
      ctx.printJson({ project: log.project, feature: log.feature, file: log.file, ref: log.ref ?? null, completed: log.completion !== undefined, turn: turn ?? null, escalation });
      return;
    }
    if (turn === undefined) {
      ctx.print(`no turns recorded for ${logName(log)}`);
      return;
    }
    ctx.print(describeTurn(turn).join('\n'));
    if (log.completion !== undefined) ctx.print(`  feature completed at ${log.completion.timestamp}`);
    if (escalation !== null) {
      ctx.print(ctx.style.yellow(`escalate: ${escalation.task} has had ${escalation.streak} consecutive revise verdicts; the coach's escalate_when rule applies`));
    }
  },
});

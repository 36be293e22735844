import type { TurnLatestOutput } from '../../ops/player-coach/turn-latest.js';
import type { TurnState } from '../../types.js';
import { defineOpCommand } from '../command.js';
import { logName, TURN_LOG_OPTIONS, turnLogInput } from './_player-coach.js';

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

export const command = defineOpCommand<TurnLatestOutput>({
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
  op: 'turn.latest',
  daemon: true,
  input: (ctx) => turnLogInput(ctx, 'turn latest'),
  print(latest, ctx) {
    const { turn, escalation } = latest;
    if (turn === null) {
      ctx.print(`no turns recorded for ${logName(latest)}`);
      return;
    }
    ctx.print(describeTurn(turn).join('\n'));
    if (latest.completed_at !== null) ctx.print(`  feature completed at ${latest.completed_at}`);
    if (escalation !== null) {
      ctx.print(ctx.style.yellow(`escalate: ${escalation.task} has had ${escalation.streak} consecutive revise verdicts; the coach's escalate_when rule applies`));
    }
  },
});

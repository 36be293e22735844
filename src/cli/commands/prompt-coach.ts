import type { CoachPrompt } from '../../prompt/coach-prompt.js';
import { defineOpCommand } from '../command.js';
import { PROJECT_OPTION, required, requiredNumber, TASK_OPTIONS, taskInput } from './_player-coach.js';

const NAME = 'prompt coach';

export const command = defineOpCommand<CoachPrompt>({
  name: NAME,
  summary: "print the coach's prompt for a turn: role, quality gates, previous turn",
  usage: '--task-type T --complexity N --feature F --task K --turn N [options]',
  description: [
    "Prints the coach's constraints (with the project's additions), the quality gates of the task and,",
    'from turn 2 on, the context of the latest recorded turn before this one. In "Turn N of M", N is',
    'the turn this prompt is for and M the turn budget (--max-turns, default turns.max_turns in',
    'config.yaml). After three or more consecutive revise verdicts on the task, the prompt says the',
    "coach's escalate_when rule applies.",
  ].join('\n'),
  options: {
    ...TASK_OPTIONS,
    feature: { type: 'string', value: 'F', description: 'the feature being built (FEAT-XXX)' },
    task: { type: 'string', value: 'K', description: 'the task being validated (TASK-XXX)' },
    turn: { type: 'integer', min: 1, value: 'N', description: 'the turn this prompt is for, from 1' },
    'max-turns': { type: 'integer', min: 1, value: 'M', description: 'the turn budget shown as "Turn N of M" (default: turns.max_turns)' },
    ...PROJECT_OPTION,
  },
  positionals: [0, 0],
  examples: [
    'lore prompt coach --task-type feature --complexity 5 --feature FEAT-001 --task TASK-003 --turn 1',
    'lore prompt coach --task-type feature --complexity 5 --feature FEAT-001 --task TASK-003 --turn 2 --project acme --json',
  ],
  op: 'prompt.coach',
  daemon: true,
  input(ctx) {
    const { project, ...task } = taskInput(ctx, NAME);
    const maxTurns = ctx.number('max-turns');
    return {
      ...task,
      feature_id: required(ctx, 'feature', NAME),
      task_id: required(ctx, 'task', NAME),
      turn_number: requiredNumber(ctx, 'turn', NAME),
      ...(maxTurns === undefined ? {} : { max_turns: maxTurns }),
      ...(project === undefined ? {} : { project }),
    };
  },
  print(prompt, ctx) {
    ctx.print(prompt.text);
  },
});

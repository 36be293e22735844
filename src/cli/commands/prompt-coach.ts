import { buildCoachPrompt } from '../../prompt/coach-prompt.js';
import { defineCommand } from '../command.js';
import { integer, PROJECT_OPTION, required, TASK_OPTIONS } from './_player-coach.js';

export const command = defineCommand({
  name: 'prompt coach',
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
    turn: { type: 'string', value: 'N', description: 'the turn this prompt is for, from 1' },
    'max-turns': { type: 'string', value: 'M', description: 'the turn budget shown as "Turn N of M" (default: turns.max_turns)' },
    ...PROJECT_OPTION,
  },
  positionals: [0, 0],
  examples: [
    'lore prompt coach --task-type feature --complexity 5 --feature FEAT-001 --task TASK-003 --turn 1',
    'lore prompt coach --task-type feature --complexity 5 --feature FEAT-001 --task TASK-003 --turn 2 --project acme --json',
  ],
  async run(ctx) {
    const store = await ctx.openStore();
    const name = 'prompt coach';
    const prompt = await buildCoachPrompt({
      store,
      taskType: required(ctx, 'task-type', name),
      complexity: integer(ctx, 'complexity', name),
      feature: required(ctx, 'feature', name),
      task: required(ctx, 'task', name),
      turn: integer(ctx, 'turn', name),
      maxTurns: integer(ctx, 'max-turns', name, store.config.turns.max_turns),
      project: ctx.string('project'),
    });
    if (prompt.turn > prompt.max_turns) ctx.note(`note: turn ${prompt.turn} is past the turn budget of ${prompt.max_turns} (--max-turns, turns.max_turns)`);
    if (ctx.json) {
      ctx.printJson(prompt);
      return;
    }
    ctx.print(prompt.text);
  },
});

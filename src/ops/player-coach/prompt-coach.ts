import { buildCoachPrompt, type CoachPrompt } from '../../prompt/coach-prompt.js';
import { defineOp } from '../_define.js';
import type { TaskInput } from './_task.js';

export interface PromptCoachInput extends TaskInput {
  feature_id: string;
  task_id: string;
  /** The turn the prompt is for, from 1. */
  turn_number: number;
  /** The turn budget (default: config.yaml's turns.max_turns). */
  max_turns?: number;
}

export const op = defineOp<PromptCoachInput, CoachPrompt>({
  name: 'prompt.coach',
  async run(input, { ws, note }) {
    const prompt = await buildCoachPrompt({
      store: await ws.store(),
      taskType: input.task_type,
      complexity: input.complexity,
      feature: input.feature_id,
      task: input.task_id,
      turn: input.turn_number,
      maxTurns: input.max_turns,
      project: input.project,
    });
    if (prompt.turn > prompt.max_turns) note(`note: turn ${prompt.turn} is past the turn budget of ${prompt.max_turns} (--max-turns, turns.max_turns)`);
    return prompt;
  },
});

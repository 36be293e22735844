import { suggestMode, type ModeSuggestion } from '../../entities/modes.js';
import { defineOp } from '../_define.js';
import type { TaskInput } from './_task.js';

export interface ModeSuggestOutput {
  task_type: string;
  complexity: number;
  /** Null when no mode covers the complexity: the task proceeds without advice. */
  suggestion: ModeSuggestion | null;
}

export const op = defineOp<Omit<TaskInput, 'project'>, ModeSuggestOutput>({
  name: 'mode.suggest',
  async run(input, { ws }) {
    const suggestion = await suggestMode({ store: await ws.store(), taskType: input.task_type, complexity: input.complexity });
    return { task_type: input.task_type, complexity: input.complexity, suggestion: suggestion ?? null };
  },
});

import { buildAgentPrompt } from '../../prompt/agent-prompt.js';
import type { TaskPlanInput } from '../../types.js';
import { defineOp } from '../_define.js';
import { checkPlan } from './_check.js';

export const op = defineOp<TaskPlanInput, { prompt: string; canProceed: boolean }>({
  name: 'prompt.agent',
  async run(input, ctx) {
    const check = await checkPlan(input, ctx);
    return { prompt: buildAgentPrompt(input.task, input.plan, check), canProceed: check.canProceed };
  },
});

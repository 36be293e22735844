import type { KnowledgeCheckResult } from '../../knowledge/pre-task-check.js';
import type { TaskPlanInput } from '../../types.js';
import { defineOp } from '../_define.js';
import { checkPlan } from './_check.js';

export const op = defineOp<TaskPlanInput & { budget?: number }, KnowledgeCheckResult>({
  name: 'plan.check',
  run: checkPlan,
});

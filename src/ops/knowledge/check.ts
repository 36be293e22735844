import type { KnowledgeCheckResult } from '../../knowledge/pre-task-check.js';
import type { TaskPlanInput } from '../../types.js';
import { defineOp } from '../_define.js';
import { checkPlan } from './_check.js';

/** Warnings listed when the input does not say: enough to act on, small enough for an agent's context. */
const DEFAULT_MAX_WARNINGS = 25;

export const op = defineOp<TaskPlanInput & { budget?: number; maxWarnings?: number }, KnowledgeCheckResult & { warningsOmitted?: number }>({
  name: 'plan.check',
  async run(input, ctx) {
    const result = await checkPlan(input, ctx);
    // Blockers are never cut; warnings come most severe first, so the cut keeps those.
    const max = input.maxWarnings ?? DEFAULT_MAX_WARNINGS;
    if (max === 0 || result.warnings.length <= max) return result;
    return { ...result, warnings: result.warnings.slice(0, max), warningsOmitted: result.warnings.length - max };
  },
});

// plan.check and prompt.agent: the pre-task check on the index the workspace keeps.
import { checkPlanLoaded, type KnowledgeCheckResult } from '../../knowledge/pre-task-check.js';
import type { TaskPlanInput } from '../../types.js';
import type { OpContext } from '../_define.js';
import { knowledgeIndex, noteSkipped } from './_knowledge.js';

/** The pre-task check of a task and plan; invalid files are noted, not returned. */
export async function checkPlan(input: TaskPlanInput & { budget?: number }, { ws, note }: OpContext): Promise<KnowledgeCheckResult> {
  const store = await ws.store();
  const { problems, ...result } = await checkPlanLoaded(store, () => knowledgeIndex(ws), { task: input.task, plan: input.plan, env: ws.env, budget: input.budget });
  noteSkipped(note, problems);
  return result;
}

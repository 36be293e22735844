// The knowledge-augmented agent prompt of the knowledge-base spec (buildAgentPrompt): task, plan,
// then blockers, warnings, recommendations and at most three learnings; empty sections are left out.
import type { KnowledgeCheckResult } from '../knowledge/pre-task-check.js';
import type { DevelopmentPlan, KnowledgeEntry, TaskContext } from '../types.js';

/** At most this many learnings go into the prompt. */
export const PROMPT_LEARNINGS = 3;

const item = (entry: KnowledgeEntry): string => `- ${entry.title}: ${entry.description}\n`;

/**
 * The prompt an agent gets before it starts: the spec's format, section for section. One
 * deliberate difference: a learning whose first example has no good approach gets no
 * "Good approach:" line (the spec would print "undefined").
 *
 * @example
 * const check = await checkBeforeTask({ store, task, plan });
 * buildAgentPrompt(task, plan, check); // '## Task\nAdd config loading\n\n## Plan\n...'
 */
export function buildAgentPrompt(task: TaskContext, plan: DevelopmentPlan, check: Pick<KnowledgeCheckResult, 'blockers' | 'warnings' | 'recommendations' | 'learnings'>): string {
  let prompt = `## Task\n${task.description}\n\n`;
  prompt += `## Plan\n${plan.approach}\n\n`;
  if (check.blockers.length > 0) {
    prompt += '## CRITICAL BLOCKERS - DO NOT PROCEED\n';
    for (const blocker of check.blockers) prompt += `${item(blocker.knowledge)}  Reason: ${blocker.matchReason}\n`;
    prompt += '\n';
  }
  if (check.warnings.length > 0) {
    prompt += '## Warnings - Proceed with Caution\n';
    for (const warning of check.warnings) prompt += item(warning.knowledge);
    prompt += '\n';
  }
  if (check.recommendations.length > 0) {
    prompt += '## Recommendations\n';
    for (const rec of check.recommendations) prompt += item(rec.knowledge);
    prompt += '\n';
  }
  if (check.learnings.length > 0) {
    prompt += '## Relevant Learnings from Past Tasks\n';
    for (const learning of check.learnings.slice(0, PROMPT_LEARNINGS)) {
      prompt += item(learning.knowledge);
      const good = learning.knowledge.examples?.[0]?.goodApproach;
      if (good !== undefined) prompt += `  Good approach: ${good}\n`;
    }
    prompt += '\n';
  }
  return prompt;
}

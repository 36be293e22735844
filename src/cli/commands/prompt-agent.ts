import { defineOpCommand } from '../command.js';
import { readTaskPlan, TASK_PLAN_OPTIONS } from '../_knowledge.js';

export const command = defineOpCommand<{ prompt: string; canProceed: boolean }>({
  name: 'prompt agent',
  summary: 'the knowledge-augmented prompt for an agent about to start a task',
  usage: '[--task FILE --plan FILE] [options]',
  description: [
    'Runs the pre-task check and prints the prompt of the knowledge-base spec: ## Task, ## Plan, then',
    '## CRITICAL BLOCKERS - DO NOT PROCEED (with the reason), ## Warnings - Proceed with Caution,',
    '## Recommendations and ## Relevant Learnings from Past Tasks (at most 3, with the first example\'s good',
    'approach). Empty sections are left out. Exit 0 whenever the prompt was built: blockers are in the',
    'prompt; lore check-plan is the gate. Input as for lore check-plan.',
  ].join('\n'),
  options: { ...TASK_PLAN_OPTIONS },
  positionals: [0, 0],
  examples: ['lore prompt agent --task task.json --plan plan.json', 'lore prompt agent --task task.json --plan plan.json --json'],
  op: 'prompt.agent',
  daemon: true,
  input: (ctx) => readTaskPlan(ctx),
  print(output, ctx) {
    // The prompt ends with its own blank line; print it byte for byte.
    ctx.print(output.prompt.replace(/\n$/, ''));
  },
});

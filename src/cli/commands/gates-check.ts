import { parseGateResults, type GateEvaluation, type GateOutcome } from '../../entities/gate-check.js';
import { defineOpCommand } from '../command.js';
import { plural } from '../format.js';
import { PROJECT_OPTION, required, TASK_OPTIONS, taskInput } from './_player-coach.js';
import { readInputText, storeInputLimit } from '../_input.js';

const NAME = 'gates check';
const pct = (n: number): string => `${+(n * 100).toFixed(2)}%`;

/** One gate's line for people: "coverage: failed (measured 78% vs threshold 80%)". */
export function gateLine(g: GateOutcome): string {
  if (g.status === 'not_required') return `${g.gate}: not required`;
  let detail: string;
  if (g.missing !== undefined) {
    detail = `missing ${g.missing.join(' and ')} in the results`;
  } else if (g.gate === 'tests') {
    const { passed, failed } = g.tests!;
    detail = passed + failed === 0 ? 'no tests ran' : `${passed} passed, ${failed} failed${g.must_pass ? '; all must pass' : ''}`;
  } else {
    const show = g.gate === 'coverage' ? pct : String;
    detail = `measured ${show(g.measured!)} vs threshold ${show(g.threshold ?? 0)}`;
  }
  return `${g.gate}: ${g.status} (${detail})`;
}

export const command = defineOpCommand<GateEvaluation>({
  name: NAME,
  summary: "check measured results against the task's quality gates",
  usage: '--task-type T --complexity N --results FILE|- [options]',
  description: [
    'Reads measured results (JSON: arch_review_score 0-100, coverage as a fraction 0-1, tests_passed,',
    'tests_failed, and any other figures, which are kept) and checks them against the resolved gates:',
    'one line per gate, passed, failed (measured vs threshold) or not required. A required gate with no',
    'measured value fails. Exit 1 when a required gate fails. --json prints what a turn\'s',
    'quality_gate_results holds.',
  ].join('\n'),
  options: {
    ...TASK_OPTIONS,
    ...PROJECT_OPTION,
    results: { type: 'string', value: 'FILE', description: 'the measured results (JSON), or - for stdin' },
  },
  positionals: [0, 0],
  exits: { 1: 'a required gate failed' },
  examples: [
    'lore gates check --task-type feature --complexity 5 --results results.json',
    `echo '{"coverage":0.82,"arch_review_score":75,"tests_passed":40,"tests_failed":0}' | lore gates check --task-type feature --complexity 5 --results - --json`,
  ],
  op: 'gates.check',
  async input(ctx) {
    const task = taskInput(ctx, NAME);
    const store = await ctx.openStore();
    const text = await readInputText(ctx, required(ctx, 'results', NAME), storeInputLimit(store));
    // Parsed here, so that what is wrong is shown at its line and column in the text.
    return { ...task, results: parseGateResults(text.text, text.file) };
  },
  exit: (evaluation) => (evaluation.passed ? 0 : 1),
  print(evaluation, ctx) {
    for (const g of evaluation.gates) {
      const line = gateLine(g);
      ctx.print(g.status === 'failed' ? ctx.style.red(line) : g.status === 'passed' ? ctx.style.green(line) : ctx.style.dim(line));
    }
    const requiredGates = evaluation.gates.filter((g) => g.required);
    const failed = requiredGates.filter((g) => g.status === 'failed').length;
    const where = `${evaluation.profile}, ${evaluation.task_type} complexity ${evaluation.complexity}, project ${evaluation.project}`;
    ctx.print(failed === 0
      ? `passed: ${requiredGates.length === 0 ? 'no gate is required' : `all ${plural(requiredGates.length, 'required gate')} met`} (${where})`
      : `failed: ${failed} of ${plural(requiredGates.length, 'required gate')} failed (${where})`);
    return failed === 0 ? 0 : 1;
  },
});

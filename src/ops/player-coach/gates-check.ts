import { evaluateGates, type GateEvaluation, type GateResults } from '../../entities/gate-check.js';
import { resolveGateConfig } from '../../entities/gates.js';
import { defineOp } from '../_define.js';
import type { TaskInput } from './_task.js';

export interface GatesCheckInput extends TaskInput {
  /** The measured results (the CLI reads them from --results FILE|-). */
  results: GateResults;
}

export const op = defineOp<GatesCheckInput, GateEvaluation>({
  name: 'gates.check',
  async run(input, { ws }) {
    const gate = await resolveGateConfig({ store: await ws.store(), taskType: input.task_type, complexity: input.complexity, project: input.project });
    return evaluateGates(gate, input.results);
  },
});

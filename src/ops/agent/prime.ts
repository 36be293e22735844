import { buildPrime, type Prime } from '../../prompt/prime.js';
import { defineOp } from '../_define.js';

export interface PrimeInput {
  budget?: number;
  role?: string;
  project?: string;
  paths?: string[];
}

export const op = defineOp<PrimeInput, Prime>({
  name: 'agent.prime',
  async run(input, { ws }) {
    const store = await ws.store();
    return buildPrime({ store, budget: input.budget, role: input.role, project: input.project, paths: input.paths });
  },
});

import { implementationModes } from '../../entities/modes.js';
import type { Origin } from '../../entities/sources.js';
import type { ImplementationMode } from '../../types.js';
import { defineOp } from '../_define.js';

export interface ModeListOutput {
  /** Every mode in effect, by the start of its complexity range. */
  modes: Array<{ mode: ImplementationMode; origin: Origin }>;
}

export const op = defineOp<Record<string, never>, ModeListOutput>({
  name: 'mode.list',
  async run(_input, { ws }) {
    const modes = await implementationModes({ store: await ws.store() });
    return { modes: modes.sort((a, b) => a.mode.complexity_range[0] - b.mode.complexity_range[0] || a.mode.complexity_range[1] - b.mode.complexity_range[1]) };
  },
});

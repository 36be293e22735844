import type { Problem } from '../../errors.js';
import type { TurnState } from '../../types.js';
import { defineOp } from '../_define.js';
import { openTurnLog, type TurnLogHead, type TurnLogInput } from './_turn-log.js';

export interface TurnListOutput extends TurnLogHead {
  turns: TurnState[];
  problems: Problem[];
}

export const op = defineOp<TurnLogInput, TurnListOutput>({
  name: 'turn.list',
  async run(input, ctx) {
    const { log, head, problems } = await openTurnLog(input, ctx);
    return { ...head, turns: log.turns, problems };
  },
});

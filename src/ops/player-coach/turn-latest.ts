import type { Problem } from '../../errors.js';
import { escalationFor, latestTurn, type Escalation } from '../../turns/turn-log.js';
import type { TurnState } from '../../types.js';
import { defineOp } from '../_define.js';
import { openTurnLog, type TurnLogHead, type TurnLogInput } from './_turn-log.js';

export interface TurnLatestOutput extends TurnLogHead {
  turn: TurnState | null;
  escalation: Escalation | null;
  problems: Problem[];
}

export const op = defineOp<TurnLogInput, TurnLatestOutput>({
  name: 'turn.latest',
  async run(input, ctx) {
    const { log, head, problems } = await openTurnLog(input, ctx);
    const turn = latestTurn(log.turns);
    return { ...head, turn: turn ?? null, escalation: turn === undefined ? null : escalationFor(log.turns, turn.task_id), problems };
  },
});

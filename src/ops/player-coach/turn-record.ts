import { projectOf } from '../../entities/sources.js';
import { buildTurn, recordTurn, type RecordTurnResult, type TurnInput } from '../../turns/record.js';
import { defineOp } from '../_define.js';

export interface TurnRecordInput {
  /** The TurnState fields without id and timestamp, which lore sets. */
  turn: Omit<TurnInput, 'id'>;
  project?: string;
}

export const op = defineOp<TurnRecordInput, RecordTurnResult>({
  name: 'turn.record',
  async run(input, { ws }) {
    const store = await ws.store();
    const project = projectOf(store, input.project);
    return recordTurn({ store, project, turn: buildTurn(input.turn, new Date()) });
  },
});

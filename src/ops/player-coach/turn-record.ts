import { projectOf } from '../../entities/sources.js';
import type { CaptureResult } from '../../knowledge/capture.js';
import { recordTurnCapturing } from '../../turns/capture.js';
import { buildTurn, recordTurn, type RecordTurnResult, type TurnInput } from '../../turns/record.js';
import { defineOp } from '../_define.js';

export interface TurnRecordInput {
  /** The TurnState fields without id and timestamp, which lore sets. */
  turn: Omit<TurnInput, 'id'>;
  project?: string;
}

export interface TurnRecordOutput extends RecordTurnResult {
  /** What capture.on_turn_record captured with the turn; null when it is off. */
  capture: CaptureResult | null;
}

export const op = defineOp<TurnRecordInput, TurnRecordOutput>({
  name: 'turn.record',
  async run(input, { ws, note }) {
    const store = await ws.store();
    const project = projectOf(store, input.project);
    const turn = buildTurn(input.turn, new Date());
    if (!store.config.capture.on_turn_record) return { ...(await recordTurn({ store, project, turn })), capture: null };
    const result = await recordTurnCapturing({ store, project, turn, env: ws.env });
    for (const warning of result.capture.warnings) note(`warning: ${warning}`);
    return result;
  },
});

// Which turn is the latest. No dependencies beyond types, so the commit hook can use it without
// loading the schema validator.
import type { LogLine } from '../log/ndjson.js';
import type { TurnState } from '../types.js';

/** Orders turns: turn_number, then timestamp, then line order (replay keeps the line). */
export function compareTurns(a: LogLine<TurnState>, b: LogLine<TurnState>): number {
  return a.value.turn_number - b.value.turn_number || Date.parse(a.value.timestamp) - Date.parse(b.value.timestamp) || a.line - b.line;
}

/**
 * The latest turn: highest turn_number, then newest timestamp, then the later one in the list.
 *
 * @example
 * latestTurn((await readTurnLog({ store, project, feature: 'FEAT-001' })).turns)?.turn_number; // → 3
 */
export function latestTurn(turns: readonly TurnState[]): TurnState | undefined {
  let latest: TurnState | undefined;
  for (const turn of turns) {
    if (latest === undefined || turn.turn_number > latest.turn_number || (turn.turn_number === latest.turn_number && Date.parse(turn.timestamp) >= Date.parse(latest.timestamp))) latest = turn;
  }
  return latest;
}

// What turn.latest and turn.list share: reading a feature's turn log, with the lines it skipped
// both noted for people and returned for agents.
import type { Problem } from '../../errors.js';
import { projectOf } from '../../entities/sources.js';
import { readTurnLog, type TurnLog } from '../../turns/turn-log.js';
import type { OpContext } from '../_define.js';

export interface TurnLogInput {
  feature_id: string;
  /** Read the log as committed in this revision, not the working tree. */
  ref?: string;
  project?: string;
}

/** What both outputs start with: which log was read, and where. */
export interface TurnLogHead {
  project: string;
  feature: string;
  file: string;
  ref: string | null;
  completed: boolean;
  /** When the feature was completed (its completion record's timestamp); null while in progress. */
  completed_at: string | null;
}

/** A skipped line as people read it: "file:line:column: warning: message", then its code frame. */
function skippedLine(problem: Problem): string {
  const where = [problem.file, problem.line, problem.column].filter((part) => part !== undefined).join(':');
  const lines = [`${where}: warning: ${problem.message}`];
  if (problem.frame !== undefined) lines.push(problem.frame.replace(/^/gm, '  '));
  return lines.join('\n');
}

/** Reads the log the input names; its skipped lines are noted and returned as warnings. */
export async function openTurnLog(input: TurnLogInput, { ws, note }: OpContext): Promise<{ log: TurnLog; head: TurnLogHead; problems: Problem[] }> {
  const store = await ws.store();
  const log = await readTurnLog({ store, project: projectOf(store, input.project), feature: input.feature_id, ref: input.ref, env: ws.env });
  const problems = log.problems.map((p): Problem => ({ ...p, severity: 'warning' }));
  for (const problem of problems) note(skippedLine(problem));
  return { log, head: { project: log.project, feature: log.feature, file: log.file, ref: log.ref ?? null, completed: log.completion !== undefined, completed_at: log.completion?.timestamp ?? null }, problems };
}

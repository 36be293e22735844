import { projectOf } from '../../entities/sources.js';
import { latestTurn, listTurnFeatures, listTurnProjects, readTurnLog } from '../../turns/turn-log.js';
import type { TurnState } from '../../types.js';
import { defineOp } from '../_define.js';
import { byText } from '../../text-order.js';

export interface FeatureSummary {
  feature: string;
  file: string;
  turns: number;
  completed: boolean;
  /** The latest turn (highest turn_number, then newest); null when the log holds none. */
  latest: Pick<TurnState, 'id' | 'task_id' | 'turn_number' | 'coach_decision' | 'timestamp'> | null;
}

export interface TurnFeaturesOutput {
  project: string;
  /** Every project with a turn-log folder (the project above included when it has one). */
  projects: string[];
  /** The project's features that have a turn log, latest activity first. */
  features: FeatureSummary[];
}

export const op = defineOp<{ project?: string }, TurnFeaturesOutput>({
  name: 'turn.features',
  async run(input, { ws }) {
    const store = await ws.store();
    const project = projectOf(store, input.project);
    const features: FeatureSummary[] = [];
    for (const feature of await listTurnFeatures(store.root, project)) {
      const log = await readTurnLog({ store, project, feature, env: ws.env });
      const last = latestTurn(log.turns);
      const latest = last === undefined ? null : { id: last.id, task_id: last.task_id, turn_number: last.turn_number, coach_decision: last.coach_decision, timestamp: last.timestamp };
      features.push({ feature, file: log.file, turns: log.turns.length, completed: log.completion !== undefined, latest });
    }
    features.sort((a, b) => byText(b.latest?.timestamp ?? '', a.latest?.timestamp ?? '') || byText(a.feature, b.feature));
    return { project, projects: await listTurnProjects(store.root), features };
  },
});

// The screens of the UI, in the order of the navigation. A screen is a component of its route:
// `#/<id>/<rest...>` shows screen <id> with `path` = the rest.
import type { FunctionComponent } from 'preact';
import type { ScreenProps } from './screen.js';
import { KnowledgeScreen } from './screens/knowledge.js';
import { ReviewScreen } from './screens/review.js';
import { TransferScreen } from './screens/transfer.js';
import { PlayerCoachScreen } from './screens/player-coach.js';
import { GraphScreen } from './screens/graph.js';
import { DagScreen } from './screens/dag.js';
import { ChangesScreen } from './screens/changes.js';


export interface Screen {
  id: string;
  title: string;
  component: FunctionComponent<ScreenProps>;
}

export const SCREENS: readonly Screen[] = [
  { id: 'knowledge', title: 'Knowledge', component: KnowledgeScreen },
  { id: 'review', title: 'Review', component: ReviewScreen },
  { id: 'transfer', title: 'Import / export', component: TransferScreen },
  { id: 'player-coach', title: 'Player / coach', component: PlayerCoachScreen },
  { id: 'graph', title: 'Context graph', component: GraphScreen },
  { id: 'dag', title: 'Thought DAG', component: DagScreen },
  { id: 'changes', title: 'Changes', component: ChangesScreen },
];

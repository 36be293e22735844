// The turn history of a project's features: the features with a turn log (latest activity
// first), and the turns of one of them latest first, with the coach's verdict, blockers and the
// status of each acceptance criterion.
import { html } from '../html.js';
import { Empty, ErrorBanner, Tone, useOp, When } from './_view-parts.js';

/** turn.features' answer. */
export interface TurnFeatures {
  project: string;
  projects: string[];
  features: Array<{ feature: string; file: string; turns: number; completed: boolean; latest: { task_id: string; turn_number: number; coach_decision: string; timestamp: string } | null }>;
}

interface Turn {
  id: string;
  task_id: string;
  turn_number: number;
  player_decision: string;
  coach_decision: string;
  coach_reason?: string;
  blockers_found: string[];
  progress_summary: string;
  acceptance_criteria_status: Record<string, string>;
  mode: string;
  quality_gate_results: { passed?: boolean } | null;
  timestamp: string;
}

interface TurnList { project: string; feature: string; file: string; completed: boolean; completed_at: string | null; turns: Turn[]; problems: Array<{ message: string; line?: number }> }

function TurnCard({ turn }: { turn: Turn }) {
  const criteria = Object.entries(turn.acceptance_criteria_status);
  const gates = turn.quality_gate_results?.passed;
  return html`<li class="turn" data-turn=${turn.id}>
    <div class="turn-head">
      <strong>Turn ${turn.turn_number}</strong><span class="mono muted">${turn.task_id}</span>
      <${Tone} word=${turn.coach_decision} />
      ${gates === undefined ? '' : html`<${Tone} word=${gates ? 'passed' : 'failed'} label=${gates ? 'gates passed' : 'gates failed'} />`}
      <span class="spacer"></span><span class="muted"><${When} iso=${turn.timestamp} /></span>
    </div>
    <p class="turn-summary">${turn.progress_summary}</p>
    <dl class="facts">
      <dt>Player</dt><dd>${turn.player_decision}</dd>
      ${turn.coach_reason === undefined ? '' : html`<dt>Coach</dt><dd>${turn.coach_reason}</dd>`}
      ${turn.blockers_found.length === 0 ? '' : html`<dt>Blockers</dt><dd><ul>${turn.blockers_found.map((b) => html`<li>${b}</li>`)}</ul></dd>`}
      <dt>Criteria</dt><dd class="criteria">${criteria.length === 0 ? html`<span class="muted">none recorded</span>` : criteria.map(([name, status]) => html`<span class="criterion" data-criterion=${name}>${name} <${Tone} word=${status} /></span>`)}</dd>
    </dl>
  </li>`;
}

function Turns({ project, feature }: { project: string; feature: string }) {
  const list = useOp<TurnList>('turn.list', { project, feature_id: feature }, `${project}\0${feature}`);
  if (list.error !== undefined) return html`<${ErrorBanner} error=${list.error} />`;
  if (list.data === undefined) return html`<p class="muted">loading…</p>`;
  const turns = [...list.data.turns].reverse();
  return html`<div class="turns">
    <div class="turns-head"><h3>${feature}</h3><span class="muted mono">${list.data.file}</span>
      ${list.data.completed ? html`<${Tone} word="completed" />` : html`<${Tone} word="in_progress" label="in progress" />`}</div>
    ${list.data.problems.length === 0 ? '' : html`<div class="banner info">${list.data.problems.length} unreadable line(s) skipped: ${list.data.problems[0]!.message}</div>`}
    ${turns.length === 0 ? html`<${Empty} what="no turns recorded yet" />` : html`<ol class="turn-list">${turns.map((t) => html`<${TurnCard} turn=${t} />`)}</ol>`}
  </div>`;
}

/** The features of the project (latest activity first) and the chosen one's turns. */
export function TurnHistory({ features, feature, select }: { features: TurnFeatures; feature: string | undefined; select(feature: string): void }) {
  if (features.features.length === 0) {
    return html`<${Empty} what=${`no turns recorded for project ${features.project} yet`} command="lore turn record --feature FEAT-001 --task TASK-001 --turn 1 …" />`;
  }
  const chosen = features.features.find((f) => f.feature === feature) ?? features.features[0]!;
  return html`<div class="split">
    <ul class="pick-list features">${features.features.map((f) => html`
      <li class=${f.feature === chosen.feature ? 'active' : ''} data-feature=${f.feature} onClick=${() => select(f.feature)}>
        <div class="pick-title"><strong>${f.feature}</strong>${f.completed ? html`<${Tone} word="completed" />` : ''}</div>
        <div class="muted small">${f.turns} turn${f.turns === 1 ? '' : 's'}${f.latest === null ? '' : html` · T${f.latest.turn_number} <${Tone} word=${f.latest.coach_decision} />`}</div>
      </li>`)}
    </ul>
    <${Turns} project=${features.project} feature=${chosen.feature} />
  </div>`;
}

// Player / coach: the role constraints, quality gates and implementation modes a session of a
// project works under, each value with where it came from (store, the project's override file, or
// the fallback built into lore), and the turn history of the project's features.
// Route: #/player-coach/<project>/<feature>.
import { html } from '../html.js';
import type { ScreenProps } from '../screen.js';
import { Empty, ErrorBanner, Source, useOp } from './_view-parts.js';
import { TurnHistory, type TurnFeatures } from './_turns.js';

type ValueSource = 'store' | 'override' | 'fallback';
interface Origin { source: ValueSource; file?: string }
interface RoleItem { value: string | { text: string; globs?: string[] }; source: ValueSource; file?: string }
interface ResolvedRole { role: string; project: string; origin: Origin; overrideFile: string | null; items: Record<string, RoleItem[]> }
interface GateProfile { id: string; task_type: string; complexity_range: [number, number]; [field: string]: unknown }
interface GatesList { project: string; overrideFile: string | null; profiles: Array<{ profile: GateProfile; origin: Origin; fields: Record<string, ValueSource> }> }
interface ModeList { modes: Array<{ mode: { mode: string; complexity_range: [number, number]; ceremony_level: string; when_to_use: string[] }; origin: Origin }> }
interface StoredRecord { id: string }

const LISTS: Array<[string, string]> = [['must_do', 'Must do'], ['must_not_do', 'Must not do'], ['ask_before', 'Ask before'], ['escalate_when', 'Escalate when']];
const GATES: Array<[string, string, string]> = [
  ['arch_review_required', 'arch_review_threshold', 'Architecture review'],
  ['coverage_required', 'coverage_threshold', 'Coverage'],
  ['tests_required', 'tests_must_pass', 'Tests'],
];

function RolePanel({ role }: { role: ResolvedRole }) {
  return html`<div class="panel role-panel" data-role=${role.role}>
    <div class="panel-head"><h3>${role.role}</h3><${Source} source=${role.origin.source} file=${role.origin.file} /><span class="muted mono">${role.origin.file ?? 'built-in'}</span></div>
    ${LISTS.map(([key, title]) => html`
      <h4>${title}</h4>
      ${(role.items[key] ?? []).length === 0 ? html`<p class="muted">none</p>` : html`
        <ul class="sourced">${(role.items[key] ?? []).map((item) => html`
          <li class=${item.source}><span>${typeof item.value === 'string' ? item.value : item.value.text}</span> <${Source} source=${item.source} file=${item.file} /></li>`)}
        </ul>`}`)}
  </div>`;
}

/** A gate's cell: required or not, its threshold, and the source of each. */
function gateCell(entry: GatesList['profiles'][number], required: string, threshold: string) {
  const p = entry.profile;
  const on = p[required] === true;
  const value = p[threshold];
  const shown = value === undefined ? '' : threshold === 'coverage_threshold' ? `${Math.round(Number(value) * 1000) / 10}%` : threshold === 'tests_must_pass' ? (value === true ? 'must pass' : 'may fail') : `≥ ${String(value)}`;
  const source = entry.fields[threshold] === 'override' || entry.fields[required] === 'override' ? 'override' : entry.fields[required] ?? entry.origin.source;
  return html`<td class=${on ? '' : 'off'}>${on ? html`<span>${shown || 'required'}</span>` : html`<span class="muted">off</span>`} <${Source} source=${source} /></td>`;
}

function Gates({ gates }: { gates: GatesList }) {
  return html`<table class="data gates">
    <thead><tr><th>Profile</th><th>Task type</th><th>Complexity</th>${GATES.map(([, , title]) => html`<th>${title}</th>`)}<th>From</th></tr></thead>
    <tbody>${gates.profiles.map((entry) => html`<tr data-profile=${entry.profile.id}>
      <td class="mono">${entry.profile.id}</td><td>${entry.profile.task_type}</td><td>${entry.profile.complexity_range.join('–')}</td>
      ${GATES.map(([required, threshold]) => gateCell(entry, required, threshold))}
      <td class="muted mono">${entry.origin.file ?? 'built-in'}</td></tr>`)}
    </tbody></table>`;
}

function Modes({ modes }: { modes: ModeList }) {
  return html`<table class="data modes">
    <thead><tr><th>Mode</th><th>Complexity</th><th>Ceremony</th><th>When to use</th><th>From</th></tr></thead>
    <tbody>${modes.modes.map(({ mode, origin }) => html`<tr data-mode=${mode.mode}>
      <td><strong>${mode.mode}</strong></td><td>${mode.complexity_range.join('–')}</td><td>${mode.ceremony_level}</td>
      <td>${mode.when_to_use[0] ?? ''}</td><td><${Source} source=${origin.source} file=${origin.file} /></td></tr>`)}
    </tbody></table>`;
}

/** The Player / coach screen. */
export function PlayerCoachScreen({ path, navigate }: ScreenProps) {
  const chosen = path[0];
  const input = chosen === undefined ? {} : { project: chosen };
  const key = chosen ?? '';
  const features = useOp<TurnFeatures>('turn.features', input, key);
  // Without a project, turn.features answers for the store's own (config.yaml's): offered in the picker.
  const own = useOp<TurnFeatures>('turn.features', {}, '');
  const overrides = useOp<StoredRecord[]>('record.list', { kind: 'overrides' }, '');
  const coach = useOp<ResolvedRole>('roles.show', { role: 'coach', ...input }, key);
  const player = useOp<ResolvedRole>('roles.show', { role: 'player', ...input }, key);
  const gates = useOp<GatesList>('gates.list', input, key);
  const modes = useOp<ModeList>('mode.list', {}, '');
  const project = features.data?.project ?? coach.data?.project ?? chosen ?? '';
  const projects = [...new Set([project, own.data?.project ?? '', ...(features.data?.projects ?? []), ...(overrides.data ?? []).map((r) => r.id)])].filter((p) => p !== '').sort();
  const overrideFile = coach.data?.overrideFile ?? null;
  const errors = [features, coach, player, gates, modes].map((l) => l.error).filter((e) => e !== undefined);
  return html`<section class="screen player-coach">
    <header class="screen-head">
      <h1>Player / coach</h1>
      <label class="inline">Project
        <select name="project" value=${project} onChange=${(e: Event) => navigate('player-coach', (e.target as HTMLSelectElement).value)}>
          ${projects.map((p) => html`<option value=${p}>${p}</option>`)}
        </select>
      </label>
      <span class="spacer"></span>
      <span class="muted override-file">${overrideFile === null ? html`no override file (<code>.knowledge/overrides/${project}.yaml</code>)` : html`overrides: <code>${overrideFile}</code>`}</span>
    </header>
    ${errors.map((e) => html`<${ErrorBanner} error=${e} />`)}
    <h2>Roles</h2>
    <div class="grid2">${[coach.data, player.data].map((r) => (r === undefined ? html`<div class="panel muted">loading…</div>` : html`<${RolePanel} role=${r} />`))}</div>
    <h2>Quality gates</h2>
    ${gates.data === undefined ? '' : gates.data.profiles.length === 0 ? html`<${Empty} what="no quality-gate profiles" command="lore seed" />` : html`<${Gates} gates=${gates.data} />`}
    <h2>Implementation modes</h2>
    ${modes.data === undefined ? '' : modes.data.modes.length === 0 ? html`<${Empty} what="no implementation modes" command="lore seed" />` : html`<${Modes} modes=${modes.data} />`}
    <h2>Turn history</h2>
    ${features.data === undefined ? '' : html`<${TurnHistory} features=${features.data} feature=${path[1]} select=${(f: string) => navigate('player-coach', project, f)} />`}
  </section>`;
}

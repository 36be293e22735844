// Changes: what a pull request of the current branch will show of .knowledge/: the files git
// status reports (staged, unstaged, untracked) and the knowledge diff of the branch against the
// default branch, riskiest first, as `lore diff` summarises it for reviewers.
import { html } from '../html.js';
import type { ScreenProps } from '../screen.js';
import { Empty, ErrorBanner, Tone, useOp } from './_view-parts.js';

interface FieldChange { field: string; risk: string; summary: string }
interface RecordChange { kind: string; id: string; title: string; change: string; risk: string; fields: FieldChange[] }
interface KnowledgeDiff { spec: string; base: string; head: string; records: RecordChange[]; config: FieldChange[]; logs: Array<{ file: string; added: number; removed: number }>; newProblems: Array<{ file?: string; line?: number; message: string }> }
interface Changes {
  branch: string | null;
  base: string | null;
  uncommitted: Array<{ path: string; change: string; staged: boolean; unstaged: boolean; area: string }>;
  diff: KnowledgeDiff | null;
  note: string | null;
}

const RISK_LABEL: Record<string, string> = { weakens: 'weakens enforcement', strengthens: 'strengthens', neutral: 'neutral' };

function Uncommitted({ changes }: { changes: Changes }) {
  if (changes.uncommitted.length === 0) return html`<${Empty} what="No uncommitted changes to .knowledge/" />`;
  return html`<table class="data uncommitted">
    <thead><tr><th>File</th><th>Change</th><th>What</th><th>State</th></tr></thead>
    <tbody>${changes.uncommitted.map((f) => html`<tr data-path=${f.path}>
      <td class="mono">${f.path}</td><td><${Tone} word=${f.change} /></td><td>${f.area}</td>
      <td>${f.staged ? html`<span class="badge ok">staged</span> ` : ''}${f.unstaged ? html`<span class="badge">${f.change === 'added' && !f.staged ? 'untracked' : 'not staged'}</span>` : ''}</td></tr>`)}
    </tbody></table>`;
}

function Diff({ diff }: { diff: KnowledgeDiff }) {
  const nothing = diff.records.length === 0 && diff.config.length === 0 && diff.logs.length === 0 && diff.newProblems.length === 0;
  if (nothing) return html`<${Empty} what=${`No knowledge changes between ${diff.spec.split('...')[0]} and HEAD yet: commit your changes to see them here`} />`;
  const weakening = diff.records.filter((r) => r.risk === 'weakens').length + diff.config.filter((c) => c.risk === 'weakens').length;
  return html`<div class="diff">
    ${weakening === 0 ? '' : html`<div class="banner error">${weakening} change${weakening === 1 ? '' : 's'} weaken${weakening === 1 ? 's' : ''} enforcement: reviewers will look at ${weakening === 1 ? 'it' : 'them'} first</div>`}
    ${diff.records.length === 0 ? '' : html`<table class="data diff-records">
      <thead><tr><th>Record</th><th>Change</th><th>Risk</th><th>What changed</th></tr></thead>
      <tbody>${diff.records.map((r) => html`<tr data-record=${r.id}>
        <td><div class="mono">${r.id}</div><div class="muted small">${r.kind} · ${r.title}</div></td>
        <td><${Tone} word=${r.change} /></td><td><${Tone} word=${r.risk} label=${RISK_LABEL[r.risk] ?? r.risk} /></td>
        <td>${r.fields.length === 0 ? html`<span class="muted">${r.change === 'added' ? 'new record' : r.change === 'removed' ? 'deleted' : ''}</span>` : html`<ul class="fields">${r.fields.map((f) => html`<li class=${f.risk}>${f.summary}</li>`)}</ul>`}</td></tr>`)}
      </tbody></table>`}
    ${diff.config.length === 0 ? '' : html`<h3>Configuration</h3><ul class="fields panel">${diff.config.map((c) => html`<li class=${c.risk}>${c.summary} ${c.risk === 'weakens' ? html`<${Tone} word="weakens" label="weakens enforcement" />` : ''}</li>`)}</ul>`}
    ${diff.logs.length === 0 ? '' : html`<h3>Logs</h3><table class="data logs"><thead><tr><th>Log</th><th>Lines added</th><th>Lines removed</th></tr></thead>
      <tbody>${diff.logs.map((l) => html`<tr><td class="mono">${l.file}</td><td>+${l.added}</td><td>−${l.removed}</td></tr>`)}</tbody></table>`}
    ${diff.newProblems.length === 0 ? '' : html`<h3>New problems</h3><div class="banner error">${diff.newProblems.map((p) => html`<div class="mono">${p.file ?? ''}${p.line === undefined ? '' : `:${p.line}`}: ${p.message}</div>`)}</div>`}
  </div>`;
}

/** The Changes screen. */
export function ChangesScreen(_props: ScreenProps) {
  const changes = useOp<Changes>('store.changes', {}, '');
  const c = changes.data;
  return html`<section class="screen changes-screen">
    <header class="screen-head">
      <h1>Changes</h1>
      ${c === undefined ? '' : html`<span class="muted">on <strong class="mono">${c.branch ?? 'detached HEAD'}</strong>${c.base === null ? '' : html` compared with <strong class="mono">${c.base}</strong>`}</span>`}
      <span class="spacer"></span>
      <button type="button" onClick=${changes.reload} disabled=${changes.loading}>${changes.loading ? 'Refreshing…' : 'Refresh'}</button>
    </header>
    ${changes.error === undefined ? '' : html`<${ErrorBanner} error=${changes.error} />`}
    ${c === undefined ? '' : html`
      <h2>Uncommitted <span class="muted">(${c.uncommitted.length})</span></h2>
      <p class="muted lead">Files under .knowledge/ that differ from the last commit: commit them to include them in your pull request.</p>
      <${Uncommitted} changes=${c} />
      <h2>Your pull request ${c.base === null ? '' : html`<span class="muted">(${c.base}...HEAD)</span>`}</h2>
      <p class="muted lead">What changed in knowledge terms since the branch left ${c.base ?? 'the default branch'}, riskiest first: what <code>lore diff</code> posts on the pull request.</p>
      ${c.diff === null ? html`<${Empty} what=${`No knowledge diff: ${c.note ?? 'nothing to compare with'}`} />` : html`<${Diff} diff=${c.diff} />`}`}
  </section>`;
}

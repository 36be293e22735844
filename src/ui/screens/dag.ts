// Thought DAG: the projects of the thought log, a project's branches (each head with its label
// and depth) and its nodes oldest first, and one node with its parents, its children and the
// critics' verdicts on it. Route: #/dag/<project>/<node>.
import { html } from '../html.js';
import type { ScreenProps } from '../screen.js';
import { Empty, ErrorBanner, Tone, useOp, When } from './_view-parts.js';

interface DagNode {
  id: string;
  project: string;
  thought: string;
  role: 'actor' | 'critic' | 'summary';
  verdict?: string;
  verdictReason?: string;
  target?: string;
  parents: string[];
  children: string[];
  tags: string[];
  artifacts?: Array<{ name?: string; path: string }>;
  branchLabel?: string;
  createdAt: string;
}
interface Projects { current: string; projects: Array<{ name: string; nodes: number; heads: number; contexts: string[]; collision: boolean }> }
interface Branches { project: string; branches: Array<{ branchId: string; label?: string; head: DagNode; depth: number }> }
interface Plan { project: string; total: number; nodes: Array<{ id: string; thought: string; tags: string[]; branchLabel?: string; verdict?: string }> }

const firstLine = (text: string): string => text.split('\n')[0]!;

function NodeLink({ node, open }: { node: DagNode; open(id: string): void }) {
  return html`<li class="node-link" onClick=${() => open(node.id)} data-node=${node.id}>
    <span class="mono">${node.id}</span> <span class="badge">${node.role}</span>${node.verdict === undefined ? '' : html` <${Tone} word=${node.verdict} />`}
    <div class="muted ellipsis">${firstLine(node.thought)}</div></li>`;
}

function NodeDetail({ project, id, open }: { project: string; id: string; open(id: string): void }) {
  const key = `${project}\0${id}`;
  const node = useOp<DagNode>('dag.get', { project, id }, key);
  const parents = useOp<DagNode[]>('dag.parents', { project, id }, key);
  const children = useOp<DagNode[]>('dag.children', { project, id }, key);
  if (node.error !== undefined) return html`<${ErrorBanner} error=${node.error} />`;
  if (node.data === undefined) return html`<div class="panel muted">loading…</div>`;
  const n = node.data;
  const critics = (children.data ?? []).filter((c) => c.role === 'critic' && c.target === n.id);
  const followers = (children.data ?? []).filter((c) => !critics.includes(c));
  return html`<div class="panel node-detail" data-node=${n.id}>
    <div class="panel-head"><h3 class="mono">${n.id}</h3><span class="badge">${n.role}</span>${n.branchLabel === undefined ? '' : html`<span class="badge branch">⎇ ${n.branchLabel}</span>`}<span class="spacer"></span><span class="muted"><${When} iso=${n.createdAt} /></span></div>
    <p class="thought pre-line">${n.thought}</p>
    ${n.tags.length === 0 ? '' : html`<div class="row">${n.tags.map((t) => html`<span class="badge">#${t}</span>`)}</div>`}
    ${n.role === 'critic' ? html`<p>Verdict on <a href="#" onClick=${(e: Event) => { e.preventDefault(); open(n.target!); }} class="mono">${n.target}</a>: <${Tone} word=${n.verdict ?? 'none'} /> ${n.verdictReason ?? ''}</p>` : ''}
    ${(n.artifacts ?? []).length === 0 ? '' : html`<h4>Artifacts</h4><ul>${n.artifacts!.map((a) => html`<li class="mono">${a.path}</li>`)}</ul>`}
    <h4>Critic verdicts</h4>
    ${critics.length === 0 ? html`<p class="muted">not reviewed yet: <code>lore dag critic --target ${n.id} --verdict approved</code></p>` : html`<ul class="verdicts">${critics.map((c) => html`
      <li class="verdict" data-critic=${c.id}><${Tone} word=${c.verdict ?? 'none'} /> <span>${c.verdictReason ?? ''}</span> <span class="muted small"><${When} iso=${c.createdAt} /> · <a href="#" onClick=${(e: Event) => { e.preventDefault(); open(c.id); }}>${c.id}</a></span></li>`)}</ul>`}
    <div class="grid2 relatives">
      <div><h4>Parents (${(parents.data ?? []).length})</h4>${(parents.data ?? []).length === 0 ? html`<p class="muted">a root</p>` : html`<ul class="nodes parents">${parents.data!.map((p) => html`<${NodeLink} node=${p} open=${open} />`)}</ul>`}</div>
      <div><h4>Children (${followers.length})</h4>${followers.length === 0 ? html`<p class="muted">a head: nothing follows it yet</p>` : html`<ul class="nodes children">${followers.map((c) => html`<${NodeLink} node=${c} open=${open} />`)}</ul>`}</div>
    </div>
  </div>`;
}

/** The Thought DAG screen. */
export function DagScreen({ path, navigate }: ScreenProps) {
  const projects = useOp<Projects>('dag.projects', {}, '');
  const project = path[0] ?? projects.data?.current;
  const input = project === undefined || projects.data === undefined ? undefined : { project };
  const branches = useOp<Branches>('dag.branches', input, project ?? '');
  const plan = useOp<Plan>('dag.export', input, project ?? '');
  const open = (id: string): void => navigate('dag', project!, id);
  const known = projects.data?.projects ?? [];
  const errors = [projects.error, branches.error, plan.error].filter((e) => e !== undefined);
  return html`<section class="screen dag-screen">
    <header class="screen-head">
      <h1>Thought DAG</h1>
      ${known.every((p) => p.nodes === 0) ? '' : html`<label class="inline">Project <select name="project" value=${project} onChange=${(e: Event) => navigate('dag', (e.target as HTMLSelectElement).value)}>
        ${known.map((p) => html`<option value=${p.name}>${p.name} (${p.nodes})</option>`)}</select></label>`}
    </header>
    ${errors.map((e) => html`<${ErrorBanner} error=${e} />`)}
    ${known.filter((p) => p.collision).map((p) => html`<div class="banner info">Project ${p.name} is the name of several directories: ${p.contexts.join(', ')}</div>`)}
    ${projects.data === undefined ? '' : known.every((p) => p.nodes === 0) ? html`<${Empty} what="No thoughts yet" command='lore dag append --project-context "$PWD" --thought "Plan the parser" --tag task' />` : html`
    <div class="dag-layout">
      <div>
        <h2>Branches</h2>
        ${branches.data === undefined ? '' : branches.data.branches.length === 0 ? html`<${Empty} what="no branches in this project" />` : html`<table class="data branches">
          <thead><tr><th>Branch</th><th>Head</th><th>Depth</th><th>Latest thought</th></tr></thead>
          <tbody>${branches.data.branches.map((b) => html`<tr class=${`clickable ${b.head.id === path[1] ? 'active' : ''}`} data-branch=${b.branchId} onClick=${() => open(b.head.id)}>
            <td>${b.label === undefined ? html`<span class="muted">unlabelled</span>` : html`<strong>${b.label}</strong>`}</td><td class="mono">${b.head.id}</td><td>${b.depth}</td><td class="ellipsis">${b.head.role === 'critic' ? html`<${Tone} word=${b.head.verdict ?? 'none'} /> ` : ''}${firstLine(b.head.thought)}</td></tr>`)}</tbody></table>`}
        <h2>Nodes ${plan.data === undefined ? '' : html`<span class="muted">(${plan.data.total}, oldest first)</span>`}</h2>
        ${plan.data === undefined ? '' : html`<ul class="pick-list plan">${plan.data.nodes.map((n) => html`<li class=${n.id === path[1] ? 'active' : ''} data-node=${n.id} onClick=${() => open(n.id)}>
          <div class="pick-title"><span class="mono">${n.id}</span>${n.branchLabel === undefined ? '' : html`<span class="badge branch">⎇ ${n.branchLabel}</span>`}${n.verdict === undefined ? '' : html`<${Tone} word=${n.verdict} />`}</div>
          <div class="muted ellipsis">${firstLine(n.thought)}</div></li>`)}</ul>`}
      </div>
      <div>${path[1] === undefined || project === undefined ? html`<${Empty} what="Choose a branch or a node to see its parents, children and critic verdicts" />` : html`<${NodeDetail} project=${project} id=${path[1]} open=${open} />`}</div>
    </div>`}
  </section>`;
}

// Context graph: the store's entities and relationships, drawn interactively (pan, zoom, search),
// the neighbourhood of one entity, and the view as Mermaid for a pull request or a wiki.
// Route: #/graph (the whole graph) or #/graph/<entity>/<depth>.
import { useState } from 'preact/hooks';
import { html } from '../html.js';
import type { ScreenProps } from '../screen.js';
import { GraphCanvas, matches, typeColour, type Entity, type Relationship } from './_graph-view.js';
import { Empty, ErrorBanner, useOp } from './_view-parts.js';

interface Shown { entities: Entity[]; relationships: Relationship[]; diagram?: string }

const show = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

function Details({ entity, relationships, open, neighbourhood }: { entity: Entity; relationships: Relationship[]; open(name: string): void; neighbourhood(name: string): void }) {
  const outgoing = relationships.filter((r) => r.from === entity.name);
  const incoming = relationships.filter((r) => r.to === entity.name);
  const link = (name: string) => html`<a href="#" onClick=${(e: Event) => { e.preventDefault(); open(name); }}>${name}</a>`;
  return html`<div class="panel entity-detail" data-entity=${entity.name}>
    <div class="panel-head"><span class="dot" ref=${(el: HTMLElement | null) => el?.style.setProperty('background', typeColour(entity.type))}></span><h3>${entity.name}</h3></div>
    <div class="muted">${entity.type}${(entity.tags ?? []).map((t) => html` <span class="badge">#${t}</span>`)}</div>
    ${entity.description ? html`<p class="pre-line">${entity.description}</p>` : ''}
    ${Object.keys(entity.properties ?? {}).length === 0 ? '' : html`<dl class="facts">${Object.entries(entity.properties ?? {}).map(([k, v]) => html`<dt>${k}</dt><dd class="mono">${show(v)}</dd>`)}</dl>`}
    ${outgoing.length === 0 ? '' : html`<h4>Outgoing</h4><ul class="rels">${outgoing.map((r) => html`<li><span class="rel">${r.type}</span> → ${link(r.to)}</li>`)}</ul>`}
    ${incoming.length === 0 ? '' : html`<h4>Incoming</h4><ul class="rels">${incoming.map((r) => html`<li>${link(r.from)} → <span class="rel">${r.type}</span></li>`)}</ul>`}
    <button type="button" class="primary" onClick=${() => neighbourhood(entity.name)}>Show neighbourhood</button>
  </div>`;
}

function Mermaid({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  // A data: URL, not a blob: one, so nothing is left to revoke when the view changes.
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
  return html`<div class="panel mermaid-export">
    <div class="panel-head"><h3>Mermaid</h3><span class="muted">paste into a pull request, an issue or a wiki page</span><span class="spacer"></span>
      <button type="button" onClick=${() => navigator.clipboard.writeText(text).then(() => setCopied(true), () => undefined)}>${copied ? 'Copied' : 'Copy'}</button>
      <a class="button" href=${download} download="context-graph.mmd">Download .mmd</a></div>
    <pre class="mermaid-text">${text}</pre>
  </div>`;
}

/** The Context graph screen. */
export function GraphScreen({ path, navigate }: ScreenProps) {
  const centre = path[0];
  const depth = Number(path[1] ?? '1') || 1;
  const input = centre === undefined ? { budget: 0, diagram: 'mermaid' } : { name: centre, depth, budget: 0, diagram: 'mermaid' };
  const view = useOp<Shown>('graph.show', input, `${centre ?? ''}\0${depth}`);
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const [mermaid, setMermaid] = useState(false);
  const entities = view.data?.entities ?? [];
  const selectedName = picked ?? centre;
  const selected = entities.find((e) => e.name === selectedName);
  const found = search.trim() === '' ? entities : entities.filter((e) => matches(e, search));
  const neighbourhood = (name: string): void => {
    setPicked(undefined);
    navigate('graph', name, String(depth));
  };
  return html`<section class="screen graph-screen">
    <header class="screen-head">
      <h1>Context graph</h1>
      ${centre === undefined ? html`<span class="muted">whole graph</span>` : html`<span class="crumb">neighbourhood of <strong>${centre}</strong></span>
        <label class="inline">Depth <select name="depth" value=${String(depth)} onChange=${(e: Event) => navigate('graph', centre, (e.target as HTMLSelectElement).value)}>${[1, 2, 3, 4].map((d) => html`<option value=${String(d)}>${d}</option>`)}</select></label>
        <button type="button" onClick=${() => { setPicked(undefined); navigate('graph'); }}>Whole graph</button>`}
      <span class="spacer"></span>
      <input type="search" name="search" placeholder="Search names, types, tags" value=${search} onInput=${(e: Event) => setSearch((e.target as HTMLInputElement).value)}
        onKeyDown=${(e: KeyboardEvent) => { if (e.key === 'Enter' && found[0] !== undefined) setPicked(found[0].name); }} />
      <button type="button" class=${mermaid ? 'primary' : ''} onClick=${() => setMermaid(!mermaid)}>Mermaid export</button>
    </header>
    ${view.error === undefined ? '' : html`<${ErrorBanner} error=${view.error} />`}
    ${view.data === undefined ? (view.error === undefined ? html`<p class="muted">loading…</p>` : '') : entities.length === 0 ? html`<${Empty} what="No graph yet" command='lore graph add-entity --name "Auth Service" --type service' />` : html`
      ${mermaid && view.data.diagram !== undefined ? html`<${Mermaid} text=${view.data.diagram} />` : ''}
      <div class="graph-layout">
        <${GraphCanvas} entities=${entities} relationships=${view.data.relationships} selected=${selectedName} centre=${centre} search=${search} onSelect=${setPicked} />
        <aside class="graph-side">
          ${selected === undefined ? '' : html`<${Details} entity=${selected} relationships=${view.data.relationships} open=${setPicked} neighbourhood=${neighbourhood} />`}
          <div class="panel">
            <div class="panel-head"><h3>Entities</h3><span class="muted count">${search.trim() === '' ? `${entities.length} entities, ${view.data.relationships.length} relationships` : `${found.length} of ${entities.length} match`}</span></div>
            <ul class="entity-list">${found.map((e) => html`<li class=${e.name === selectedName ? 'active' : ''} onClick=${() => setPicked(e.name)}>
              <span class="dot" ref=${(el: HTMLElement | null) => el?.style.setProperty('background', typeColour(e.type))}></span><span class="name">${e.name}</span><span class="muted small">${e.type}</span></li>`)}
            </ul>
          </div>
        </aside>
      </div>`}
  </section>`;
}

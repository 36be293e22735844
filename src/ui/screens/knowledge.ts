// The Knowledge screen: every entry in a table, searched with the ranking of `lore query` and
// filtered as `lore list` filters; a page of rows at a time, so 10,000 entries stay fast. The
// route picks the view: #/knowledge, #/knowledge/new, #/knowledge/<id>, #/knowledge/<id>/edit.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { op, OpError, useStoreEvents } from '../api.js';
import { isEntryProblem, PriorityBadge, TypeBadge, type Entry, type EntryRecord } from '../entries.js';
import { html } from '../html.js';
import { FilterBar, filterInput, hasFilters, useFilters, type Filters } from '../knowledge-filter.js';
import type { ScreenProps } from '../screen.js';
import { ProblemsBanner, useStoreProblems } from '../store-problems.js';
import { EntryForm } from './entry-form.js';
import { EntryView } from './entry-view.js';

const PAGE = 50;

/** The Knowledge screen and its sub-views. */
export function KnowledgeScreen({ path, navigate }: ScreenProps) {
  const [first, second] = path;
  if (first === 'new') return html`<${EntryForm} navigate=${navigate} type=${second} />`;
  if (first !== undefined && second === 'edit') return html`<${EntryForm} navigate=${navigate} id=${first} />`;
  if (first !== undefined) return html`<${EntryView} navigate=${navigate} id=${first} />`;
  return html`<${KnowledgeTable} navigate=${navigate} />`;
}

interface Row {
  record: EntryRecord;
  score?: number;
}

interface Loaded {
  rows: Row[];
  /** Rows that contain the text but do not apply now, so lore query would not rank them. */
  unranked: number;
  total: number;
  pending: number;
  projects: string[];
  agentTypes: string[];
}

type Ranked = Record<'recommendations' | 'prohibitions' | 'learnings', Array<{ id: string; score: number }>>;

/** The rows the filters and the search select: ranked ones first, then other text matches. */
async function loadRows(filters: Filters): Promise<Loaded> {
  const filter = filterInput(filters);
  const all = await op<EntryRecord[]>('record.list', { kind: 'entries', ...(hasFilters(filters) ? { filter } : {}) });
  const pending = all.filter((r) => r.kind === 'pending').length;
  // Sorted by id, as lore list and lore export sort: the type's prefix groups them.
  const entries = all.filter((r) => r.kind !== 'pending').sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const projects = [...new Set(entries.map((r) => r.value.projectId).filter((p): p is string => p !== undefined))].sort();
  const agentTypes = [...new Set(entries.flatMap((r) => r.value.agentTypes ?? []))].sort();
  const text = filters.text.trim();
  if (text === '') return { rows: entries.map((record) => ({ record })), unranked: 0, total: entries.length, pending, projects, agentTypes };
  const byId = new Map(entries.map((r) => [r.id, r]));
  const query = {
    taskDescription: text,
    maxResults: Math.max(entries.length, 1),
    budget: 1,
    ...(filter.types === undefined ? {} : { types: filter.types }),
    ...(filters.projectId.trim() === '' ? {} : { projectId: filters.projectId.trim() }),
    ...(filters.agentType.trim() === '' ? {} : { agentType: filters.agentType.trim() }),
  };
  const [ranked, matching] = await Promise.all([
    op<Ranked>('knowledge.query', query),
    op<EntryRecord[]>('record.list', { kind: 'entries', filter: { ...filter, text } }),
  ]);
  const scored = [...ranked.recommendations, ...ranked.prohibitions, ...ranked.learnings].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  const rows: Row[] = [];
  const seen = new Set<string>();
  for (const s of scored) {
    const record = byId.get(s.id);
    if (record === undefined) continue;
    rows.push({ record, score: s.score });
    seen.add(s.id);
  }
  const rest = matching.filter((r) => r.kind !== 'pending' && !seen.has(r.id));
  for (const record of rest) rows.push({ record });
  return { rows, unranked: rest.length, total: entries.length, pending, projects, agentTypes };
}

function KnowledgeTable({ navigate }: { navigate: ScreenProps['navigate'] }) {
  const [filters, setFilters] = useFilters();
  const [loaded, setLoaded] = useState<Loaded | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [page, setPage] = useState(0);
  const [search, setSearch] = useState(filters.text);
  const version = useRef(0);
  const problems = useStoreProblems(isEntryProblem, loaded !== undefined);

  const reload = (): void => {
    const mine = ++version.current;
    loadRows(filters).then(
      (result) => {
        // Only the answer to the latest request counts: typing fast must not show an older search.
        if (mine !== version.current) return;
        setLoaded(result);
        setError(undefined);
      },
      (e: unknown) => mine === version.current && setError(e instanceof OpError ? e.body.message : String(e)),
    );
  };
  useEffect(reload, [filters]);
  useEffect(() => setPage(0), [filters]);
  // Search as the person types, a moment after the last key.
  useEffect(() => {
    if (search === filters.text) return;
    const t = setTimeout(() => setFilters({ text: search }), 200);
    return () => clearTimeout(t);
  }, [search]);
  const pendingReload = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useStoreEvents((event) => {
    if (event.type !== 'change') return;
    clearTimeout(pendingReload.current);
    pendingReload.current = setTimeout(reload, 30);
  }, [filters]);

  const rows = loaded?.rows ?? [];
  const pages = Math.max(1, Math.ceil(rows.length / PAGE));
  const shown = useMemo(() => rows.slice(page * PAGE, page * PAGE + PAGE), [rows, page]);
  const searching = filters.text.trim() !== '';

  return html`<section class="screen knowledge">
    <header class="screen-head">
      <h1>Knowledge</h1>
      ${loaded === undefined ? '' : html`<span class="muted count">${loaded.total} ${loaded.total === 1 ? 'entry' : 'entries'}${hasFilters(filters) ? ' pass the filters' : ''}</span>`}
      <div class="spacer"></div>
      ${loaded !== undefined && loaded.pending > 0 ? html`<a class="button" href="#/review">${loaded.pending} pending review</a>` : ''}
      <a class="button" href="#/transfer">Import / export</a>
      <button class="primary" onClick=${() => navigate('knowledge', 'new')}>Add entry</button>
    </header>
    <${ProblemsBanner} problems=${problems ?? []} title="These files have problems and are left out until they are fixed:" />
    <div class="toolbar">
      <input type="search" class="search" name="search" placeholder="Search as lore query ranks: describe a task, a file, a technology…" value=${search} onInput=${(e: Event) => setSearch((e.target as HTMLInputElement).value)} />
      <${FilterBar} filters=${filters} onChange=${setFilters} projects=${loaded?.projects ?? []} agentTypes=${loaded?.agentTypes ?? []} />
    </div>
    ${error === undefined ? '' : html`<div class="banner error">${error}</div>`}
    ${loaded === undefined ? html`<p class="muted">Loading…</p>` : rows.length === 0 ? html`<${Empty} total=${loaded.total} searching=${searching} filtered=${hasFilters(filters)} navigate=${navigate} />` : html`
      ${searching ? html`<p class="muted note">${rows.length - loaded.unranked} ranked as <code>lore query</code> ranks them${loaded.unranked > 0 ? html`, then ${loaded.unranked} that contain the words but do not apply now (disabled, not valid now, or out of scope)` : ''}.</p>` : ''}
      <table class="data entries">
        <thead><tr>${searching ? html`<th class="num">Score</th>` : ''}<th>Entry</th><th>Type</th><th>Priority</th><th>Scope</th><th>Source</th><th class="num">Applied</th><th>State</th></tr></thead>
        <tbody>${shown.map((row) => html`<${EntryRow} key=${row.record.id} row=${row} searching=${searching} navigate=${navigate} />`)}</tbody>
      </table>
      ${pages > 1 ? html`<div class="pager">
        <button onClick=${() => setPage(page - 1)} disabled=${page === 0}>Previous</button>
        <span>Page ${page + 1} of ${pages} · ${rows.length} rows</span>
        <button onClick=${() => setPage(page + 1)} disabled=${page + 1 >= pages}>Next</button>
      </div>` : ''}`}
  </section>`;
}

function EntryRow({ row, searching, navigate }: { row: Row; searching: boolean; navigate: ScreenProps['navigate'] }) {
  const e: Entry = row.record.value;
  const stats = row.record.stats;
  return html`<tr class=${`clickable${e.enabled ? '' : ' disabled'}`} data-id=${e.id} onClick=${() => navigate('knowledge', e.id)}>
    ${searching ? html`<td class="num mono">${row.score === undefined ? '—' : row.score.toFixed(2)}</td>` : ''}
    <td class="entry-cell"><a href=${`#/knowledge/${encodeURIComponent(e.id)}`} class="title">${e.title}</a><div class="sub"><code>${e.id}</code>${row.record.file.startsWith('extends:') ? html` · <span class="badge" title=${row.record.file}>from ${row.record.file.slice('extends:'.length).split('/')[0]}</span>` : ''} · ${e.description}</div></td>
    <td><${TypeBadge} type=${e.type} /></td>
    <td><${PriorityBadge} priority=${e.priority} /></td>
    <td>${e.scope}${e.projectId === undefined ? '' : html`<div class="sub">${e.projectId}</div>`}${e.agentTypes === undefined ? '' : html`<div class="sub">${e.agentTypes.join(', ')}</div>`}</td>
    <td>${e.source}</td>
    <td class="num">${stats === undefined || stats.timesApplied === 0 ? html`<span class="muted">—</span>` : html`${stats.timesApplied}<span class="sub"> · ${stats.timesHelpful} helped</span>`}</td>
    <td>${e.enabled ? html`<span class="badge ok">enabled</span>` : html`<span class="badge">disabled</span>`}</td>
  </tr>`;
}

function Empty({ total, searching, filtered, navigate }: { total: number; searching: boolean; filtered: boolean; navigate: ScreenProps['navigate'] }) {
  if (total === 0 && !filtered) {
    return html`<div class="empty"><strong>No knowledge yet.</strong><p>Add the first recommendation, prohibition or learning, or import an export of another store.</p>
      <div class="row center"><button class="primary" onClick=${() => navigate('knowledge', 'new')}>Add entry</button><a class="button" href="#/transfer">Import</a></div></div>`;
  }
  return html`<div class="empty"><strong>Nothing matches.</strong><p>${searching ? 'No entry matches these words' : 'No entry passes these filters'}. Try fewer words or clear the filters.</p></div>`;
}

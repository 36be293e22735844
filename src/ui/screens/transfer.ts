// The Import / export screen. Import: a file is read in the page, the daemon says what importing
// it would do (a dry run: created, overwritten, unchanged, skipped, renamed), and applying it
// writes all of it or nothing. Export: the entries the Knowledge filters select, as the same bytes
// `lore export` writes, downloaded as a file.
import { useEffect, useState } from 'preact/hooks';
import { op, OpError, schema, type Problem } from '../api.js';
import { TypeBadge } from '../entries.js';
import type { SchemaNode } from '../form.js';
import { html } from '../html.js';
import { describeFilters, FilterBar, filterInput, hasFilters, useFilters } from '../knowledge-filter.js';
import type { ScreenProps } from '../screen.js';
import { where } from '../store-problems.js';

interface ImportItem {
  id: string;
  importedAs?: string;
  type: string;
  action: 'created' | 'overwritten' | 'unchanged' | 'skipped' | 'renamed';
  file: string;
}

interface ImportResult {
  dryRun: boolean;
  items: ImportItem[];
  warnings: string[];
}

/** What each action means, for the preview. */
const ACTION_WORDS: Record<ImportItem['action'], string> = {
  created: 'added',
  overwritten: 'changed (overwritten)',
  unchanged: 'already the same',
  skipped: 'skipped: the id is taken',
  renamed: 'added under a new id',
};

/** The Import / export screen. */
export function TransferScreen(_props: ScreenProps) {
  return html`<section class="screen">
    <header class="screen-head"><h1>Import / export</h1></header>
    <div class="transfer"><${ImportPanel} /><${ExportPanel} /></div>
  </section>`;
}

function ImportPanel() {
  const [file, setFile] = useState<{ name: string; text: string } | undefined>(undefined);
  const [conflicts, setConflicts] = useState<string[]>([]);
  const [onConflict, setOnConflict] = useState('skip');
  const [preview, setPreview] = useState<ImportResult | undefined>(undefined);
  const [applied, setApplied] = useState<ImportResult | undefined>(undefined);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void schema('ops/knowledge.import.input.schema.json').then((s) => setConflicts(((s as SchemaNode).properties?.onConflict?.enum ?? []).map(String)));
  }, []);
  const run = async (dryRun: boolean, source = file, mode = onConflict): Promise<void> => {
    if (source === undefined) return;
    setBusy(true);
    try {
      const result = await op<ImportResult>('knowledge.import', { text: source.text, file: source.name, onConflict: mode, dryRun });
      setProblems([]);
      if (dryRun) setPreview(result);
      else {
        setApplied(result);
        setPreview(undefined);
        setFile(undefined);
      }
    } catch (e) {
      setPreview(undefined);
      setProblems(e instanceof OpError ? (e.body.problems.length > 0 ? e.body.problems : [{ severity: 'error', message: e.body.message }]) : [{ severity: 'error', message: String(e) }]);
    } finally {
      setBusy(false);
    }
  };
  const choose = async (event: Event): Promise<void> => {
    const chosen = (event.target as HTMLInputElement).files?.[0];
    if (chosen === undefined) return;
    const source = { name: chosen.name, text: await chosen.text() };
    setFile(source);
    setApplied(undefined);
    await run(true, source);
  };
  const counts = new Map<string, number>();
  for (const item of preview?.items ?? []) counts.set(item.action, (counts.get(item.action) ?? 0) + 1);
  const writes = (preview?.items ?? []).filter((i) => i.action !== 'unchanged' && i.action !== 'skipped').length;

  return html`<div class="panel import">
    <h2>Import</h2>
    <p class="muted">An export of lore (<code>lore export</code>, or the download on the right): a JSON array or one entry per line. You see what it would do before anything is written, and it is written all at once or not at all.</p>
    <div class="drop">
      <div>Choose a <code>.json</code> or <code>.ndjson</code> file</div>
      <input type="file" name="import-file" accept=".json,.ndjson,.jsonl,application/json" onChange=${choose} />
    </div>
    <div class="row">
      <label class="filter"><span>When an id is taken</span>
        <select name="on-conflict" value=${onConflict} onChange=${(e: Event) => { const mode = (e.target as HTMLSelectElement).value; setOnConflict(mode); void run(true, file, mode); }}>
          ${conflicts.map((c) => html`<option value=${c}>${c}</option>`)}
        </select></label>
    </div>
    ${applied === undefined ? '' : html`<div class="banner info" role="status">Imported: ${summary(applied)}.</div>`}
    ${problems.length === 0 ? '' : html`<div class="banner error problems" role="alert"><strong>Nothing can be imported from ${file?.name ?? 'the file'}; fix these first:</strong>
      <ul>${problems.map((p) => html`<li><code>${where(p)}</code> ${p.message}</li>`)}</ul></div>`}
    ${preview === undefined ? '' : html`
      <h2>Preview of ${file?.name}</h2>
      <div class="summary-counts">${[...counts].map(([action, n]) => html`<span class="badge">${n} ${ACTION_WORDS[action as ImportItem['action']]}</span>`)}</div>
      ${preview.warnings.map((w) => html`<div class="banner info">${w}</div>`)}
      <table class="data import-preview">
        <thead><tr><th>Entry</th><th>Type</th><th>What happens</th></tr></thead>
        <tbody>${preview.items.map((i) => html`<tr data-action=${i.action}><td><code>${i.id}</code>${i.importedAs === undefined ? '' : html`<div class="sub">from ${i.importedAs}</div>`}</td><td><${TypeBadge} type=${i.type} /></td><td>${ACTION_WORDS[i.action]}</td></tr>`)}</tbody>
      </table>
      <div class="actions">
        <button class="primary" disabled=${busy || writes === 0} onClick=${() => run(false)}>${writes === 0 ? 'Nothing to import' : `Import ${writes} ${writes === 1 ? 'entry' : 'entries'}`}</button>
        <button onClick=${() => { setPreview(undefined); setFile(undefined); }}>Cancel</button>
      </div>`}
  </div>`;
}

function summary(result: ImportResult): string {
  const counts = new Map<string, number>();
  for (const item of result.items) counts.set(item.action, (counts.get(item.action) ?? 0) + 1);
  return [...counts].map(([action, n]) => `${n} ${action}`).join(', ') || 'nothing';
}

function ExportPanel() {
  const [filters, setFilters] = useFilters();
  const [format, setFormat] = useState<'json' | 'ndjson'>('json');
  const [error, setError] = useState<string | undefined>(undefined);
  const [done, setDone] = useState<string | undefined>(undefined);
  const download = async (): Promise<void> => {
    try {
      const entries = await op<unknown[]>('knowledge.export', hasFilters(filters) ? { filter: filterInput(filters) } : {});
      // The bytes of `lore export --format <format>`.
      const text = format === 'ndjson' ? entries.map((e) => `${JSON.stringify(e)}\n`).join('') : `${JSON.stringify(entries, null, 2)}\n`;
      const url = URL.createObjectURL(new Blob([text], { type: format === 'json' ? 'application/json' : 'application/x-ndjson' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `knowledge.${format}`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      setDone(`Exported ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'} to knowledge.${format}.`);
      setError(undefined);
    } catch (e) {
      setError(e instanceof OpError ? e.body.message : String(e));
    }
  };
  return html`<div class="panel export">
    <h2>Export</h2>
    <p class="muted">The recommendations, prohibitions and learnings that pass the filters (the Knowledge screen's), with their usage statistics, sorted by id: the same bytes as <code>lore export</code>.</p>
    <${FilterBar} filters=${filters} onChange=${setFilters} />
    <p>Exports <strong class="export-scope">${describeFilters(filters)}</strong>${filters.text.trim() === '' ? '' : ' (the search words do not apply to exports)'}.</p>
    <div class="row">
      <select name="export-format" value=${format} onChange=${(e: Event) => setFormat((e.target as HTMLSelectElement).value as 'json' | 'ndjson')}>
        <option value="json">JSON (an array)</option><option value="ndjson">NDJSON (one entry per line)</option>
      </select>
      <button class="primary" onClick=${download}>Download</button>
    </div>
    ${done === undefined ? '' : html`<div class="banner info" role="status">${done}</div>`}
    ${error === undefined ? '' : html`<div class="banner error">${error}</div>`}
  </div>`;
}

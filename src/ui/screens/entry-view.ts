// One knowledge entry: its fields as the schema orders them, its usage statistics, and the
// actions on it (edit, enable/disable, delete, record a use). It follows the file on disk: an edit
// made elsewhere shows at once, and a file made invalid shows its problems.
import { useEffect, useState } from 'preact/hooks';
import { op, OpError, schema, useStoreEvents } from '../api.js';
import { isEntryProblem, PriorityBadge, shortTime, TypeBadge, type EntryRecord, type Stats } from '../entries.js';
import { labelOf, type SchemaNode } from '../form.js';
import { html } from '../html.js';
import type { ScreenProps } from '../screen.js';
import { ProblemsBanner, useStoreProblems } from '../store-problems.js';

type State = { record: EntryRecord } | { missing: string } | undefined;

/** The detail view of entry `id`. */
export function EntryView({ id, navigate }: { id: string; navigate: ScreenProps['navigate'] }) {
  const [state, setState] = useState<State>(undefined);
  const [order, setOrder] = useState<string[]>([]);
  const [message, setMessage] = useState<{ error: boolean; text: string } | undefined>(undefined);
  const [confirming, setConfirming] = useState(false);
  const problems = useStoreProblems((p) => isEntryProblem(p) && (p.file ?? '').endsWith(`/${id}.yaml`), state !== undefined);

  const reload = (): void => {
    op<EntryRecord | EntryRecord[]>('record.show', { id, kind: 'entries' }).then(
      (r) => setState({ record: Array.isArray(r) ? r[0]! : r }),
      (e: unknown) => setState({ missing: e instanceof OpError ? e.body.message : String(e) }),
    );
  };
  useEffect(reload, [id]);
  useEffect(() => void schema('knowledge-entry.schema.json').then((s) => setOrder(Object.keys((s as SchemaNode).properties ?? {})), () => undefined), []);
  useStoreEvents((event) => {
    if (event.type === 'change' && event.paths.some((p) => p.endsWith(`/${id}.yaml`) || p.endsWith('applications.ndjson'))) reload();
  }, [id]);

  const act = async (name: string, input: unknown, done: string): Promise<void> => {
    try {
      await op(name, input);
      setMessage({ error: false, text: done });
      reload();
    } catch (e) {
      setMessage({ error: true, text: e instanceof OpError ? e.body.message : String(e) });
    }
  };

  if (state === undefined) return html`<section class="screen"><p class="muted">Loading…</p></section>`;
  if ('missing' in state) {
    return html`<section class="screen">
      <header class="screen-head"><a href="#/knowledge" class="back">← Knowledge</a></header>
      <${ProblemsBanner} problems=${problems ?? []} title=${`The file of ${id} is invalid, so lore leaves it out until it is fixed:`} />
      ${(problems ?? []).length === 0 ? html`<div class="empty"><strong>${state.missing}</strong><p><a href="#/knowledge">Back to all entries</a></p></div>` : ''}
    </section>`;
  }
  const { record } = state;
  const e = record.value;
  const stats: Stats = record.stats ?? { timesApplied: 0, timesHelpful: 0 };
  const fields = [...order.filter((k) => k in e), ...Object.keys(e).filter((k) => !order.includes(k))].filter((k) => !['id', 'title', 'description', 'type', 'priority'].includes(k));
  return html`<section class="screen entry-view">
    <header class="screen-head">
      <a href="#/knowledge" class="back">← Knowledge</a>
      <div class="spacer"></div>
      <button onClick=${() => navigate('knowledge', id, 'edit')}>Edit</button>
      ${e.enabled
        ? html`<button onClick=${() => act('entry.disable', { id }, `Disabled ${id}: kept, but never applied.`)}>Disable</button>`
        : html`<button onClick=${() => act('entry.enable', { id }, `Enabled ${id}.`)}>Enable</button>`}
      ${confirming
        ? html`<span class="confirm">Delete the file of ${id}? <button class="danger" onClick=${async () => { await act('entry.remove', { id }, `Deleted ${id}.`); navigate('knowledge'); }}>Delete</button> <button onClick=${() => setConfirming(false)}>Keep</button></span>`
        : html`<button class="danger" onClick=${() => setConfirming(true)}>Delete…</button>`}
    </header>
    ${message === undefined ? '' : html`<div class=${`banner ${message.error ? 'error' : 'info'}`} role="status">${message.text}</div>`}
    <${ProblemsBanner} problems=${problems ?? []} title="This file has problems:" />
    <div class="entry-head">
      <div class="row"><${TypeBadge} type=${e.type} /><${PriorityBadge} priority=${e.priority} />${e.enabled ? html`<span class="badge ok">enabled</span>` : html`<span class="badge">disabled</span>`}<code class="muted">${record.file}</code></div>
      <h1 class="entry-title">${e.title}</h1>
      <p class="lead">${e.description}</p>
    </div>
    <div class="entry-grid">
      <div class="panel"><dl class="fields">${fields.map((k) => html`<dt>${labelOf(k)}</dt><dd>${renderValue(e[k])}</dd>`)}</dl></div>
      <aside class="panel usage">
        <h2>Usage</h2>
        <div class="stats">
          <div><span class="big">${stats.timesApplied}</span><span class="muted">applied</span></div>
          <div><span class="big">${stats.timesHelpful}</span><span class="muted">helped</span></div>
          <div><span class="big">${stats.timesApplied === 0 ? '—' : `${Math.round((100 * stats.timesHelpful) / stats.timesApplied)}%`}</span><span class="muted">helpful</span></div>
        </div>
        <p class="muted">Last applied: ${shortTime(stats.lastApplied)}</p>
        <${RecordUse} id=${id} onDone=${(text: string) => { setMessage({ error: false, text }); reload(); }} />
      </aside>
    </div>
  </section>`;
}

/** A field's value, readable: lists as chips, objects as nested lists, times shortened. */
function renderValue(value: unknown): unknown {
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'string')) return value.length === 0 ? html`<span class="muted">none</span>` : html`<div class="chips">${value.map((v) => html`<span class="chip">${v}</span>`)}</div>`;
    return value.map((v) => html`<div class="nested">${renderValue(v)}</div>`);
  }
  if (value !== null && typeof value === 'object') return html`<dl class="fields inner">${Object.entries(value).map(([k, v]) => html`<dt>${labelOf(k)}</dt><dd>${renderValue(v)}</dd>`)}</dl>`;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) return html`<span title=${value}>${shortTime(value)}</span>`;
  return String(value);
}

/** Records that the entry was applied to a task (usage.record), and whether it helped. */
function RecordUse({ id, onDone }: { id: string; onDone(text: string): void }) {
  const [task, setTask] = useState('');
  const [helpful, setHelpful] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    try {
      await op('usage.record', { entryId: id, taskId: task.trim(), ...(helpful === '' ? {} : { helpful: helpful === 'yes' }) });
      setTask('');
      setError(undefined);
      onDone(`Recorded a use of ${id} in ${task.trim()}.`);
    } catch (e) {
      setError(e instanceof OpError ? (e.body.problems[0]?.message ?? e.body.message) : String(e));
    }
  };
  return html`<form class="record-use" onSubmit=${submit}>
    <h2>Record a use</h2>
    <div class=${`field${error === undefined ? '' : ' invalid'}`}>
      <label for="use-task">Task id</label>
      <input id="use-task" name="taskId" value=${task} placeholder="TASK-42" onInput=${(e: Event) => setTask((e.target as HTMLInputElement).value)} />
      ${error === undefined ? '' : html`<div class="error" role="alert">${error}</div>`}
    </div>
    <div class="row">
      <select name="helpful" value=${helpful} onChange=${(e: Event) => setHelpful((e.target as HTMLSelectElement).value)}>
        <option value="">not judged</option><option value="yes">it helped</option><option value="no">it did not help</option>
      </select>
      <button type="submit" disabled=${task.trim() === ''}>Record</button>
    </div>
  </form>`;
}

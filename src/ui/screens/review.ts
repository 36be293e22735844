// The Review screen: captured learnings waiting for review, oldest first, each with the existing
// entries it resembles. Approve it (changing fields on the way, in a form from the entry schema)
// or reject it with a reason, which lore keeps so the same learning is recognised next time.
import { useEffect, useState } from 'preact/hooks';
import { op, OpError, schema, useStoreEvents, type Problem } from '../api.js';
import { entryProblems, isEntryProblem, MANAGED, PriorityBadge, shortTime, TypeBadge, type Entry } from '../entries.js';
import { changedFields, cleanValue, Fields, labelOf, unplaced, type SchemaNode, type Value } from '../form.js';
import { html } from '../html.js';
import type { ScreenProps } from '../screen.js';
import { ProblemsBanner, useStoreProblems } from '../store-problems.js';

/** How similar an existing entry must be to be listed next to a pending learning. */
const SIMILAR = 0.7;

interface Pending {
  id: string;
  file: string;
  value: Entry;
  similar?: Array<{ id: string; type: string; title: string; similarity: number }>;
}

/** The Review screen. */
export function ReviewScreen(_props: ScreenProps) {
  const [items, setItems] = useState<Pending[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [done, setDone] = useState<string | undefined>(undefined);
  const [root, setRoot] = useState<SchemaNode | undefined>(undefined);
  const problems = useStoreProblems((p) => isEntryProblem(p) && (p.file ?? '').includes('/pending/'), items !== undefined);
  const reload = (): void => {
    op<Pending[]>('learning.pending', { similar: SIMILAR }).then(
      (list) => {
        setItems(list);
        setError(undefined);
      },
      (e: unknown) => setError(e instanceof OpError ? e.body.message : String(e)),
    );
  };
  useEffect(() => {
    reload();
    void schema('knowledge-entry.schema.json').then((s) => setRoot(s as SchemaNode));
  }, []);
  useStoreEvents((event) => {
    if (event.type === 'change') reload();
  });

  return html`<section class="screen review">
    <header class="screen-head">
      <h1>Review</h1>
      ${items === undefined ? '' : html`<span class="muted count">${items.length} pending</span>`}
    </header>
    ${done === undefined ? '' : html`<div class="banner info" role="status">${done}</div>`}
    ${error === undefined ? '' : html`<div class="banner error">${error}</div>`}
    <${ProblemsBanner} problems=${problems ?? []} title="These pending learnings have problems and are left out until they are fixed:" />
    ${items === undefined ? html`<p class="muted">Loading…</p>` : items.length === 0 ? html`<div class="empty"><strong>Nothing waits for review.</strong>
      <p>Learnings that agents capture (<code>lore capture</code>, or the <code>learning.capture</code> tool) appear here until someone approves or rejects them.</p></div>`
      : html`<div class="review-list">${items.map((item) => html`<${PendingCard} key=${item.id} item=${item} root=${root} onDone=${(text: string) => { setDone(text); reload(); }} />`)}</div>`}
  </section>`;
}

function PendingCard({ item, root, onDone }: { item: Pending; root: SchemaNode | undefined; onDone(text: string): void }) {
  const [mode, setMode] = useState<'view' | 'approve' | 'reject'>('view');
  // Problems of a plain approval open the form, so they can be fixed where they are shown.
  const [refused, setRefused] = useState<Problem[]>([]);
  const e = item.value;
  const c = e.capture;
  return html`<article class="panel pending-card" data-id=${item.id}>
    <div class="row"><${TypeBadge} type=${e.type} /><${PriorityBadge} priority=${e.priority} /><code class="muted">${item.id}</code><span class="muted">captured ${shortTime(e.createdAt)} by ${e.createdBy}</span></div>
    <h2>${e.title}</h2>
    <p>${e.description}</p>
    ${c === undefined ? '' : html`<dl class="capture">
      <dt>Task</dt><dd><code>${c.taskId}</code> in ${c.projectId} · <strong>${c.outcome}</strong></dd>
      <dt>What happened</dt><dd>${c.description}</dd>
      ${(['whatWorked', 'whatFailed', 'rootCause'] as const).filter((k) => c[k] !== undefined).map((k) => html`<dt>${labelOf(k)}</dt><dd>${c[k]}</dd>`)}
    </dl>`}
    <div class="similar">
      <h3>Similar existing entries</h3>
      ${(item.similar ?? []).length === 0 ? html`<span class="muted">None at ${Math.round(SIMILAR * 100)}% similarity or more: this looks new.</span>` : html`<ul>${item.similar!.map((s) => html`<li>
        <span class=${`pct${s.similarity >= 0.8 ? ' high' : ''}`}>${Math.round(s.similarity * 100)}%</span>
        <${TypeBadge} type=${s.type} /> <a href=${`#/knowledge/${encodeURIComponent(s.id)}`}>${s.title}</a> <code class="muted">${s.id}</code></li>`)}</ul>`}
    </div>
    ${mode === 'approve' && root !== undefined ? html`<${ApproveForm} item=${item} root=${root} initial=${refused} onCancel=${() => setMode('view')} onDone=${onDone} />`
      : mode === 'reject' ? html`<${RejectForm} id=${item.id} onCancel=${() => setMode('view')} onDone=${onDone} />`
      : html`<div class="card-actions">
        <button class="primary" onClick=${async () => {
          const problems = await approve(item.id, {}, onDone);
          if (problems.length > 0) {
            setRefused(problems);
            setMode('approve');
          }
        }}>Approve</button>
        <button onClick=${() => setMode('approve')}>Edit and approve…</button>
        <button class="danger" onClick=${() => setMode('reject')}>Reject…</button>
      </div>`}
  </article>`;
}

async function approve(id: string, set: Value, onDone: (text: string) => void): Promise<Problem[]> {
  try {
    const result = await op<{ file: string }>('learning.approve', { id, ...(Object.keys(set).length === 0 ? {} : { set }) });
    onDone(`Approved ${id}: now ${result.file}.`);
    return [];
  } catch (e) {
    if (e instanceof OpError) return entryProblems(e);
    return [{ severity: 'error', message: String(e) }];
  }
}

function ApproveForm({ item, root, initial, onCancel, onDone }: { item: Pending; root: SchemaNode; initial: Problem[]; onCancel(): void; onDone(text: string): void }) {
  const [value, setValue] = useState<Value>(item.value);
  const [problems, setProblems] = useState<Problem[]>(initial);
  const options = { omit: [...MANAGED, 'approvedBy', 'approvedAt'], readOnly: ['id'] };
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setProblems(await approve(item.id, changedFields(item.value, cleanValue(value) as Value), onDone));
  };
  const general = unplaced(root, root, problems, options);
  return html`<form class="form approve-form" onSubmit=${submit} novalidate>
    ${problems.length > 0 ? html`<div class="banner error" role="alert">Not approved: ${general.length > 0 ? general.map((p) => html`<div>${p.message}</div>`) : 'fix the fields marked below.'}</div>` : ''}
    <${Fields} root=${root} node=${root} value=${value} pointer="" problems=${problems} readOnly=${false} options=${options} onChange=${setValue} />
    <div class="actions"><button type="submit" class="primary">Approve with these changes</button><button type="button" onClick=${onCancel}>Cancel</button></div>
  </form>`;
}

function RejectForm({ id, onCancel, onDone }: { id: string; onCancel(): void; onDone(text: string): void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    try {
      await op('learning.reject', { id, reason });
      onDone(`Rejected ${id}; the reason is kept in log/rejections.ndjson.`);
    } catch (e) {
      setError(e instanceof OpError ? (e.body.problems[0]?.message ?? e.body.message) : String(e));
    }
  };
  return html`<form class="card-actions" onSubmit=${submit} novalidate>
    <div class=${`field reject-form${error === undefined ? '' : ' invalid'}`}>
      <label for=${`reason-${id}`}>Why is it rejected?</label>
      <textarea id=${`reason-${id}`} name="reason" rows="2" placeholder="e.g. already covered by rec-use-retries" value=${reason} onInput=${(e: Event) => setReason((e.target as HTMLTextAreaElement).value)}></textarea>
      ${error === undefined ? '' : html`<div class="error" role="alert">${error}</div>`}
    </div>
    <button type="submit" class="danger">Reject</button><button type="button" onClick=${onCancel}>Cancel</button>
  </form>`;
}

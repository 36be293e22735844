// Adding and editing an entry with a form generated from schemas/knowledge-entry.schema.json. The
// server validates (the same checks as the CLI); its problems are shown next to their fields and
// nothing is written while any remains.
import { useEffect, useState } from 'preact/hooks';
import { op, OpError, schema, type Problem } from '../api.js';
import { entryProblems, MANAGED, type EntryRecord } from '../entries.js';
import { changedFields, cleanValue, Fields, unplaced, type FormOptions, type SchemaNode, type Value } from '../form.js';
import { html } from '../html.js';
import type { ScreenProps } from '../screen.js';

/** What entry.add fills in when the form leaves it out: shown with these values to start with. */
const ADD_START: Value = { scope: 'global', priority: 'medium', source: 'manual', enabled: true, keywords: [] };

/** The add form (no id) or the edit form of entry `id`. */
export function EntryForm({ id, type, navigate }: { id?: string; type?: string; navigate: ScreenProps['navigate'] }) {
  const [root, setRoot] = useState<SchemaNode | undefined>(undefined);
  const [types, setTypes] = useState<string[]>([]);
  const [kind, setKind] = useState(type ?? '');
  const [original, setOriginal] = useState<Value | undefined>(id === undefined ? ADD_START : undefined);
  const [value, setValue] = useState<Value>(ADD_START);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<string | undefined>(undefined);

  useEffect(() => {
    void schema('knowledge-entry.schema.json').then((s) => setRoot(s as SchemaNode));
    // The types an entry can be added as: entry.add's own schema says.
    void schema('ops/entry.add.input.schema.json').then((s) => {
      const list = ((s as SchemaNode).properties?.type?.enum ?? []).map(String);
      setTypes(list);
      setKind((k) => (k === '' || !list.includes(k) ? list[0] ?? '' : k));
    });
    if (id !== undefined) {
      op<EntryRecord | EntryRecord[]>('record.show', { id, kind: 'entries' }).then(
        (r) => {
          const record = Array.isArray(r) ? r[0]! : r;
          setOriginal(record.value);
          setValue(record.value);
        },
        (e: unknown) => setProblems(e instanceof OpError ? entryProblems(e) : [{ severity: 'error', message: String(e) }]),
      );
    }
  }, [id]);

  const options: FormOptions = id === undefined
    ? { omit: MANAGED, optional: ['id', 'createdBy'] }
    : { omit: MANAGED, readOnly: ['id'] };

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setSaving(true);
    setNotice(undefined);
    try {
      if (id === undefined) {
        const added = await op<{ id: string }>('entry.add', { type: kind, entry: cleanValue(value) });
        navigate('knowledge', added.id);
      } else {
        const set = changedFields(original!, cleanValue(value) as Value);
        if (Object.keys(set).length === 0) {
          setNotice('Nothing changed.');
          setProblems([]);
          return;
        }
        await op('entry.edit', { id, set });
        navigate('knowledge', id);
      }
    } catch (e) {
      setProblems(e instanceof OpError ? entryProblems(e) : [{ severity: 'error', message: String(e) }]);
    } finally {
      setSaving(false);
    }
  };

  const title = id === undefined ? 'Add an entry' : `Edit ${id}`;
  if (root === undefined || original === undefined) {
    return html`<section class="screen"><header class="screen-head"><h1>${title}</h1></header>
      ${problems.length > 0 ? html`<div class="banner error">${problems.map((p) => html`<div>${p.message}</div>`)}</div>` : html`<p class="muted">Loading…</p>`}</section>`;
  }
  const general = unplaced(root, root, problems, options);
  return html`<section class="screen entry-form">
    <header class="screen-head">
      <a href=${id === undefined ? '#/knowledge' : `#/knowledge/${encodeURIComponent(id)}`} class="back">← ${id === undefined ? 'Knowledge' : id}</a>
    </header>
    <form class="panel form" onSubmit=${submit} novalidate>
      <h1>${title}</h1>
      ${general.length > 0 ? html`<div class="banner error" role="alert">${general.length === problems.length ? 'Nothing was saved: ' : 'Nothing was saved. '}${general.map((p) => html`<div>${p.message}</div>`)}</div>`
        : problems.length > 0 ? html`<div class="banner error" role="alert">Nothing was saved: ${problems.length === 1 ? 'a field needs' : `${problems.length} fields need`} fixing.</div>` : ''}
      ${notice === undefined ? '' : html`<div class="banner info">${notice}</div>`}
      ${id === undefined ? html`<div class="field">
        <label for="entry-type">Type <span class="req">*</span></label>
        <div class="segmented" id="entry-type">${types.map((t) => html`<button type="button" class=${t === kind ? 'on' : ''} aria-pressed=${t === kind} onClick=${() => setKind(t)}>${t}</button>`)}</div>
      </div>` : ''}
      <${Fields} root=${root} node=${root} value=${value} pointer="" problems=${problems} readOnly=${false} options=${options} onChange=${setValue} />
      <div class="actions">
        <button type="submit" class="primary" disabled=${saving}>${id === undefined ? `Add ${kind}` : 'Save changes'}</button>
        <button type="button" onClick=${() => (id === undefined ? navigate('knowledge') : navigate('knowledge', id))}>Cancel</button>
      </div>
    </form>
  </section>`;
}

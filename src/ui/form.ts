// Forms generated from a JSON Schema: one field per property, its widget chosen by the property's
// type (enum → select, boolean → checkbox, list of strings → one per line, list of objects →
// repeated sub-forms, object → a group), its help from the description. A field the schema gains
// appears here with no code. Errors are the server's problems, placed by their JSON pointer.
import { useState } from 'preact/hooks';
import type { Problem } from './api.js';
import { html, type Markup } from './html.js';

/** The part of JSON Schema the forms read. */
export interface SchemaNode {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  $ref?: string;
  $defs?: Record<string, SchemaNode>;
  maxLength?: number;
  pattern?: string;
  format?: string;
}

export type Value = Record<string, unknown>;

export interface FormOptions {
  /** Properties not shown (lore maintains them). */
  omit?: readonly string[];
  /** Properties shown but not editable. */
  readOnly?: readonly string[];
  /** Required by the schema but filled in when left empty (shown as optional). */
  optional?: readonly string[];
}

/** Follows a local `$ref` (`#/$defs/example`) inside the bundled schema. */
export function resolve(root: SchemaNode, node: SchemaNode): SchemaNode {
  let current = node;
  for (let hops = 0; current.$ref !== undefined && hops < 20; hops++) {
    const parts = current.$ref.replace(/^#\//, '').split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let target: unknown = root;
    for (const part of parts) target = (target as Record<string, unknown> | undefined)?.[part];
    const { $ref: _ref, ...rest } = current;
    current = { ...(target as SchemaNode), ...rest };
  }
  return current;
}

/** "validFrom" → "Valid from", "agentTypes" → "Agent types". */
export function labelOf(name: string): string {
  const words = name.replace(/_/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const typeOf = (node: SchemaNode): string | undefined => (Array.isArray(node.type) ? node.type.find((t) => t !== 'null') : node.type);
const isEmpty = (value: unknown): boolean => value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** The value without empty strings, empty lists and blank lines of string lists: what is sent. */
export function cleanValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cleanValue).filter((v) => !(typeof v === 'string' && v.trim() === ''));
  if (value === null || typeof value !== 'object') return value;
  const out: Value = {};
  for (const [key, child] of Object.entries(value as Value)) {
    const cleaned = cleanValue(child);
    if (cleaned !== undefined && cleaned !== '') out[key] = cleaned;
  }
  return out;
}

/** The problems whose pointer is `pointer` exactly. */
const problemsAt = (problems: readonly Problem[], pointer: string): Problem[] => problems.filter((p) => (p.pointer ?? '') === pointer);

interface FieldProps {
  root: SchemaNode;
  name: string;
  node: SchemaNode;
  value: unknown;
  pointer: string;
  required: boolean;
  readOnly: boolean;
  problems: readonly Problem[];
  onChange(value: unknown): void;
}

function Errors({ problems }: { problems: Problem[] }) {
  return problems.map((p) => html`<div class="error" role="alert">${p.message}</div>`);
}

/** One property's field: label, widget, help, and the errors the server placed on it. */
function Field(props: FieldProps): Markup {
  const { root, name, value, pointer, problems, onChange, readOnly } = props;
  const node = resolve(root, props.node);
  const type = typeOf(node);
  const here = problemsAt(problems, pointer);
  const id = `f${pointer.replace(/[^A-Za-z0-9]/g, '-')}`;
  const label = html`<label for=${id}>${labelOf(name)}${props.required ? html`<span class="req" title="required"> *</span>` : ''} <code class="key">${name}</code></label>`;
  const help = node.description === undefined ? '' : html`<div class="help">${node.description}</div>`;
  const classes = `field${here.length > 0 ? ' invalid' : ''}`;
  const common = { id, name: pointer, disabled: readOnly, 'aria-invalid': here.length > 0 ? 'true' : undefined };
  let widget: Markup;
  if (node.enum !== undefined) {
    widget = html`<select ...${common} value=${value === undefined ? '' : String(value)} onChange=${(e: Event) => onChange(pick(node.enum!, (e.target as HTMLSelectElement).value))}>
      ${props.required && value !== undefined ? '' : html`<option value="">—</option>`}
      ${node.enum.map((v) => html`<option value=${String(v)}>${String(v)}</option>`)}
    </select>`;
  } else if (type === 'boolean') {
    widget = props.required
      ? html`<label class="check"><input type="checkbox" ...${common} checked=${value === true} onChange=${(e: Event) => onChange((e.target as HTMLInputElement).checked)} /> ${value === true ? 'yes' : 'no'}</label>`
      : html`<select ...${common} value=${value === undefined ? '' : String(value)} onChange=${(e: Event) => { const v = (e.target as HTMLSelectElement).value; onChange(v === '' ? undefined : v === 'true'); }}>
          <option value="">—</option><option value="true">yes</option><option value="false">no</option>
        </select>`;
  } else if (type === 'array' && node.items !== undefined && typeOf(resolve(root, node.items)) === 'object') {
    return html`<fieldset class=${`group ${classes}`}><legend>${labelOf(name)} <code class="key">${name}</code></legend>${help}<${Errors} problems=${here} />
      <${ObjectList} ...${props} node=${node} /></fieldset>`;
  } else if (type === 'array') {
    const lines = Array.isArray(value) ? (value as unknown[]).map(String).join('\n') : '';
    widget = html`<textarea ...${common} class="lines" rows=${Math.max(2, Math.min(8, lines.split('\n').length + 1))} placeholder="one per line" value=${lines} onInput=${(e: Event) => { const t = (e.target as HTMLTextAreaElement).value; onChange(t === '' && !props.required ? undefined : t === '' ? [] : t.split('\n')); }}></textarea>`;
    const itemProblems = problems.filter((p) => p.pointer !== undefined && p.pointer.startsWith(`${pointer}/`));
    return html`<div class=${itemProblems.length > 0 ? `${classes} invalid` : classes}>${label}${widget}${help}<${Errors} problems=${[...here, ...itemProblems]} /></div>`;
  } else if (type === 'object' && node.properties !== undefined) {
    // An optional group not set is one button: its required sub-fields are not asked for until wanted.
    if (value === undefined && !props.required) {
      return html`<div class="field"><label>${labelOf(name)} <code class="key">${name}</code></label>${help}
        ${readOnly ? html`<span class="muted">none</span>` : html`<div><button type="button" class="small" onClick=${() => onChange({})}>Add ${labelOf(name).toLowerCase()}</button></div>`}<${Errors} problems=${here} /></div>`;
    }
    return html`<fieldset class=${`group ${classes}`}><legend>${labelOf(name)} <code class="key">${name}</code></legend>${help}<${Errors} problems=${here} />
      <${Fields} root=${root} node=${node} value=${(value ?? {}) as Value} pointer=${pointer} problems=${problems} readOnly=${readOnly} onChange=${onChange} />
      ${props.required || readOnly ? '' : html`<button type="button" class="small" onClick=${() => onChange(undefined)}>Remove ${labelOf(name).toLowerCase()}</button>`}</fieldset>`;
  } else if (type === 'number' || type === 'integer') {
    widget = html`<input type="number" step=${type === 'integer' ? '1' : 'any'} ...${common} value=${value === undefined ? '' : String(value)} onInput=${(e: Event) => { const t = (e.target as HTMLInputElement).value; onChange(t === '' ? undefined : Number(t)); }} />`;
  } else {
    const text = value === undefined ? '' : String(value);
    // Shaped strings (ids, dates, bounded titles) are one line; free text grows with what is typed.
    const shaped = node.maxLength !== undefined || node.pattern !== undefined || node.format !== undefined;
    widget = shaped
      ? html`<input type="text" ...${common} value=${text} onInput=${(e: Event) => onChange((e.target as HTMLInputElement).value)} />`
      : html`<textarea ...${common} class="grow" rows=${rowsFor(text)} value=${text} onInput=${(e: Event) => onChange((e.target as HTMLTextAreaElement).value)}></textarea>`;
  }
  return html`<div class=${classes}>${label}${widget}${help}<${Errors} problems=${here} /></div>`;
}

/** Rows for a text: its lines, long ones wrapped at about 100 characters, at most 12. */
function rowsFor(text: string): number {
  const rows = text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / 100)), 0);
  return Math.min(12, rows);
}

/** Whether a property's widget is small (a select, a checkbox, a number): several share a row. */
function isShort(root: SchemaNode, node: SchemaNode): boolean {
  const n = resolve(root, node);
  const type = typeOf(n);
  return n.enum !== undefined || type === 'boolean' || type === 'number' || type === 'integer';
}

/** The enum value a select's text stands for ('' → unset). */
function pick(values: unknown[], text: string): unknown {
  if (text === '') return undefined;
  return values.find((v) => String(v) === text);
}

/** A list of objects: one sub-form per item, with add and remove. */
function ObjectList(props: FieldProps): Markup {
  const { root, value, pointer, problems, onChange, readOnly } = props;
  const items = Array.isArray(value) ? (value as Value[]) : [];
  const itemNode = resolve(root, props.node.items!);
  const set = (index: number, item: Value | undefined): void => {
    const next = items.slice();
    if (item === undefined) next.splice(index, 1);
    else next[index] = item;
    onChange(next);
  };
  return html`<div class="object-list">
    ${items.map((item, i) => html`<div class="object-item">
      <${Fields} root=${root} node=${itemNode} value=${item} pointer=${`${pointer}/${i}`} problems=${problems} readOnly=${readOnly} onChange=${(v: Value) => set(i, v)} />
      ${readOnly ? '' : html`<button type="button" class="small" onClick=${() => set(i, undefined)}>Remove</button>`}
    </div>`)}
    ${readOnly ? '' : html`<button type="button" class="small" onClick=${() => onChange([...items, {}])}>Add ${labelOf(props.name).toLowerCase().replace(/s$/, '')}</button>`}
  </div>`;
}

interface FieldsProps {
  root: SchemaNode;
  node: SchemaNode;
  value: Value;
  pointer: string;
  problems: readonly Problem[];
  readOnly: boolean;
  onChange(value: Value): void;
  options?: FormOptions;
}

/** The fields of an object schema; the empty optional ones folded under "More fields". */
export function Fields(props: FieldsProps): Markup {
  const { root, value, pointer, problems, options = {} } = props;
  const node = resolve(root, props.node);
  const [open, setOpen] = useState(false);
  const required = new Set((node.required ?? []).filter((n) => !(options.optional ?? []).includes(n)));
  const names = Object.keys(node.properties ?? {}).filter((n) => !(options.omit ?? []).includes(n));
  const field = (name: string): Markup => html`<${Field} key=${name} root=${root} name=${name} node=${node.properties![name]!} value=${value[name]} pointer=${`${pointer}/${name}`}
      required=${required.has(name)} readOnly=${props.readOnly || (options.readOnly ?? []).includes(name)} problems=${problems}
      onChange=${(v: unknown) => props.onChange(setField(value, name, v))} />`;
  // A field with a value or a problem is always shown; so is every required one.
  const shown = (name: string): boolean => required.has(name) || !isEmpty(value[name]) || problems.some((p) => (p.pointer ?? '').startsWith(`${pointer}/${name}`));
  const main = names.filter(shown);
  const more = names.filter((n) => !shown(n));
  // Runs of small fields share a row, so a form is not a long column of narrow selects.
  const laid = (list: string[]): Markup[] => {
    const out: Markup[] = [];
    let run: string[] = [];
    const flush = (): void => {
      if (run.length > 0) out.push(run.length === 1 ? field(run[0]!) : html`<div class="field-row">${run.map(field)}</div>`);
      run = [];
    };
    for (const name of list) {
      if (isShort(root, node.properties![name]!)) run.push(name);
      else {
        flush();
        out.push(field(name));
      }
    }
    flush();
    return out;
  };
  if (more.length === 0) return html`<div class="fields">${laid(main)}</div>`;
  return html`<div class="fields">${laid(main)}
    <details class="more" open=${open} onToggle=${(e: Event) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary>More fields (${more.length}): ${more.join(', ')}</summary>
      ${open ? laid(more) : ''}
    </details></div>`;
}

/** The object with one property set (undefined removes it). */
function setField(value: Value, name: string, v: unknown): Value {
  const next = { ...value };
  if (v === undefined) delete next[name];
  else next[name] = v;
  return next;
}

/** The problems no field of the form shows (the whole record's, or of a field it does not have). */
export function unplaced(root: SchemaNode, node: SchemaNode, problems: readonly Problem[], options: FormOptions = {}): Problem[] {
  const names = Object.keys(resolve(root, node).properties ?? {}).filter((n) => !(options.omit ?? []).includes(n));
  return problems.filter((p) => {
    const first = (p.pointer ?? '').split('/')[1];
    return first === undefined || first === '' || !names.includes(first);
  });
}

/**
 * Which fields differ between the original and the edited value, as entry.edit's `set` takes
 * them: the new value, or null for a field removed.
 */
export function changedFields(original: Value, edited: Value): Value {
  const set: Value = {};
  for (const key of new Set([...Object.keys(original), ...Object.keys(edited)])) {
    const before = original[key];
    const after = edited[key];
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    set[key] = after === undefined ? null : after;
  }
  return set;
}

// The knowledge filters (type, priority, scope, source, project, agent type, enabled, valid now)
// and the search text: one state shared by the Knowledge table and the export, so an export holds
// what the table shows. The choices come from the filter's JSON Schema.
import { useEffect, useState } from 'preact/hooks';
import { schema } from './api.js';
import { resolve, type SchemaNode } from './form.js';
import { html } from './html.js';

export interface Filters {
  text: string;
  type: string;
  priority: string;
  scope: string;
  source: string;
  projectId: string;
  agentType: string;
  enabled: '' | 'true' | 'false';
  validNow: boolean;
}

export const NO_FILTERS: Filters = { text: '', type: '', priority: '', scope: '', source: '', projectId: '', agentType: '', enabled: '', validNow: false };

/** Every filter cleared, the search text kept. */
const { text: _text, ...CLEARED } = NO_FILTERS;

let current: Filters = NO_FILTERS;
const listeners = new Set<(f: Filters) => void>();

/**
 * The shared filters and their updater. An update is a patch on the latest filters, not on the
 * ones a render saw: two changes made before the page renders again both hold.
 */
export function useFilters(): [Filters, (patch: Partial<Filters>) => void] {
  const [filters, setLocal] = useState(current);
  useEffect(() => {
    listeners.add(setLocal);
    return () => void listeners.delete(setLocal);
  }, []);
  return [filters, updateFilters];
}

function updateFilters(patch: Partial<Filters>): void {
  current = { ...current, ...patch };
  for (const l of listeners) l(current);
}

/** The filters as the operations' `knowledgeFilter` takes them (the search text left out). */
export function filterInput(f: Filters, now = new Date()): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (f.type !== '') out.types = [f.type];
  if (f.priority !== '') out.priorities = [f.priority];
  if (f.scope !== '') out.scopes = [f.scope];
  if (f.source !== '') out.sources = [f.source];
  if (f.projectId.trim() !== '') out.projectId = f.projectId.trim();
  if (f.agentType.trim() !== '') out.agentType = f.agentType.trim();
  if (f.enabled !== '') out.enabled = f.enabled === 'true';
  if (f.validNow) out.validAt = now.toISOString();
  return out;
}

/** Whether any filter (not the text) is set. */
export const hasFilters = (f: Filters): boolean => Object.keys(filterInput(f)).length > 0;

/** The filters in words, for the export: "type prohibition, priority critical". */
export function describeFilters(f: Filters): string {
  const parts = [['type', f.type], ['priority', f.priority], ['scope', f.scope], ['source', f.source], ['project', f.projectId], ['agent type', f.agentType]]
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k} ${v}`);
  if (f.enabled !== '') parts.push(f.enabled === 'true' ? 'enabled' : 'disabled');
  if (f.validNow) parts.push('valid now');
  return parts.length === 0 ? 'all entries' : parts.join(', ');
}

type Choices = Record<'types' | 'priorities' | 'scopes' | 'sources', string[]>;
let choices: Promise<Choices> | undefined;

/** The values of each list filter, read from the filter's schema. */
function loadChoices(): Promise<Choices> {
  choices ??= schema('ops/record.list.input.schema.json').then((root) => {
    const filter = resolve(root as SchemaNode, (root as SchemaNode).properties!.filter!);
    const values = (name: string): string[] => (resolve(root as SchemaNode, filter.properties![name]!).items?.enum ?? []).map(String);
    return { types: values('types'), priorities: values('priorities'), scopes: values('scopes'), sources: values('sources') };
  });
  return choices;
}

/** The filter bar: a select per list filter, project and agent type, enabled, valid now. */
export function FilterBar({ filters, onChange, projects = [], agentTypes = [] }: { filters: Filters; onChange(patch: Partial<Filters>): void; projects?: string[]; agentTypes?: string[] }) {
  const [values, setValues] = useState<Choices | undefined>(undefined);
  useEffect(() => void loadChoices().then(setValues, () => undefined), []);
  const select = (key: 'type' | 'priority' | 'scope' | 'source', list: string[] | undefined, all: string) => html`
    <label class="filter"><span>${key}</span>
      <select name=${`filter-${key}`} value=${filters[key]} onChange=${(e: Event) => onChange({ [key]: (e.target as HTMLSelectElement).value })}>
        <option value="">${all}</option>
        ${(list ?? []).map((v) => html`<option value=${v}>${v}</option>`)}
      </select></label>`;
  return html`<div class="filters">
    ${select('type', values?.types, 'all types')}
    ${select('priority', values?.priorities, 'any priority')}
    ${select('scope', values?.scopes, 'any scope')}
    ${select('source', values?.sources, 'any source')}
    <label class="filter"><span>project</span>
      <input name="filter-project" list="known-projects" placeholder="any" value=${filters.projectId} onChange=${(e: Event) => onChange({ projectId: (e.target as HTMLInputElement).value })} />
      <datalist id="known-projects">${projects.map((p) => html`<option value=${p} />`)}</datalist></label>
    <label class="filter"><span>agent type</span>
      <input name="filter-agent-type" list="known-agent-types" placeholder="any" value=${filters.agentType} onChange=${(e: Event) => onChange({ agentType: (e.target as HTMLInputElement).value })} />
      <datalist id="known-agent-types">${agentTypes.map((p) => html`<option value=${p} />`)}</datalist></label>
    <label class="filter"><span>state</span>
      <select name="filter-enabled" value=${filters.enabled} onChange=${(e: Event) => onChange({ enabled: (e.target as HTMLSelectElement).value as Filters['enabled'] })}>
        <option value="">enabled or not</option><option value="true">enabled</option><option value="false">disabled</option>
      </select></label>
    <label class="filter check"><input type="checkbox" name="filter-valid-now" checked=${filters.validNow} onChange=${(e: Event) => onChange({ validNow: (e.target as HTMLInputElement).checked })} /> valid now</label>
    ${hasFilters(filters) ? html`<button type="button" class="link" onClick=${() => onChange(CLEARED)}>Clear filters</button>` : ''}
  </div>`;
}

// The store's operations: open, check and list it.
import type { OpEntry } from '../_define.js';

export const STORE_OPS: readonly OpEntry[] = [
  { name: 'store.init', summary: 'scaffold (or complete) .knowledge/ at the top of the git repository', readOnly: false, load: () => import('./init.js') },
  { name: 'store.seed', summary: 'write the default roles, gate profiles and implementation modes', readOnly: false, load: () => import('./seed.js') },
  { name: 'pack.list', summary: 'list the starter packs of prohibitions this lore ships, with their rules', readOnly: true, load: () => import('./pack-list.js') },
  { name: 'pack.add', summary: "write a starter pack's prohibitions that are missing from the store (all or none); edited ones are kept", readOnly: false, load: () => import('./pack-add.js') },
  { name: 'store.validate', summary: 'check every file of the store against its schema and rules; list every problem', readOnly: true, load: () => import('./validate.js') },
  { name: 'store.doctor', summary: 'find (and with fix remove) what crashes left in the store', readOnly: false, load: () => import('./doctor.js') },
  { name: 'store.status', summary: 'summarise the store: records per kind, logs, validity', readOnly: true, load: () => import('./status.js') },
  { name: 'store.changes', summary: 'what a pull request will show of .knowledge/: uncommitted changes and the knowledge diff against the default branch', readOnly: true, load: () => import('./changes.js') },
  { name: 'record.list', summary: 'list records, optionally of one kind; the filter selects knowledge entries', readOnly: true, load: () => import('./list.js') },
  { name: 'record.show', summary: 'show one record by id (or a graph entity by name)', readOnly: true, load: () => import('./show.js') },
];

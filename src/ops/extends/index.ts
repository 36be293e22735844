// Org-wide knowledge sources: config.yaml's extends, and the pins lore sync writes.
import type { OpEntry } from '../_define.js';

export const EXTENDS_OPS: readonly OpEntry[] = [
  { name: 'extends.list', summary: "list config.yaml's extends sources with the commit each is pinned to and whether this clone has it", readOnly: true, load: () => import('./list.js') },
  { name: 'extends.add', summary: "add an org-wide knowledge source (a git repository, a ref, a folder) to config.yaml's extends", readOnly: false, load: () => import('./add.js') },
  { name: 'extends.remove', summary: "remove a source from config.yaml's extends", readOnly: false, load: () => import('./remove.js') },
  { name: 'extends.sync', summary: 'fetch every extends source and pin it in .knowledge/extends.lock; with update, move the pins to what the refs name now', readOnly: false, load: () => import('./sync.js') },
];

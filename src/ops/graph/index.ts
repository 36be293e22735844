// The context graph's operations: change it (all or nothing, under the store's write lock) and read
// it, cut to a token budget or a limit where an answer could hold the whole graph.
import type { OpEntry } from '../_define.js';

export const GRAPH_OPS: readonly OpEntry[] = [
  { name: 'graph.apply', summary: 'apply one structured update to the context graph: entities merged by name, then relationships, removals last; all or nothing', readOnly: false, load: () => import('./apply.js') },
  { name: 'graph.add_entity', summary: 'add an entity to the context graph, or merge fields into the entity of that name', readOnly: false, load: () => import('./add-entity.js') },
  { name: 'graph.relate', summary: 'add a typed relationship between two existing entities of the context graph, or merge its properties', readOnly: false, load: () => import('./relate.js') },
  { name: 'graph.remove_entity', summary: 'remove an entity and every relationship from or to it from the context graph', readOnly: false, load: () => import('./remove-entity.js') },
  { name: 'graph.unrelate', summary: 'remove one relationship (from, type, to) from the context graph', readOnly: false, load: () => import('./unrelate.js') },
  { name: 'graph.show', summary: 'the context graph, or the neighbourhood of one entity nearest first, as JSON within a token budget', readOnly: true, load: () => import('./show.js') },
  { name: 'graph.find', summary: 'find entities of the context graph by type, tags or relationship to another entity', readOnly: true, load: () => import('./find.js') },
  { name: 'graph.path', summary: 'the shortest chain of relationships between two entities of the context graph', readOnly: true, load: () => import('./path.js') },
  { name: 'graph.context', summary: 'the context graph as prompt text, whole or around entities nearest first, within a token budget', readOnly: true, load: () => import('./context.js') },
  { name: 'graph.import', summary: 'merge a memory file or MCP-memory JSONL into the context graph', readOnly: false, load: () => import('./import.js') },
  { name: 'graph.export', summary: "the store's context graph as one memory file (JSON), returned within a token budget or written to a file", readOnly: false, load: () => import('./export.js') },
];

// The graph as Mermaid and Graphviz DOT, for PR descriptions and wiki pages. Nodes get generated
// ids (n1, n2, ...) and carry the entity name only as an escaped label, so no name (quotes,
// brackets, `end`, `#`, HTML) can break the diagram; edges are labelled with their types.
import type { GraphMemory } from '../types.js';

const flat = (text: string): string => text.replace(/[\u0000-\u001f\u007f]+/g, ' ');

/** Text inside a Mermaid `"..."` label: what Mermaid or its HTML labels would read becomes an entity code. */
export function mermaidText(text: string): string {
  // Brackets and parentheses are safe inside quotes; quotes, `#`, `&`, `<`, `>` and backticks are not.
  return flat(text).replace(/["#&<>`]/g, (c) => `#${c.charCodeAt(0)};`);
}

/** Text inside a DOT `"..."` string: quotes and backslashes escaped (so `\N`, `\G` are not expanded). */
export function dotText(text: string): string {
  return flat(text).replace(/[\\"]/g, (c) => `\\${c}`);
}

function nodeIds(view: GraphMemory): Map<string, string> {
  return new Map(view.entities.map((e, i) => [e.name, `n${i + 1}`]));
}

/**
 * A Mermaid flowchart of the graph (or a part of it).
 *
 * @example
 * toMermaid(graph.toJSON());
 * // flowchart LR
 * //   n1["api<br/>(service)"]
 * //   n2["db<br/>(data_store)"]
 * //   n1 -->|"reads_from"| n2
 */
export function toMermaid(view: GraphMemory): string {
  const ids = nodeIds(view);
  const lines = ['flowchart LR'];
  for (const entity of view.entities) lines.push(`  ${ids.get(entity.name)}["${mermaidText(entity.name)}<br/>(${mermaidText(entity.type)})"]`);
  for (const rel of view.relationships) {
    const [from, to] = [ids.get(rel.from), ids.get(rel.to)];
    if (from !== undefined && to !== undefined) lines.push(`  ${from} -->|"${mermaidText(rel.type)}"| ${to}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A Graphviz DOT digraph of the graph (or a part of it).
 *
 * @example
 * toDot(graph.toJSON());
 * // digraph context {
 * //   rankdir=LR;
 * //   node [shape=box];
 * //   n1 [label="api\n(service)"];
 * //   n1 -> n2 [label="reads_from"];
 * // }
 */
export function toDot(view: GraphMemory): string {
  const ids = nodeIds(view);
  const lines = ['digraph context {', '  rankdir=LR;', '  node [shape=box];'];
  for (const entity of view.entities) lines.push(`  ${ids.get(entity.name)} [label="${dotText(entity.name)}\\n(${dotText(entity.type)})"];`);
  for (const rel of view.relationships) {
    const [from, to] = [ids.get(rel.from), ids.get(rel.to)];
    if (from !== undefined && to !== undefined) lines.push(`  ${from} -> ${to} [label="${dotText(rel.type)}"];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

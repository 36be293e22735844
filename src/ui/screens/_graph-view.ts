// The context graph drawn by cytoscape.js: pan and zoom come with it; nodes are coloured by
// entity type, search matches are highlighted and the rest faded, a click selects an entity.
// The canvas holds no text a test or a screen reader can read, so the container carries the
// names cytoscape was given (data-nodes) and the screen lists the entities beside it.
import cytoscape from 'cytoscape';
import { useEffect, useRef } from 'preact/hooks';
import { html } from '../html.js';

/** An entity as graph.show gives it (fields at their defaults may be left out). */
export interface Entity {
  name: string;
  type: string;
  description?: string;
  tags?: string[];
  properties?: Record<string, unknown>;
}

/** A relationship as graph.show gives it. */
export interface Relationship {
  from: string;
  to: string;
  type: string;
  properties?: Record<string, unknown>;
}

const PALETTE = ['#3452d6', '#0f8b8d', '#b54708', '#7a3fc4', '#1f7a3f', '#c2366b', '#5d6678', '#8a6d00'];

/** A stable colour per entity type. */
export function typeColour(type: string): string {
  let hash = 0;
  for (const c of type) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return PALETTE[hash % PALETTE.length]!;
}

interface Props {
  entities: Entity[];
  relationships: Relationship[];
  /** The entity shown as selected, by name. */
  selected: string | undefined;
  /** The centre of a neighbourhood, drawn larger. */
  centre: string | undefined;
  /** Text to look for in names, types and tags; empty for none. */
  search: string;
  onSelect(name: string | undefined): void;
}

/** Whether an entity matches a search text (name, type or a tag, case-insensitive). */
export function matches(entity: Entity, search: string): boolean {
  const s = search.trim().toLowerCase();
  return s !== '' && [entity.name, entity.type, ...(entity.tags ?? [])].some((t) => t.toLowerCase().includes(s));
}

/**
 * Cytoscape adds an inline <style> for its container unless an element of this id exists, and the
 * page's CSP refuses inline styles: the rule it needs (position: relative) is in views.css.
 */
function claimCytoscapeStylesheet(): void {
  const id = '__________cytoscape_stylesheet';
  if (document.getElementById(id) !== null) return;
  const marker = document.createElement('meta');
  marker.id = id;
  marker.name = 'cytoscape-stylesheet';
  marker.content = 'views.css';
  document.head.append(marker);
}

/** The cytoscape canvas of a graph view. */
export function GraphCanvas({ entities, relationships, selected, centre, search, onSelect }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const cy = useRef<cytoscape.Core | undefined>(undefined);
  const select = useRef(onSelect);
  select.current = onSelect;
  const ids = new Map(entities.map((e, i) => [e.name, `n${i}`]));

  useEffect(() => {
    // Ids are generated: a name may hold anything, and cytoscape selectors would read it.
    const elements: cytoscape.ElementDefinition[] = [
      ...entities.map((e) => ({ group: 'nodes' as const, data: { id: ids.get(e.name)!, name: e.name, label: `${e.name}\n${e.type}`, colour: typeColour(e.type) } })),
      ...relationships.filter((r) => ids.has(r.from) && ids.has(r.to)).map((r, i) => ({ group: 'edges' as const, data: { id: `e${i}`, source: ids.get(r.from)!, target: ids.get(r.to)!, label: r.type } })),
    ];
    claimCytoscapeStylesheet();
    const core = cytoscape({
      container: box.current!,
      elements,
      wheelSensitivity: 0.3,
      minZoom: 0.2,
      maxZoom: 3,
      style: [
        { selector: 'node', style: { 'background-color': 'data(colour)', label: 'data(label)', 'text-wrap': 'wrap', 'text-max-width': '180px', 'text-background-color': '#ffffff', 'text-background-opacity': 0.85, 'text-background-padding': '2px', 'text-background-shape': 'roundrectangle', 'font-size': 13, 'font-family': 'system-ui, sans-serif', color: '#1c2230', 'text-valign': 'bottom', 'text-margin-y': 4, width: 26, height: 26, 'border-width': 2, 'border-color': '#fff' } },
        { selector: 'node.centre', style: { width: 32, height: 32 } },
        { selector: 'node.selected', style: { 'border-color': '#1c2230', 'border-width': 3 } },
        { selector: 'node.match', style: { 'border-color': '#f5b73b', 'border-width': 4 } },
        { selector: '.faded', style: { opacity: 0.25 } },
        { selector: 'edge', style: { width: 1.5, 'line-color': '#b6bcc8', 'target-arrow-color': '#b6bcc8', 'target-arrow-shape': 'triangle', 'curve-style': 'bezier', label: 'data(label)', 'font-size': 11, color: '#5d6678', 'text-rotation': 'autorotate', 'text-background-color': '#fff', 'text-background-opacity': 1, 'text-background-padding': '2px' } },
      ],
      layout: { name: entities.length <= 1 ? 'grid' : 'cose', animate: false, padding: 40, nodeRepulsion: () => 1_000_000, idealEdgeLength: () => 140, nodeOverlap: 40, numIter: 2000 } as cytoscape.LayoutOptions,
    });
    // fit() would blow a small graph up to the largest zoom: keep labels at a readable size.
    if (core.zoom() > 1.1) {
      core.zoom(1.1);
      core.center();
    }
    core.on('tap', 'node', (event) => select.current(event.target.data('name') as string));
    core.on('tap', (event) => {
      if (event.target === core) select.current(undefined);
    });
    cy.current = core;
    box.current!.dataset.nodes = JSON.stringify(core.nodes().map((n) => n.data('name') as string));
    box.current!.dataset.edges = String(core.edges().length);
    return () => core.destroy();
  }, [JSON.stringify(entities), JSON.stringify(relationships)]);

  useEffect(() => {
    const core = cy.current;
    if (core === undefined) return;
    core.batch(() => {
      core.elements().removeClass('selected match faded centre');
      for (const e of entities) {
        const node = core.getElementById(ids.get(e.name)!);
        if (e.name === selected) node.addClass('selected');
        if (e.name === centre) node.addClass('centre');
        if (search.trim() !== '') node.addClass(matches(e, search) ? 'match' : 'faded');
      }
      if (search.trim() !== '') core.edges().addClass('faded');
    });
  });

  return html`<div class="graph-canvas-wrap">
    <div class="graph-canvas" ref=${box} data-testid="graph-canvas"></div>
    <div class="graph-controls">
      <button type="button" title="Zoom in" onClick=${() => cy.current?.zoom({ level: cy.current.zoom() * 1.25, renderedPosition: { x: box.current!.clientWidth / 2, y: box.current!.clientHeight / 2 } })}>+</button>
      <button type="button" title="Zoom out" onClick=${() => cy.current?.zoom({ level: cy.current.zoom() / 1.25, renderedPosition: { x: box.current!.clientWidth / 2, y: box.current!.clientHeight / 2 } })}>−</button>
      <button type="button" title="Fit the graph" onClick=${() => cy.current?.fit(undefined, 40)}>Fit</button>
    </div>
  </div>`;
}

import { UsageError } from '../../errors.js';
import { memoryFileText } from '../../graph/memory-file.js';
import { toDot, toMermaid } from '../../graph/serialize-diagram.js';
import type { GraphMemory, JsonValue, Relationship } from '../../types.js';
import type { CommandContext } from '../command.js';
import { defineCommand } from '../command.js';
import { plural } from '../format.js';
import { intOption, loadGraph, MEMORY_FILE_OPTION, requireEntities } from './_graph.js';

const FORMATS = ['text', 'json', 'mermaid', 'dot'] as const;

const props = (p: Record<string, JsonValue>): string => Object.entries(p).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ');
const relProps = (rel: Relationship): string => (Object.keys(rel.properties).length === 0 ? '' : ` (${props(rel.properties)})`);

/** Each entity as a block: what it is, then its outgoing and incoming relationships. */
function showText(view: GraphMemory, ctx: CommandContext): string {
  const out = new Map<string, Relationship[]>();
  const into = new Map<string, Relationship[]>();
  for (const rel of view.relationships) {
    out.set(rel.from, [...(out.get(rel.from) ?? []), rel]);
    into.set(rel.to, [...(into.get(rel.to) ?? []), rel]);
  }
  const blocks = view.entities.map((e) => {
    const lines = [`${ctx.style.bold(e.name)} ${ctx.style.dim(`(${e.type})`)}${e.tags.length === 0 ? '' : `  ${e.tags.map((t) => `#${t}`).join(' ')}`}`];
    if (e.description !== '') lines.push(`  ${e.description.replace(/\n/g, '\n  ')}`);
    if (Object.keys(e.properties).length > 0) lines.push(`  properties: ${props(e.properties)}`);
    const outgoing = out.get(e.name) ?? [];
    const incoming = into.get(e.name) ?? [];
    if (outgoing.length > 0) lines.push('  outgoing:', ...outgoing.map((r) => `    -${r.type}-> ${r.to}${relProps(r)}`));
    if (incoming.length > 0) lines.push('  incoming:', ...incoming.map((r) => `    <-${r.type}- ${r.from}${relProps(r)}`));
    return lines.join('\n');
  });
  return blocks.join('\n\n');
}

export const command = defineCommand({
  name: 'graph show',
  summary: 'show the graph or a neighbourhood as text, JSON, Mermaid or DOT',
  usage: '[NAME] [options]',
  description: [
    'Without NAME: the whole graph. With NAME: the entity and everything within --depth steps of it, either',
    'direction. Text groups each entity\'s outgoing and incoming relationships; mermaid and dot print a diagram',
    'that renders as it is in a pull request or a wiki (nodes n1, n2, ... labelled with the names; edges with types).',
  ].join('\n'),
  options: {
    depth: { type: 'string', value: 'N', description: 'steps around NAME (default 1)' },
    format: { type: 'string', value: 'F', description: 'text (default), json, mermaid or dot' },
    ...MEMORY_FILE_OPTION,
  },
  positionals: [0, 1],
  examples: ['lore graph show', 'lore graph show "Auth Service" --depth 2', 'lore graph show --format mermaid > context.mmd', 'lore graph show "Auth Service" --format dot | dot -Tsvg > auth.svg'],
  async run(ctx) {
    const format = ctx.json ? 'json' : (ctx.string('format') ?? 'text');
    if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')} (found ${JSON.stringify(format)})`);
    const depth = intOption(ctx, 'depth', 1, 0)!;
    const { backend, graph } = await loadGraph(ctx);
    const name = ctx.args[0];
    if (name !== undefined) requireEntities(graph, [name], backend);
    const view: GraphMemory = name === undefined ? graph.toJSON() : graph.neighbours(name, { depth });
    if (format === 'json') ctx.print(memoryFileText(view).trimEnd());
    else if (format === 'mermaid') ctx.print(toMermaid(view).trimEnd());
    else if (format === 'dot') ctx.print(toDot(view).trimEnd());
    else if (view.entities.length === 0) ctx.print(`the context graph in ${backend.location} is empty`);
    else {
      const scope = name === undefined ? backend.location : `the neighbourhood of ${JSON.stringify(name)} within ${plural(depth, 'step')}`;
      ctx.print(`${showText(view, ctx)}\n\n${ctx.style.dim(`${plural(view.entities.length, 'entity', 'entities')}, ${plural(view.relationships.length, 'relationship')} (${scope})`)}`);
    }
  },
});

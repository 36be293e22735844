import type { FittedJson } from '../../graph/fit.js';
import type { ShowOutput } from '../../ops/graph/show.js';
import type { GraphMemory, JsonValue, Relationship } from '../../types.js';
import type { CommandContext } from '../command.js';
import { defineOpCommand } from '../command.js';
import { plural } from '../format.js';
import { graphLocation, MEMORY_FILE_OPTION, memoryFileInput } from './_graph.js';

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

/** `2 entities, 1 relationship`, or `2 of 4 entities, 1 of 3 relationships` when the budget cut the view. */
function counts(output: FittedJson): string {
  const cut = output.truncated;
  if (cut === undefined) return `${plural(output.entities.length, 'entity', 'entities')}, ${plural(output.relationships.length, 'relationship')}`;
  return `${cut.entities.shown} of ${plural(cut.entities.total, 'entity', 'entities')}, ${cut.relationships.shown} of ${plural(cut.relationships.total, 'relationship')}`;
}

export const command = defineOpCommand<ShowOutput>({
  name: 'graph show',
  summary: 'show the graph or a neighbourhood as text, JSON, Mermaid or DOT',
  usage: '[NAME] [options]',
  description: [
    'Without NAME: the whole graph. With NAME: the entity and everything within --depth steps of it, either',
    'direction. Text groups each entity\'s outgoing and incoming relationships; mermaid and dot print a diagram',
    'that renders as it is in a pull request or a wiki (nodes n1, n2, ... labelled with the names; edges with types).',
    'With --budget, entities are kept nearest first while the JSON fits (tokens estimated as characters / 4),',
    'and the output says what was left out.',
  ].join('\n'),
  options: {
    depth: { type: 'integer', min: 0, value: 'N', description: 'steps around NAME (default 1)' },
    format: { type: 'enum', values: ['text', 'json', 'mermaid', 'dot'], value: 'F', description: 'text (default), json, mermaid or dot' },
    budget: { type: 'integer', min: 1, value: 'TOKENS', description: 'at most this many tokens of JSON (default: no limit)' },
    ...MEMORY_FILE_OPTION,
  },
  positionals: [0, 1],
  examples: ['lore graph show', 'lore graph show "Auth Service" --depth 2', 'lore graph show --format mermaid > context.mmd', 'lore graph show "Auth Service" --format dot | dot -Tsvg > auth.svg'],
  op: 'graph.show',
  input: (ctx) => ({
    ...(ctx.args[0] === undefined ? {} : { name: ctx.args[0], depth: ctx.number('depth') ?? 1 }),
    budget: ctx.number('budget') ?? 0,
    ...(ctx.string('format') === 'mermaid' || ctx.string('format') === 'dot' ? { diagram: ctx.string('format') } : {}),
    ...memoryFileInput(ctx),
  }),
  async print(output, ctx) {
    const format = ctx.string('format') ?? 'text';
    if (format === 'json') {
      ctx.print(JSON.stringify(output, null, 2));
      return;
    }
    const cut = output.truncated;
    if (output.diagram !== undefined) {
      ctx.print(output.diagram.trimEnd());
      if (cut !== undefined) ctx.note(`${ctx.style.yellow('warning')}: cut to fit --budget ${cut.budget}: ${counts(output)} shown`);
      return;
    }
    const view: GraphMemory = { entities: output.entities.map((e) => ({ description: '', tags: [], properties: {}, ...e })), relationships: output.relationships.map((r) => ({ properties: {}, ...r })) };
    const name = ctx.args[0];
    if (view.entities.length === 0 && cut === undefined) {
      ctx.print(`the context graph in ${await graphLocation(ctx)} is empty`);
      return;
    }
    const depth = ctx.number('depth') ?? 1;
    const scope = name === undefined ? await graphLocation(ctx) : `the neighbourhood of ${JSON.stringify(name)} within ${plural(depth, 'step')}`;
    const note = cut === undefined ? '' : `; cut to fit ${cut.budget} tokens`;
    ctx.print(`${showText(view, ctx)}\n\n${ctx.style.dim(`${counts(output)} (${scope}${note})`)}`);
  },
});

// The graph as text for an LLM prompt: the whole graph (the spec's first, naive version), or the
// neighbourhood of named entities, nearest first, cut to a token budget and marked when cut.
import { UsageError } from '../errors.js';
import type { Entity, GraphMemory, Relationship } from '../types.js';
import type { ContextGraph } from './model.js';
import { fitNearestFirst } from './fit.js';
import { neighbourhood, type Direction } from './query.js';
import { estimateTokens } from '../tokens.js';


const oneLine = (text: string): string => text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
const props = (properties: Readonly<Record<string, unknown>>): string => (Object.keys(properties).length === 0 ? '' : ` | properties: ${JSON.stringify(properties)}`);
const count = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const entities = (n: number): string => (n === 1 ? '1 entity' : `${n} entities`);

/** `- "api" (service): Serves the API. | tags: core | properties: {...}` */
export function entityLine(entity: Readonly<Entity>): string {
  const description = entity.description === '' ? '' : `: ${oneLine(entity.description)}`;
  const tags = entity.tags.length === 0 ? '' : ` | tags: ${entity.tags.join(', ')}`;
  return `- ${JSON.stringify(entity.name)} (${entity.type})${description}${tags}${props(entity.properties)}`;
}

/** `- "api" -reads_from-> "db" | properties: {...}` */
export function relationshipLine(rel: Readonly<Relationship>): string {
  return `- ${JSON.stringify(rel.from)} -${rel.type}-> ${JSON.stringify(rel.to)}${props(rel.properties)}`;
}

function sections(entities: readonly string[], relationships: readonly string[]): string[] {
  return ['Entities:', ...(entities.length === 0 ? ['- (none)'] : entities), 'Relationships:', ...(relationships.length === 0 ? ['- (none)'] : relationships)];
}

/**
 * The graph, or a part of it described by `scope`, as prompt text (no budget).
 *
 * @example
 * graphToText(graph.neighbours('api'), 'the neighbourhood of "api"');
 * // Context graph, the neighbourhood of "api": 2 entities, 1 relationship.
 * // Entities:
 * // - "api" (service)
 * // ...
 */
export function graphToText(view: GraphMemory, scope = 'the whole graph'): string {
  const header = `Context graph, ${scope}: ${entities(view.entities.length)}, ${count(view.relationships.length, 'relationship')}.`;
  return [header, ...sections(view.entities.map(entityLine), view.relationships.map(relationshipLine))].join('\n');
}

export interface ContextOptions {
  /** Names of the entities to centre on; the whole graph when empty or absent. */
  around?: readonly string[];
  /** Steps from `around` (default 1). */
  depth?: number;
  direction?: Direction;
  /** At most this many tokens (estimateTokens); no limit when absent. */
  budget?: number;
}

export interface ContextText {
  text: string;
  /** estimateTokens(text). */
  tokens: number;
  truncated: boolean;
  entities: { shown: number; total: number };
  relationships: { shown: number; total: number };
  /** Names in `around` that are not in the graph. */
  missing: string[];
}

const lineCost = (line: string): number => estimateTokens(`${line}\n`);

/** The text cut to the budget, with the cut said in its first and last lines. */
function cutToBudget(view: GraphMemory, where: string, budget: number): { text: string; entities: number; relationships: number } {
  const total = { entities: view.entities.length, relationships: view.relationships.length };
  const header = (e: number, r: number): string => `Context graph, ${where} (TRUNCATED to fit ${budget} tokens): ${e} of ${entities(total.entities)}, ${r} of ${count(total.relationships, 'relationship')}.`;
  const footer = (e: number, r: number): string => {
    const [le, lr] = [total.entities - e, total.relationships - r];
    return `[truncated: ${le} more ${le === 1 ? 'entity' : 'entities'} and ${count(lr, 'more relationship')} left out to fit the budget of ${budget} tokens]`;
  };
  // Everything but the entity and relationship lines, for e entities and r relationships shown.
  const none = lineCost('- (none)');
  const frame = (e: number, r: number): number => lineCost(header(e, r)) + lineCost('Entities:') + lineCost('Relationships:') + lineCost(footer(e, r)) + (e === 0 ? none : 0) + (r === 0 ? none : 0);
  if (frame(0, 0) > budget) throw new UsageError(`a budget of ${budget} tokens cannot hold even the frame of the context (about ${frame(0, 0)} tokens)`, 'give a larger --budget');
  const kept = fitNearestFirst(view, { entity: (e) => lineCost(entityLine(e)), relationship: (r) => lineCost(relationshipLine(r)) }, (e, r, cost) => cost + frame(e, r) <= budget);
  const text = [
    header(kept.entities.length, kept.relationships.length),
    ...sections(kept.entities.map(entityLine), kept.relationships.map(relationshipLine)),
    footer(kept.entities.length, kept.relationships.length),
  ].join('\n');
  return { text, entities: kept.entities.length, relationships: kept.relationships.length };
}

function describeScope(around: readonly string[], depth: number): string {
  return around.length === 0 ? 'the whole graph' : `the neighbourhood of ${around.map((n) => JSON.stringify(n)).join(', ')} within ${depth} step${depth === 1 ? '' : 's'}, nearest first`;
}

/**
 * The context string for a prompt. With a budget, entities are taken nearest first until the
 * next would not fit; the text then says, first and last, that it was truncated and how much.
 *
 * @example
 * const { text, truncated } = contextString(graph, { around: ['Auth Service'], depth: 2, budget: 1500 });
 * const prompt = `${task}\n\n${text}`;
 */
export function contextString(graph: ContextGraph, options: ContextOptions = {}): ContextText {
  const around = options.around ?? [];
  const depth = options.depth ?? 1;
  const near = around.length === 0 ? undefined : neighbourhood(graph, around, { depth, ...(options.direction === undefined ? {} : { direction: options.direction }) });
  const view: GraphMemory = near ?? graph.toJSON();
  const missing = near?.missing ?? [];
  const total = { entities: view.entities.length, relationships: view.relationships.length };
  const where = describeScope(around, depth);
  const result = (text: string, entities: number, relationships: number, truncated: boolean): ContextText => ({
    text, tokens: estimateTokens(text), truncated, entities: { shown: entities, total: total.entities }, relationships: { shown: relationships, total: total.relationships }, missing,
  });
  const full = graphToText(view, where);
  if (options.budget === undefined || estimateTokens(full) <= options.budget) return result(full, total.entities, total.relationships, false);

  const cut = cutToBudget(view, where, options.budget);
  return result(cut.text, cut.entities, cut.relationships, true);
}

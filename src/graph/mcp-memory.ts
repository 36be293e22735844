// The knowledge-graph JSONL of the MCP reference memory server, as a graph update, so its users
// can move over without loss: entity lines {type: "entity", name, entityType, observations}
// and relation lines {type: "relation", from, to, relationType}. Observations become the
// property `observations`; any other field becomes a property too.
import { ValidationError, type Problem } from '../errors.js';
import { parseJsonText } from '../store/json-text.js';
import { codeFrame } from '../store/text-position.js';
import type { EntityUpdate, GraphUpdate, JsonValue, RelationshipUpdate } from '../types.js';

type Line = Record<string, JsonValue>;

const nonEmpty = (value: JsonValue | undefined): value is string => typeof value === 'string' && value !== '';

function extras(line: Line, known: readonly string[]): Record<string, JsonValue> {
  return Object.fromEntries(Object.entries(line).filter(([key]) => !known.includes(key)));
}

function entityFrom(line: Line): EntityUpdate | string {
  if (!nonEmpty(line.name)) return 'an entity line needs a non-empty "name"';
  if (!nonEmpty(line.entityType)) return `entity ${JSON.stringify(line.name)} needs a non-empty "entityType"`;
  const observations = line.observations ?? [];
  if (!Array.isArray(observations) || !observations.every((o) => typeof o === 'string')) return `entity ${JSON.stringify(line.name)}: "observations" must be a list of strings`;
  return { name: line.name, type: line.entityType, properties: { ...extras(line, ['type', 'name', 'entityType', 'observations']), observations } };
}

function relationFrom(line: Line): RelationshipUpdate | string {
  for (const field of ['from', 'to', 'relationType']) if (!nonEmpty(line[field])) return `a relation line needs a non-empty "${field}"`;
  const properties = extras(line, ['type', 'from', 'to', 'relationType']);
  return { from: line.from as string, to: line.to as string, type: line.relationType as string, ...(Object.keys(properties).length === 0 ? {} : { properties }) };
}

/**
 * Converts MCP-memory JSONL text into a graph update; throws ValidationError naming the line of
 * every line that is not an entity or relation of that format (nothing is converted then).
 *
 * @example
 * const update = parseMcpMemory(readFileSync('memory.jsonl', 'utf8'), 'memory.jsonl');
 * graph.applyUpdate(update);
 */
export function parseMcpMemory(text: string, file: string): GraphUpdate {
  const entities: EntityUpdate[] = [];
  const relationships: RelationshipUpdate[] = [];
  const problems: Problem[] = [];
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    const fail = (message: string): void => void problems.push({ severity: 'error', file, line: index + 1, column: 1, frame: codeFrame(text, index + 1, 1), message });
    const parsed = parseJsonText(raw.replace(/^\uFEFF/, ''), file, { maxDepth: 32 }, index + 1);
    if (parsed.value === undefined) return void problems.push(...parsed.problems);
    const line = parsed.value;
    if (line === null || typeof line !== 'object' || Array.isArray(line)) return fail('expected a JSON object per line');
    const type = (line as Line).type;
    const converted = type === 'entity' ? entityFrom(line as Line) : type === 'relation' ? relationFrom(line as Line) : `"type" must be "entity" or "relation" (found ${JSON.stringify(type ?? null)})`;
    if (typeof converted === 'string') return fail(converted);
    if (type === 'entity') entities.push(converted as EntityUpdate);
    else relationships.push(converted as RelationshipUpdate);
  });
  if (problems.length > 0) throw new ValidationError(`${file} is not MCP-memory JSONL (${problems.length} bad line${problems.length === 1 ? '' : 's'}); nothing was imported`, problems);
  return { entities, relationships };
}

// Parsing of the older per-project format, `kg.<project>.json`, into thought-log lines.
// Accepted shape (docs/guides/thought-dag.md, "Migrating from kg.<project>.json"):
//   { "entities": { "<id>": entity, ... } | [entity, ...], "relations": [{ "from", "to", "type"? }, ...] }
// An entity with a `role` is a node, one without is an artifact; `{}` is an empty project.
// A relation is a parent link: `to` gets `from` as a parent. Works on strings only.
import { posix } from 'node:path';
import type { Problem } from '../errors.js';
import { parseJsonText } from '../store/json-text.js';
import type { ParsedText } from '../store/parse.js';
import { validateAgainst, type SchemaIssue } from '../schema/validate.js';
import type { ArtifactRef, DagNode } from '../types.js';
import { artifactRef } from './artifacts.js';

// In the schema's property order, the order lore writes fields in.
const NODE_FIELDS = ['id', 'project', 'projectContext', 'thought', 'role', 'verdict', 'verdictReason', 'verdictReferences', 'target', 'parents', 'children', 'tags', 'artifacts', 'branchLabel', 'createdAt', 'updatedAt', 'summarizedSegment'];
const ARTIFACT_FIELDS = ['id', 'project', 'name', 'path', 'uri', 'hash', 'contentType', 'createdAt'];

export type ArtifactLine = ArtifactRef & { createdAt: string };

/** A parsed `kg.<project>.json`: its lines, or the problems that make it malformed. */
export interface KgFile {
  file: string;
  project: string;
  nodes: DagNode[];
  artifacts: ArtifactLine[];
  /** Errors: any one makes the file malformed, and nothing is migrated. */
  problems: Problem[];
  /** Fields of the old format lore has no place for (dropped), one warning per field name. */
  warnings: Problem[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const escape = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

function issue(pointer: string, message: string): SchemaIssue {
  return { pointer, locatePointer: pointer, atKey: false, message };
}

/** The entities of the file with their JSON pointers; an issue when `entities` has another shape. */
function entitiesOf(value: Json, issues: SchemaIssue[]): Array<[string, string, unknown]> {
  const entities = value.entities ?? {};
  if (Array.isArray(entities)) return entities.map((e, i) => [`/entities/${i}`, String(i), e]);
  if (isObject(entities)) return Object.entries(entities).map(([key, e]) => [`/entities/${escape(key)}`, key, e]);
  issues.push(issue('/entities', 'entities must be an object keyed by id, or a list'));
  return [];
}

function pick(entity: Json, fields: readonly string[], dropped: Set<string>): Json {
  for (const key of Object.keys(entity)) if (!fields.includes(key)) dropped.add(key);
  return entity;
}

/** The fields of `line` that belong to it, in the schema's order. */
function ordered<T extends object>(line: T, fields: readonly string[]): T {
  const out: Json = {};
  for (const key of fields) if ((line as Json)[key] !== undefined) out[key] = (line as Json)[key];
  return out as T;
}

/** A path for an old artifact: its path, or its uri when it has none. */
const pathOf = (a: Json): unknown => (typeof a.path === 'string' && a.path !== '' ? a.path : a.uri);

function toNode(e: Json, id: string, project: string, time: string): DagNode {
  const ref = (a: unknown): unknown => {
    const path = isObject(a) ? pathOf(a) : undefined;
    return typeof path === 'string' && path !== '' ? artifactRef(project, { ...(a as object), path }) : a;
  };
  const artifacts = Array.isArray(e.artifacts) ? e.artifacts.map(ref) : e.artifacts;
  return ordered({
    ...e, id, project,
    projectContext: typeof e.projectContext === 'string' && e.projectContext !== '' ? e.projectContext : project,
    parents: e.parents ?? [], children: e.children ?? [], tags: e.tags ?? [], artifacts,
    createdAt: typeof e.createdAt === 'string' && e.createdAt !== '' ? e.createdAt : time,
  }, NODE_FIELDS) as DagNode;
}

function toArtifact(e: Json, id: string, project: string, time: string): ArtifactLine {
  const path = pathOf(e);
  const name = e.name ?? (typeof path === 'string' ? posix.basename(path) : undefined);
  return ordered({ ...e, id, project, name, path, createdAt: typeof e.createdAt === 'string' && e.createdAt !== '' ? e.createdAt : time }, ARTIFACT_FIELDS) as ArtifactLine;
}

/** Adds `from` as a parent of `to` for every relation; relations to unknown nodes are issues. */
function applyRelations(value: Json, nodes: Map<string, DagNode>, issues: SchemaIssue[]): void {
  const relations = value.relations ?? [];
  if (!Array.isArray(relations)) return void issues.push(issue('/relations', 'relations must be a list of { "from": id, "to": id }'));
  relations.forEach((r, i) => {
    const [from, to] = isObject(r) ? [r.from, r.to] : [undefined, undefined];
    if (typeof from !== 'string' || typeof to !== 'string') return void issues.push(issue(`/relations/${i}`, `relation ${i} needs "from" and "to" node ids`));
    const [parent, child] = [nodes.get(from), nodes.get(to)];
    if (parent === undefined || child === undefined) return void issues.push(issue(`/relations/${i}`, `relation ${i} links ${JSON.stringify(parent === undefined ? from : to)}, which is not a node of this file`));
    if (Array.isArray(child.parents) && !child.parents.includes(from)) child.parents.push(from);
    if (Array.isArray(parent.children) && !parent.children.includes(to)) parent.children.push(to);
  });
}

function locate(parsed: ParsedText, file: string, issues: SchemaIssue[]): Problem[] {
  const found = parsed.locateAll(issues.map((i) => ({ pointer: i.locatePointer, atKey: i.atKey })));
  return issues.map((i, k) => {
    const at = found[k];
    return { severity: 'error', file, ...(at === undefined ? {} : { line: at.line, column: at.column, frame: at.frame }), pointer: i.pointer, message: i.message };
  });
}

/** Parses one `kg.<project>.json` text; `time` stands in for a missing createdAt. */
export function parseKgFile(text: string, file: string, project: string, time: string): KgFile {
  const result: KgFile = { file, project, nodes: [], artifacts: [], problems: [], warnings: [] };
  const parsed = parseJsonText(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, file, { maxDepth: 64 });
  if (parsed.value === undefined) return { ...result, problems: parsed.problems };
  const value = parsed.value;
  if (!isObject(value)) return { ...result, problems: [{ severity: 'error', file, line: 1, column: 1, message: 'must be a JSON object with "entities" and "relations"' }] };
  const issues: SchemaIssue[] = [];
  const dropped = new Set<string>();
  const nodes = new Map<string, DagNode>();
  const pointers = new Map<object, string>();
  for (const [pointer, key, entity] of entitiesOf(value, issues)) {
    if (!isObject(entity)) {
      issues.push(issue(pointer, 'an entity must be an object'));
      continue;
    }
    const id = typeof entity.id === 'string' ? entity.id : key;
    const line = 'role' in entity ? toNode(pick(entity, NODE_FIELDS, dropped), id, project, time) : toArtifact(pick(entity, ARTIFACT_FIELDS, dropped), id, project, time);
    pointers.set(line, pointer);
    if ('role' in line) {
      if (nodes.has(id)) issues.push(issue(pointer, `the id ${JSON.stringify(id)} is used twice`));
      nodes.set(id, line);
      result.nodes.push(line);
    } else result.artifacts.push(line);
  }
  applyRelations(value, nodes, issues);
  for (const line of [...result.nodes, ...result.artifacts]) {
    for (const i of validateAgainst('dag-line', line)) issues.push({ ...i, pointer: pointers.get(line)! + i.pointer, locatePointer: pointers.get(line)! + i.locatePointer });
  }
  result.problems = locate(parsed, file, issues);
  result.warnings = [...dropped].sort().map((field) => ({ severity: 'warning', file, message: `field "${field}" has no place in the thought log and was left out` }));
  return result;
}

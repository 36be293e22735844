// Where each kind of record lives under `.knowledge/`, which schema it follows and how its id
// maps to its file name. Every path lore writes is derived here.
import { join, posix, relative, resolve, sep } from 'node:path';
import { LoreError } from '../errors.js';
import { schemaFileName, type SchemaName } from '../schema/schemas.js';
import { assertValidId, entityFileStem, invalidIdReason } from './ids.js';

export const KNOWLEDGE_DIR = '.knowledge';

/** The YAML record kinds: one record per file. */
export const RECORD_KINDS = ['recommendation', 'prohibition', 'learning', 'pending', 'role', 'gate', 'mode', 'override', 'entity', 'allow'] as const;
export type RecordKindName = (typeof RECORD_KINDS)[number];

export interface RecordKind {
  name: RecordKindName;
  /** Plural, for people. */
  label: string;
  /** Folder relative to `.knowledge/`. */
  dir: string;
  schema: SchemaName;
  /** The field holding the id; undefined when the file name is the id (overrides). */
  idField: 'id' | 'name' | undefined;
  /** The file stem for an id. */
  stem: (id: string) => string;
}

const byId = (id: string): string => {
  assertValidId(id);
  return id;
};

/** The stem of an id without its prefix (ROLE-coach → coach), itself checked: ROLE-con would be con.yaml. */
const withoutPrefix = (prefix: string) => (id: string): string => {
  const stem = byId(id).slice(id.startsWith(prefix) ? prefix.length : 0);
  const reason = invalidIdReason(stem);
  if (reason !== undefined) throw new LoreError('INVALID_ID', `id ${JSON.stringify(id)} is not allowed: its file name would be ${JSON.stringify(`${stem}.yaml`)}, and ${reason}`);
  return stem;
};

export const KINDS: Readonly<Record<RecordKindName, RecordKind>> = {
  recommendation: { name: 'recommendation', label: 'recommendations', dir: 'knowledge/recommendations', schema: 'knowledge-entry', idField: 'id', stem: byId },
  prohibition: { name: 'prohibition', label: 'prohibitions', dir: 'knowledge/prohibitions', schema: 'knowledge-entry', idField: 'id', stem: byId },
  learning: { name: 'learning', label: 'learnings', dir: 'knowledge/learnings', schema: 'knowledge-entry', idField: 'id', stem: byId },
  pending: { name: 'pending', label: 'pending learnings', dir: 'knowledge/pending', schema: 'knowledge-entry', idField: 'id', stem: byId },
  // Role, gate and mode files are named after their content (coach.yaml holds ROLE-coach).
  role: { name: 'role', label: 'role constraints', dir: 'roles', schema: 'role-constraints', idField: 'id', stem: withoutPrefix('ROLE-') },
  gate: { name: 'gate', label: 'gate profiles', dir: 'gates', schema: 'gate-profile', idField: 'id', stem: withoutPrefix('QG-') },
  mode: { name: 'mode', label: 'implementation modes', dir: 'modes', schema: 'implementation-mode', idField: 'id', stem: withoutPrefix('MODE-') },
  override: { name: 'override', label: 'project overrides', dir: 'overrides', schema: 'project-overrides', idField: undefined, stem: byId },
  entity: { name: 'entity', label: 'graph entities', dir: 'graph/entities', schema: 'graph-entity', idField: 'name', stem: entityFileStem },
  allow: { name: 'allow', label: 'allowlist records', dir: 'allow', schema: 'allow-record', idField: 'id', stem: byId },
};

/** The knowledge-entry kinds, by the entry type they hold. */
export const ENTRY_KINDS = ['recommendation', 'prohibition', 'learning', 'pending'] as const;
export type EntryKindName = (typeof ENTRY_KINDS)[number];

/** Entries of the applied kinds (recommendations, prohibitions, learnings): pending ones wait for review. */
export const APPLIED_KINDS = ['recommendation', 'prohibition', 'learning'] as const;

/** The NDJSON logs (append-only), relative to `.knowledge/`. */
export const LOGS = {
  dag: 'log/knowledge_graph.ndjson',
  applications: 'log/applications.ndjson',
  rejections: 'log/rejections.ndjson',
  turnsDir: 'turns',
} as const;

/** Folder (relative to `.knowledge/`) holding copies of the schemas, so editors can resolve `$schema=` comments. */
export const SCHEMA_COPY_DIR = 'schemas';
export const CACHE_DIR = '.cache';

/** The pins of config.yaml's extends sources (src/extends/), committed. */
export const EXTENDS_LOCK = 'extends.lock';

/**
 * What a reader of the store as git holds it lists (relative to the repository root): config.yaml,
 * the extends lock, the folders of `kinds`, and lore's cache (whose being tracked changes what is read).
 */
export function gitListingPaths(kinds: readonly RecordKindName[]): string[] {
  return [`${KNOWLEDGE_DIR}/config.yaml`, `${KNOWLEDGE_DIR}/${EXTENDS_LOCK}`, ...kinds.map((kind) => `${KNOWLEDGE_DIR}/${KINDS[kind].dir}`), `${KNOWLEDGE_DIR}/${CACHE_DIR}`];
}

/** Absolute path of `.knowledge/` in a store root. */
export function knowledgeDir(root: string): string {
  return join(root, KNOWLEDGE_DIR);
}

/** Absolute path of the file holding a record, guaranteed to lie inside the kind's folder. */
export function recordPath(root: string, kind: RecordKindName, id: string): string {
  const spec = KINDS[kind];
  const dir = resolve(knowledgeDir(root), spec.dir);
  const file = resolve(dir, `${spec.stem(id)}.yaml`);
  if (!file.startsWith(dir + sep)) throw new LoreError('INVALID_ID', `id ${JSON.stringify(id)} would leave ${spec.dir}/`);
  return file;
}

/** A path relative to the store root with forward slashes, as lore prints paths. */
export function displayPath(root: string, absolute: string): string {
  const rel = relative(root, absolute);
  return rel.startsWith('..') ? absolute : rel.split(sep).join(posix.sep);
}

/** The `# yaml-language-server: $schema=...` first line of a record file, relative to `.knowledge/schemas/`. */
export function schemaComment(kind: RecordKindName): string {
  const depth = KINDS[kind].dir.split('/').length;
  return `# yaml-language-server: $schema=${'../'.repeat(depth)}${SCHEMA_COPY_DIR}/${schemaFileName(KINDS[kind].schema)}`;
}

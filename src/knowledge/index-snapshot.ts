// The knowledge index persisted in `.knowledge/.cache/knowledge-index.bin`, so a process without
// the daemon (`lore query`, `lore check-plan`) neither parses the record cache nor builds an object
// per entry: it reads what ranking and plan checks need of every entry, and an entry's fields only
// when the entry is shown. Keyed by the entry files' stamp (indexer/file-stamps.ts: any file added,
// removed or changed makes it stale), lore's cache key and the store's limits; the BM25 and vector
// snapshots stay keyed by the content identity it records. Framed by _snapshot.ts: the header holds
// the identity, the problems met reading the files, each entry's id, type and priority, the
// applicability of entries that are not simply enabled and global, and the plan index; the body
// holds each entry's offset (uint32 × entries + 1) and the CRC-32 of its JSON (uint32 × entries);
// the tail, each entry's JSON, read from the file and checked against its sum when the entry is
// read, not on every load.
import { endianness } from 'node:os';
import { join } from 'node:path';
import { LoreError, type Problem } from '../errors.js';
import { crc32Of } from '../fs/checksum.js';
import { readTextIfExists } from '../fs/read-text.js';
import { cacheKey } from '../store/cache-key.js';
import { lookAtRecordFiles, type FilesLook } from '../indexer/file-stamps.js';
import { APPLIED_KINDS, CACHE_DIR, EXTENDS_LOCK, KNOWLEDGE_DIR, knowledgeDir } from '../store/layout.js';
import type { Store } from '../store/open.js';
import type { KnowledgeEntry, KnowledgeType, Priority } from '../types.js';
import { applicabilityOf, type Applicability } from './applicable.js';
import type { PlanIndex } from './plan-index.js';
import { frameSnapshot, openSnapshot, unframeSnapshot, writeSnapshotFile, type SnapshotHeader } from './_snapshot.js';

const FORMAT = 'lore-knowledge-index/2';

// One character per entry for its type and its priority.
const TYPE_CODES: Record<KnowledgeType, string> = { recommendation: 'r', prohibition: 'p', learning: 'l' };
const PRIORITY_CODES: Record<Priority, string> = { low: 'l', medium: 'm', high: 'h', critical: 'c' };
const decode = <T extends string>(codes: Record<T, string>): Map<string, T> => new Map(Object.entries<string>(codes).map(([name, code]) => [code, name as T]));
const TYPES = decode(TYPE_CODES);
const PRIORITIES = decode(PRIORITY_CODES);

/** The fields applicabilityOf reads. */
type Scoping = Pick<KnowledgeEntry, 'enabled' | 'validFrom' | 'validUntil' | 'scope' | 'projectId' | 'agentTypes'>;

interface Header extends SnapshotHeader {
  identity: string;
  problems: Problem[];
  ids: string[];
  /** The length of the entries' JSON (the tail). */
  textBytes: number;
  types: string;
  priorities: string;
  /** [document, fields] of each entry that is not enabled, global and always valid with nothing else set. */
  scoping: Array<[number, Scoping]>;
  rules: Array<[kind: 'pattern' | 'glob', source: string, docs: number[]]>;
  /** [document, its rules in order] of each entry with rules. */
  docRules: Array<[number, number[]]>;
  prohibitions: number[];
  keywords: Array<[string, number[]]>;
}

/** What a snapshot gives: the index's per-entry tables, and each entry's fields on demand. */
export interface IndexSnapshot {
  identity: string;
  problems: Problem[];
  ids: string[];
  types: KnowledgeType[];
  priorities: Priority[];
  applicability: Applicability[];
  plan: PlanIndex;
  /** The fields of entry `doc`, parsed from the snapshot on each call. */
  entry: (doc: number) => KnowledgeEntry;
}

const CACHE_FILE = `${KNOWLEDGE_DIR}/${CACHE_DIR}/knowledge-index.bin`;

function snapshotPath(root: string): string {
  return join(root, CACHE_FILE);
}

/** Whether the store's entries are its own only: extends sources' entries are not in the files' stamp. */
async function ownEntriesOnly(store: Store): Promise<boolean> {
  return (store.config.extends ?? []).length === 0 && (await readTextIfExists(join(knowledgeDir(store.root), EXTENDS_LOCK))) === undefined;
}

/** The key of a snapshot: the files' stamp, the lore that read them, the limits they were read under, the byte order. */
function snapshotKey(store: Store, stamp: string): string {
  return `${stamp}:${cacheKey()}:${JSON.stringify(store.config.limits)}:${endianness()}`;
}

const isPlain = (e: Scoping): boolean => e.enabled && e.scope === 'global' && e.validFrom === undefined && e.validUntil === undefined && e.projectId === undefined && e.agentTypes === undefined;

/** The bytes of a snapshot of `entries` (the index's documents, in order) with their plan index. */
export function serializeIndex(entries: readonly KnowledgeEntry[], plan: PlanIndex, identity: string, problems: readonly Problem[], key: string): Buffer {
  const texts = entries.map((entry) => Buffer.from(JSON.stringify(entry)));
  const offsets = new Uint32Array(entries.length + 1);
  texts.forEach((text, doc) => (offsets[doc + 1] = offsets[doc]! + text.length));
  const sums = Uint32Array.from(texts, (text) => crc32Of(text));
  const body = Buffer.concat([Buffer.from(offsets.buffer, offsets.byteOffset, offsets.byteLength), Buffer.from(sums.buffer, sums.byteOffset, sums.byteLength)]);
  const scoping: Header['scoping'] = [];
  entries.forEach((e, doc) => {
    if (!isPlain(e)) scoping.push([doc, { enabled: e.enabled, validFrom: e.validFrom, validUntil: e.validUntil, scope: e.scope, projectId: e.projectId, agentTypes: e.agentTypes }]);
  });
  const header: Omit<Header, 'sum'> = {
    format: FORMAT,
    key,
    identity,
    problems: [...problems],
    ids: entries.map((e) => e.id),
    textBytes: offsets[entries.length]!,
    types: entries.map((e) => TYPE_CODES[e.type]).join(''),
    priorities: entries.map((e) => PRIORITY_CODES[e.priority]).join(''),
    scoping,
    rules: plan.rules.map((rule) => [rule.kind, rule.source, rule.docs]),
    docRules: plan.docRules.flatMap((rules, doc) => (rules.length === 0 ? [] : [[doc, [...rules]] as [number, number[]]])),
    prohibitions: plan.prohibitions,
    keywords: [...plan.keywordDocs],
  };
  return frameSnapshot(header, body, Buffer.concat(texts));
}

/** The lengths of a snapshot's body and tail, from its header (-1: not a whole one). */
const bodyLength = (header: Header): number => {
  const size = header.ids.length;
  return header.types.length === size && header.priorities.length === size ? 8 * size + 4 : -1;
};
const tailLength = (header: Header): number => header.textBytes;

/** The snapshot held by `bytes` when they are a whole, undamaged one made under `key`; otherwise undefined. */
export function parseIndex(bytes: Buffer, key: string): IndexSnapshot | undefined {
  const framed = unframeSnapshot<Header>(bytes, FORMAT, key, bodyLength, tailLength);
  return framed === undefined ? undefined : indexOf(framed.header, framed.body[0] as Buffer, framed.tail);
}

/** The snapshot in the file at `path` when it is a whole, undamaged one made under `key`: its entries' JSON read when asked for. */
export function openIndex(path: string, key: string): IndexSnapshot | undefined {
  const framed = openSnapshot<Header>(path, FORMAT, key, bodyLength, tailLength);
  return framed === undefined ? undefined : indexOf(framed.header, framed.body[0] as Buffer, framed.tail);
}

function indexOf(header: Header, body: Buffer, tail: (from: number, to: number) => Buffer): IndexSnapshot | undefined {
  const size = header.ids.length;
  const offsets = new Uint32Array(body.buffer, body.byteOffset, size + 1);
  if (offsets[size] !== header.textBytes) return undefined;
  const sums = new Uint32Array(body.buffer, body.byteOffset + 4 * (size + 1), size);
  const plain = applicabilityOf({ enabled: true, scope: 'global' } as KnowledgeEntry);
  const applicability = new Array<Applicability>(size).fill(plain);
  for (const [doc, fields] of header.scoping) applicability[doc] = applicabilityOf(fields as KnowledgeEntry);
  const docRules = new Array<readonly number[]>(size).fill([]);
  for (const [doc, rules] of header.docRules) docRules[doc] = rules;
  const damaged = (doc: number): LoreError =>
    new LoreError('IO', `${CACHE_FILE} is damaged (the entry ${header.ids[doc]} does not match its checksum)`, { hint: `delete ${CACHE_FILE}: lore rebuilds it from the entry files` });
  return {
    identity: header.identity,
    problems: header.problems,
    ids: header.ids,
    types: [...header.types].map((code) => TYPES.get(code)!),
    priorities: [...header.priorities].map((code) => PRIORITIES.get(code)!),
    applicability,
    plan: {
      rules: header.rules.map(([kind, source, docs]) => ({ kind, source, docs })),
      docRules,
      prohibitions: header.prohibitions,
      keywordDocs: new Map(header.keywords),
    },
    entry: (doc) => {
      let text: Buffer;
      try {
        text = tail(offsets[doc]!, offsets[doc + 1]!);
      } catch {
        throw damaged(doc);
      }
      if (crc32Of(text) !== sums[doc]) throw damaged(doc);
      return JSON.parse(text.toString('utf8')) as KnowledgeEntry;
    },
  };
}

/**
 * The store's index snapshot, when there is one for its entry files as they are now (the store's
 * own entries only: with extends sources there is none); otherwise the look at the entry files
 * that found it stale, for the record cache to read them by.
 */
export async function readIndexSnapshot(store: Store): Promise<{ snapshot?: IndexSnapshot; look?: FilesLook }> {
  if (!(await ownEntriesOnly(store))) return {};
  const look = await lookAtRecordFiles(store.root, APPLIED_KINDS);
  if (look === undefined) return {};
  const snapshot = openIndex(snapshotPath(store.root), snapshotKey(store, look.stamp));
  return snapshot === undefined ? { look } : { snapshot };
}

/** Writes the snapshot of an index built from the files of `stamp`; a store that cannot take it is left as it was. */
export async function writeIndexSnapshot(store: Store, stamp: string, entries: readonly KnowledgeEntry[], plan: PlanIndex, identity: string, problems: readonly Problem[]): Promise<void> {
  await writeSnapshotFile(snapshotPath(store.root), () => serializeIndex(entries, plan, identity, problems, snapshotKey(store, stamp)));
}

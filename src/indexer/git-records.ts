// Records as git holds them — at a ref, or in the index (what a commit will contain) — parsed once
// per blob id and cached in `.knowledge/.cache/git-records.json`. The commit guard reads the store
// this way, so a warm hook loads neither the YAML parser nor the schema validator.
import { basename, extname, join } from 'node:path';
import type { Problem } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { readTextIfExistsSync } from '../fs/read-text.js';
import { decodeUtf8, utf8Problem } from '../fs/utf8.js';
import { listIndex, listTree, readBlobs, refExists, type GitFile } from '../git/objects.js';
import { DEFAULT_CONFIG } from '../store/config-defaults.js';
import { CACHE_DIR, KINDS, KNOWLEDGE_DIR, RECORD_KINDS, type RecordKindName } from '../store/layout.js';
import type { StoreRecord } from '../store/read.js';
import type { LoreConfig } from '../types.js';
import { cacheKey } from './cache-key.js';

/** Where to read: a commit-ish, or the index. */
export type GitSource = { ref: string } | { index: true };

export interface GitRecords {
  /** Whether `.knowledge/` exists at this source at all. */
  exists: boolean;
  config: LoreConfig;
  /** Each record with the blob id of its file: equal blobs are equal records. */
  records: Array<StoreRecord & { blob: string }>;
  problems: Problem[];
}

export interface Parsed {
  record?: StoreRecord;
  config?: LoreConfig;
  problems: Problem[];
}

const CONFIG_PATH = `${KNOWLEDGE_DIR}/config.yaml`;
const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** The blob-keyed parse cache of one repository, loaded once per process. */
export class GitRecordCache {
  private readonly path: string;
  private entries: Record<string, Parsed> = {};
  /** Values derived from record content that callers want remembered between runs (see remember). */
  private derived: Record<string, unknown> = {};
  private readonly used = new Set<string>();
  /** Parses under way, by key: two sources read at once share one parse of each blob. */
  private readonly parsing = new Map<string, Promise<void>>();
  private dirty = false;
  /** False once the cache file turned out to come with the repository (see distrust). */
  private trusted = true;

  constructor(root: string) {
    this.path = join(root, KNOWLEDGE_DIR, CACHE_DIR, 'git-records.json');
    try {
      // Never through a symlink: one could point at a file that decides what the guard reads.
      const saved = JSON.parse(readTextIfExistsSync(this.path) ?? '') as { key: string; entries: Record<string, Parsed>; derived?: Record<string, unknown> };
      if (saved.key === cacheKey()) {
        this.entries = saved.entries;
        this.derived = saved.derived ?? {};
      }
    } catch {
      // missing or damaged: rebuilt as blobs are parsed
    }
  }

  /**
   * Forgets what was loaded and never saves: the cache file is tracked by git, so it came with the
   * repository (a clone, a pull request) instead of from lore's own parses, and it could say that
   * a rule is not there or that its literal is one no line holds.
   */
  distrust(): void {
    this.entries = {};
    this.derived = {};
    this.trusted = false;
  }

  get(key: string): Parsed | undefined {
    const hit = this.entries[key];
    if (hit !== undefined) this.used.add(key);
    return hit;
  }

  set(key: string, value: Parsed): void {
    this.entries[key] = value;
    this.used.add(key);
    this.dirty = true;
  }

  /**
   * Makes sure every key is cached: keys missing and not being parsed yet are handed to `parse`
   * (which must `set` them); keys another call is parsing are waited for.
   */
  async fill(keys: readonly string[], parse: (missing: string[]) => Promise<void>): Promise<void> {
    const missing = keys.filter((key) => this.entries[key] === undefined && !this.parsing.has(key));
    const waits = new Set(keys.map((key) => this.parsing.get(key)).filter((wait) => wait !== undefined));
    if (missing.length > 0) {
      const parsed = parse(missing).finally(() => {
        for (const key of missing) this.parsing.delete(key);
      });
      for (const key of missing) this.parsing.set(key, parsed);
      waits.add(parsed);
    }
    await Promise.all(waits);
  }

  /** A JSON value computed from `key` once and remembered with the cache (e.g. a pattern's prefilter literal). */
  remember<T>(key: string, compute: () => T): T {
    if (key in this.derived) return this.derived[key] as T;
    const value = compute();
    this.derived[key] = value;
    this.dirty = true;
    return value;
  }

  /** Writes the cache back, keeping it bounded: what this run used, plus older entries while few. */
  async save(): Promise<void> {
    if (!this.dirty || !this.trusted) return;
    const all = Object.keys(this.entries);
    const keep = all.length > Math.max(20_000, this.used.size * 3) ? [...this.used] : all;
    const entries = Object.fromEntries(keep.map((k) => [k, this.entries[k]!]));
    await writeFileAtomic(this.path, JSON.stringify({ key: cacheKey(), entries, derived: this.derived }), { durable: false }).catch(() => undefined);
  }
}

/** What a file in git is to lore: config.yaml, a record of a kind, or neither. */
export type GitFileRole = { config: true } | { kind: RecordKindName };

const DIR_KINDS = new Map(RECORD_KINDS.map((kind) => [KINDS[kind].dir, kind]));

/**
 * What the file at `path` (relative to the repository root) is, among `kinds`; undefined for any
 * other file.
 */
export function gitFileRole(path: string, kinds: readonly RecordKindName[] = RECORD_KINDS): GitFileRole | undefined {
  if (path === CONFIG_PATH) return { config: true };
  if (!path.startsWith(`${KNOWLEDGE_DIR}/`) || !EXTENSIONS.has(extname(path))) return undefined;
  const kind = DIR_KINDS.get(path.slice(KNOWLEDGE_DIR.length + 1, path.lastIndexOf('/')));
  return kind !== undefined && kinds.includes(kind) ? { kind } : undefined;
}

/** A file to parse through the cache, with what it is. */
export interface GitFileToParse {
  file: GitFile;
  role: GitFileRole;
}

const keyOf = ({ file, role }: GitFileToParse): string => ('config' in role ? `config:${file.blob}` : `${role.kind}:${basename(file.path)}:${file.blob}`);

/** Parses files through the cache: each blob once, yaml and ajv loaded only on a miss. Results in input order. */
export async function parseGitFiles(where: { cwd: string; env?: NodeJS.ProcessEnv }, cache: GitRecordCache, wanted: readonly GitFileToParse[]): Promise<Parsed[]> {
  const keys = wanted.map(keyOf);
  const byKey = new Map(wanted.map((w, i) => [keys[i]!, w]));
  await cache.fill([...byKey.keys()], async (missing) => {
    const misses = missing.map((key) => byKey.get(key)!);
    const blobs = await readBlobs(where, misses.map((w) => w.file.blob));
    // Parsing loads yaml and ajv: only on a cache miss.
    const { parseRecord } = await import('../store/read.js');
    const { parseConfig } = await import('../store/config.js');
    for (const w of misses) {
      const key = keyOf(w);
      const decoded = decodeUtf8(blobs.get(w.file.blob)!);
      if ('fault' in decoded) {
        cache.set(key, { problems: [utf8Problem(w.file.path, decoded.fault)] });
        continue;
      }
      const text = decoded.text;
      if ('config' in w.role) cache.set(key, parseConfig(text, w.file.path));
      else cache.set(key, parseRecord(text, w.role.kind, basename(w.file.path, extname(w.file.path)), w.file.path));
    }
  });
  return keys.map((key) => cache.get(key)!);
}

const CACHE_PATH = `${KNOWLEDGE_DIR}/${CACHE_DIR}`;
const inCache = (path: string): boolean => path === CACHE_PATH || path.startsWith(`${CACHE_PATH}/`);

/** The files of a source the guard reads, and whether git tracks anything under `.knowledge/.cache`. */
interface Listing {
  exists: boolean;
  files: GitFile[];
  cacheTracked: boolean;
}

async function listSource(where: { cwd: string; env?: NodeJS.ProcessEnv }, source: GitSource, kinds: readonly RecordKindName[]): Promise<Listing> {
  const paths = [CONFIG_PATH, ...kinds.map((kind) => `${KNOWLEDGE_DIR}/${KINDS[kind].dir}`), CACHE_PATH];
  let listed: GitFile[];
  if ('index' in source) {
    listed = await listIndex(where, paths);
  } else {
    if (!(await refExists(where, source.ref))) return { exists: false, files: [], cacheTracked: false };
    listed = await listTree(where, source.ref, paths);
  }
  const files = listed.filter((file) => !inCache(file.path));
  return { exists: files.length > 0, files, cacheTracked: files.length !== listed.length };
}

async function parseListing(where: { cwd: string; env?: NodeJS.ProcessEnv }, cache: GitRecordCache, listing: Listing, kinds: readonly RecordKindName[]): Promise<GitRecords> {
  const wanted: GitFileToParse[] = [];
  for (const file of listing.files) {
    const role = gitFileRole(file.path, kinds);
    if (role !== undefined) wanted.push({ file, role });
  }
  const parsed = await parseGitFiles(where, cache, wanted);
  const result: GitRecords = { exists: listing.exists, config: DEFAULT_CONFIG, records: [], problems: [] };
  parsed.forEach((p, i) => {
    if (p.config !== undefined) result.config = p.config;
    if (p.record !== undefined) result.records.push({ ...p.record, blob: wanted[i]!.file.blob });
    result.problems.push(...p.problems);
  });
  return result;
}

/**
 * Reads config and the records of `kinds` at each source, through the cache. When git tracks
 * anything under `.knowledge/.cache` at one of them, the cache is not used (see distrust): every
 * source is listed before anything is taken from it.
 */
export async function readGitRecordsAt<S extends readonly GitSource[]>(where: { cwd: string; env?: NodeJS.ProcessEnv }, cache: GitRecordCache, sources: readonly [...S], kinds: readonly RecordKindName[]): Promise<{ [K in keyof S]: GitRecords }> {
  const listings = await Promise.all(sources.map((source) => listSource(where, source, kinds)));
  if (listings.some((listing) => listing.cacheTracked)) cache.distrust();
  return Promise.all(listings.map((listing) => parseListing(where, cache, listing, kinds))) as Promise<{ [K in keyof S]: GitRecords }>;
}

/** Reads config and the records of `kinds` at a source, through the cache. */
export async function readGitRecords(where: { cwd: string; env?: NodeJS.ProcessEnv }, cache: GitRecordCache, source: GitSource, kinds: readonly RecordKindName[]): Promise<GitRecords> {
  const [records] = await readGitRecordsAt(where, cache, [source], kinds);
  return records;
}

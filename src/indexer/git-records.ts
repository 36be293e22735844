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
import { CACHE_DIR, gitListingPaths, KINDS, KNOWLEDGE_DIR, RECORD_KINDS, type RecordKindName } from '../store/layout.js';
import type { StoreRecord } from '../store/read.js';
import type { LoreConfig } from '../types.js';
import { cacheKey } from '../store/cache-key.js';

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
  private loaded: Record<string, Parsed> | undefined;
  private readonly used = new Set<string>();
  /** Parses under way, by key: two sources read at once share one parse of each blob. */
  private readonly parsing = new Map<string, Promise<void>>();
  private dirty = false;
  /** False once the cache file turned out to come with the repository (see distrust). */
  private trusted = true;

  constructor(root: string) {
    this.path = join(root, KNOWLEDGE_DIR, CACHE_DIR, 'git-records.json');
  }

  /** The saved entries, read on first use: a run that parses nothing never reads the file. */
  private get entries(): Record<string, Parsed> {
    if (this.loaded === undefined) {
      this.loaded = {};
      if (this.trusted) {
        try {
          // Never through a symlink: one could point at a file that decides what the guard reads.
          const saved = JSON.parse(readTextIfExistsSync(this.path) ?? '') as { key: string; entries: Record<string, Parsed> };
          if (saved.key === cacheKey()) this.loaded = saved.entries;
        } catch {
          // missing or damaged: rebuilt as blobs are parsed
        }
      }
    }
    return this.loaded;
  }

  /**
   * Forgets what was loaded and never saves: the cache file is tracked by git, so it came with the
   * repository (a clone, a pull request) instead of from lore's own parses, and it could say that
   * a rule is not there or that its literal is one no line holds.
   */
  distrust(): void {
    this.loaded = {};
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

  /** Writes the cache back, keeping it bounded: what this run used, plus older entries while few. */
  async save(): Promise<void> {
    if (!this.dirty || !this.trusted) return;
    const all = Object.keys(this.entries);
    const keep = all.length > Math.max(20_000, this.used.size * 3) ? [...this.used] : all;
    const entries = Object.fromEntries(keep.map((k) => [k, this.entries[k]!]));
    await writeFileAtomic(this.path, JSON.stringify({ key: cacheKey(), entries }), { durable: false }).catch(() => undefined);
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
export interface GitListing {
  exists: boolean;
  files: GitFile[];
  cacheTracked: boolean;
}

async function listSource(where: { cwd: string; env?: NodeJS.ProcessEnv }, source: GitSource, kinds: readonly RecordKindName[]): Promise<GitListing> {
  // The lock of config.yaml's extends sources comes with the listing: it decides which sources' rules apply.
  const paths = gitListingPaths(kinds);
  let listed: GitFile[];
  if ('index' in source) {
    listed = await listIndex(where, paths);
  } else {
    // Both at once; the listing's failure counts only for a ref that exists (an unborn HEAD has no tree).
    const [exists, tree] = await Promise.all([refExists(where, source.ref), listTree(where, source.ref, paths).catch((error: unknown) => ({ error }))]);
    if (!exists) return { exists: false, files: [], cacheTracked: false };
    if ('error' in tree) throw tree.error;
    listed = tree;
  }
  const files = listed.filter((file) => !inCache(file.path));
  return { exists: files.length > 0, files, cacheTracked: files.length !== listed.length };
}

async function parseListing(where: { cwd: string; env?: NodeJS.ProcessEnv }, cache: GitRecordCache, listing: GitListing, kinds: readonly RecordKindName[]): Promise<GitRecords> {
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

/** Lists the files of `kinds` (and config.yaml) at each source. */
export function listGitSources(where: { cwd: string; env?: NodeJS.ProcessEnv }, sources: readonly GitSource[], kinds: readonly RecordKindName[]): Promise<GitListing[]> {
  return Promise.all(sources.map((source) => listSource(where, source, kinds)));
}

/**
 * Reads config and the records of listed sources through the cache. When git tracks anything
 * under `.knowledge/.cache` at one of them, the cache is not used (see distrust): every source is
 * listed before anything is taken from it.
 */
export function readGitListings(where: { cwd: string; env?: NodeJS.ProcessEnv }, cache: GitRecordCache, listings: readonly GitListing[], kinds: readonly RecordKindName[]): Promise<GitRecords[]> {
  if (listings.some((listing) => listing.cacheTracked)) cache.distrust();
  return Promise.all(listings.map((listing) => parseListing(where, cache, listing, kinds)));
}

/** Reads config and the records of `kinds` at each source, through the cache (see readGitListings). */
export async function readGitRecordsAt<S extends readonly GitSource[]>(where: { cwd: string; env?: NodeJS.ProcessEnv }, cache: GitRecordCache, sources: readonly [...S], kinds: readonly RecordKindName[]): Promise<{ [K in keyof S]: GitRecords }> {
  return readGitListings(where, cache, await listGitSources(where, sources, kinds), kinds) as Promise<{ [K in keyof S]: GitRecords }>;
}

/** Reads config and the records of `kinds` at a source, through the cache. */
export async function readGitRecords(where: { cwd: string; env?: NodeJS.ProcessEnv }, cache: GitRecordCache, source: GitSource, kinds: readonly RecordKindName[]): Promise<GitRecords> {
  const [records] = await readGitRecordsAt(where, cache, [source], kinds);
  return records;
}

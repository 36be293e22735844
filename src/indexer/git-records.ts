// Records as git holds them — at a ref, or in the index (what a commit will contain) — parsed once
// per blob id and cached in `.knowledge/.cache/git-records.json`. The commit guard reads the store
// this way, so a warm hook loads neither the YAML parser nor the schema validator.
import { readFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { Problem } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { decodeUtf8, utf8Problem } from '../fs/utf8.js';
import { listIndex, listTree, readBlobs, refExists, type GitFile } from '../git/objects.js';
import { DEFAULT_CONFIG } from '../store/config-defaults.js';
import { CACHE_DIR, KINDS, KNOWLEDGE_DIR, type RecordKindName } from '../store/layout.js';
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

interface Parsed {
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

  constructor(root: string) {
    this.path = join(root, KNOWLEDGE_DIR, CACHE_DIR, 'git-records.json');
    try {
      const saved = JSON.parse(readFileSync(this.path, 'utf8')) as { key: string; entries: Record<string, Parsed>; derived?: Record<string, unknown> };
      if (saved.key === cacheKey()) {
        this.entries = saved.entries;
        this.derived = saved.derived ?? {};
      }
    } catch {
      // missing or damaged: rebuilt as blobs are parsed
    }
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
    if (!this.dirty) return;
    const all = Object.keys(this.entries);
    const keep = all.length > Math.max(20_000, this.used.size * 3) ? [...this.used] : all;
    const entries = Object.fromEntries(keep.map((k) => [k, this.entries[k]!]));
    await writeFileAtomic(this.path, JSON.stringify({ key: cacheKey(), entries, derived: this.derived })).catch(() => undefined);
  }
}

function kindOf(path: string, byDir: ReadonlyMap<string, RecordKindName>): RecordKindName | undefined {
  const slash = path.lastIndexOf('/');
  const kind = byDir.get(path.slice(KNOWLEDGE_DIR.length + 1, slash));
  return kind !== undefined && EXTENSIONS.has(extname(path)) ? kind : undefined;
}

/** Reads config and the records of `kinds` at a source, through the cache. */
export async function readGitRecords(where: { cwd: string; env?: NodeJS.ProcessEnv }, cache: GitRecordCache, source: GitSource, kinds: readonly RecordKindName[]): Promise<GitRecords> {
  const paths = [CONFIG_PATH, ...kinds.map((kind) => `${KNOWLEDGE_DIR}/${KINDS[kind].dir}`)];
  let files: GitFile[];
  if ('index' in source) {
    files = await listIndex(where, paths);
  } else {
    if (!(await refExists(where, source.ref))) return { exists: false, config: DEFAULT_CONFIG, records: [], problems: [] };
    files = await listTree(where, source.ref, paths);
  }
  const byDir = new Map(kinds.map((kind) => [KINDS[kind].dir, kind]));
  // Each file's kind and cache key, computed once.
  const wanted: Array<{ file: GitFile; kind: RecordKindName | undefined; key: string }> = [];
  for (const file of files) {
    if (file.path === CONFIG_PATH) {
      wanted.push({ file, kind: undefined, key: `config:${file.blob}` });
      continue;
    }
    const kind = kindOf(file.path, byDir);
    if (kind !== undefined) wanted.push({ file, kind, key: `${kind}:${basename(file.path)}:${file.blob}` });
  }
  const byKey = new Map(wanted.map((w) => [w.key, w]));
  await cache.fill([...byKey.keys()], async (missing) => {
    const misses = missing.map((key) => byKey.get(key)!);
    const blobs = await readBlobs(where, misses.map((w) => w.file.blob));
    // Parsing loads yaml and ajv: only on a cache miss.
    const { parseRecord } = await import('../store/read.js');
    const { parseConfig } = await import('../store/config.js');
    for (const { file, kind, key } of misses) {
      const decoded = decodeUtf8(blobs.get(file.blob)!);
      if ('fault' in decoded) {
        cache.set(key, { problems: [utf8Problem(file.path, decoded.fault)] });
        continue;
      }
      const text = decoded.text;
      if (kind === undefined) cache.set(key, parseConfig(text, file.path));
      else cache.set(key, parseRecord(text, kind, basename(file.path, extname(file.path)), file.path));
    }
  });
  const result: GitRecords = { exists: files.length > 0, config: DEFAULT_CONFIG, records: [], problems: [] };
  for (const { file, key } of wanted) {
    const parsed = cache.get(key)!;
    if (parsed.config !== undefined) result.config = parsed.config;
    if (parsed.record !== undefined) result.records.push({ ...parsed.record, blob: file.blob });
    result.problems.push(...parsed.problems);
  }
  return result;
}

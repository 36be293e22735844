// Records as git holds them — at a ref, or in the index (what a commit will contain) — parsed once
// per blob id and cached in `.knowledge/.cache/git-records.json`. The commit guard reads the store
// this way, so a warm hook loads neither the YAML parser nor the schema validator.
import { readFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { Problem } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
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
  private readonly used = new Set<string>();
  private dirty = false;

  constructor(root: string) {
    this.path = join(root, KNOWLEDGE_DIR, CACHE_DIR, 'git-records.json');
    try {
      const saved = JSON.parse(readFileSync(this.path, 'utf8')) as { key: string; entries: Record<string, Parsed> };
      if (saved.key === cacheKey()) this.entries = saved.entries;
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

  /** Writes the cache back, keeping it bounded: what this run used, plus older entries while few. */
  async save(): Promise<void> {
    if (!this.dirty) return;
    const all = Object.keys(this.entries);
    const keep = all.length > Math.max(20_000, this.used.size * 3) ? [...this.used] : all;
    const entries = Object.fromEntries(keep.map((k) => [k, this.entries[k]!]));
    await writeFileAtomic(this.path, JSON.stringify({ key: cacheKey(), entries })).catch(() => undefined);
  }
}

function kindOf(path: string, kinds: readonly RecordKindName[]): RecordKindName | undefined {
  if (!EXTENSIONS.has(extname(path))) return undefined;
  const dir = path.slice(KNOWLEDGE_DIR.length + 1, path.lastIndexOf('/'));
  return kinds.find((kind) => KINDS[kind].dir === dir);
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
  const wanted = files.filter((f) => f.path === CONFIG_PATH || kindOf(f.path, kinds) !== undefined);
  const keyOf = (f: GitFile): string => (f.path === CONFIG_PATH ? `config:${f.blob}` : `${kindOf(f.path, kinds)}:${basename(f.path)}:${f.blob}`);
  const misses = wanted.filter((f) => cache.get(keyOf(f)) === undefined);
  if (misses.length > 0) {
    const blobs = await readBlobs(where, misses.map((f) => f.blob));
    // Parsing loads yaml and ajv: only on a cache miss.
    const { parseRecord } = await import('../store/read.js');
    const { parseConfig } = await import('../store/config.js');
    for (const file of misses) {
      const text = blobs.get(file.blob)!.toString('utf8');
      if (file.path === CONFIG_PATH) {
        const { config, problems } = parseConfig(text, file.path);
        cache.set(keyOf(file), { config, problems });
      } else {
        const kind = kindOf(file.path, kinds)!;
        cache.set(keyOf(file), parseRecord(text, kind, basename(file.path, extname(file.path)), file.path));
      }
    }
  }
  const result: GitRecords = { exists: files.length > 0, config: DEFAULT_CONFIG, records: [], problems: [] };
  for (const file of wanted) {
    const parsed = cache.get(keyOf(file))!;
    if (parsed.config !== undefined) result.config = parsed.config;
    if (parsed.record !== undefined) result.records.push({ ...parsed.record, blob: file.blob });
    result.problems.push(...parsed.problems);
  }
  return result;
}

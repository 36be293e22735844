// What a warm guard needs of both sides' knowledge, in one small file: the records of the guard's
// kinds other than prohibitions, the rule table (rules.ts: every prohibition's applicability and
// matchers with their literals, in columns) and, read only when a finding needs them, the
// prohibitions themselves (cut to the fields the guard reads). Keyed by the listings git gave for
// both sides (every path and blob id the records came from) and by the lore that made it. So a
// warm hook parses a few arrays instead of the whole parse cache. Beside it, the prefilter
// automaton of each matcher set (guard-literals-paths.bin, -content.bin), keyed by the literals it
// was built from, so a warm hook builds none. Caches, rebuilt when missing, damaged, edited or
// keyed otherwise; never read or written when git tracks anything under .knowledge/.cache (the
// listings say so).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { checksum } from '../fs/checksum.js';
import { readParsedIfExistsSync } from '../fs/read-text.js';
import { cacheKey } from '../store/cache-key.js';
import type { GitListing, GitRecords } from '../indexer/git-records.js';
import { CACHE_DIR, KNOWLEDGE_DIR } from '../store/layout.js';
import type { KnowledgeEntry } from '../types.js';
import { LiteralSet } from './aho-corasick.js';
import { originOf, type CompiledRules, type RuleTable, type RuleVersion } from './rules.js';
import { RULE_SNAPSHOT, RULE_TREES_AT_HEAD } from './hook-git.js';

/** The fields of a prohibition the guard reads: applicability, the matchers, what a finding says, and the tests its own file may hold. */
const GUARD_FIELDS = ['id', 'type', 'title', 'priority', 'secret', 'enabled', 'scope', 'projectId', 'validFrom', 'validUntil', 'agentTypes', 'patterns', 'globs', 'content', 'tests'];

const sha1 = (data: string | Uint8Array): string => createHash('sha1').update(data).digest('hex');
/**
 * An automaton file's header: its key (a sha1), a space and its CRC-32, padded with spaces to 84
 * bytes with its newline, so that the automaton after it starts at a multiple of four and is read in place.
 */
const HEADER = 84;
const header = (key: string, sum: string): string => `${key} ${sum}`.padEnd(HEADER - 1) + '\n';

/** A version as saved: its origin is in the table. */
type SavedVersion = Omit<RuleVersion, 'origin'>;

/**
 * The body: one line of JSON with both sides (prohibitions left out) and the table, then one with
 * the versions, parsed only when a finding needs one (JSON text holds no raw line break).
 */
interface Saved {
  sides: GitRecords[];
  table: RuleTable;
  /** The files the rules were read from (both sides): what is not among them in the working tree is untracked. */
  files: string[];
}

/** What a cache file holds for the key it names: read (and checked against its checksum) once, when first wanted. */
interface CacheFile<T> {
  key: string;
  content(): T | undefined;
}

/** `content` run once its answer is first wanted, and kept. */
function once<T>(content: () => T): () => T {
  let done: { value: T } | undefined;
  return () => (done ??= { value: content() }).value;
}

/**
 * The snapshot file: "<key> <CRC-32 of the body>\n<body>"; a file cut short or damaged is not
 * the one lore wrote. Kept in memory while the file is the same (readParsedIfExistsSync).
 */
function readSnapshotFile(bytes: Buffer): CacheFile<{ sides: GitRecords[]; rules: CompiledRules; files: string[] }> | undefined {
  const newline = bytes.indexOf(10);
  if (newline === -1) return undefined;
  const [key, sum] = bytes.toString('latin1', 0, newline).split(' ');
  return {
    key: key!,
    content: once(() => {
      const second = bytes.indexOf(10, newline + 1);
      if (second === -1 || sum !== checksum(bytes.subarray(newline + 1))) return undefined;
      const saved = JSON.parse(bytes.toString('utf8', newline + 1, second)) as Saved;
      const { table } = saved;
      let versions: RuleVersion[] | undefined;
      const version = (v: number): RuleVersion => {
        versions ??= (JSON.parse(bytes.toString('utf8', second + 1)) as SavedVersion[]).map((item, at) => ({ ...item, origin: originOf(table, at) }));
        return versions[v]!;
      };
      return { sides: saved.sides, rules: { table, version }, files: saved.files };
    }),
  };
}

/** An automaton file: "<key> <CRC-32 of the bytes>", padded to HEADER, then the bytes. */
function readAutomatonFile(bytes: Buffer): CacheFile<LiteralSet> | undefined {
  if (bytes.length <= HEADER) return undefined;
  const head = bytes.toString('latin1', 0, HEADER);
  const [key, sum] = head.trimEnd().split(' ');
  if (head !== header(key!, sum!)) return undefined;
  return { key: key!, content: once(() => (sum === checksum(bytes.subarray(HEADER)) ? LiteralSet.fromBytes(bytes.subarray(HEADER)) : undefined)) };
}

/** The guard's records of both sides and their rule table, from the snapshot or read anew. */
export class RuleSnapshot {
  private readonly path: string;
  /** Automata built this run, to save: file → header and bytes. */
  private readonly built = new Map<string, { head: string; bytes: Uint8Array }>();
  private stored: { sides: GitRecords[]; rules: CompiledRules; files: string[] } | undefined;
  private toSave: { sides: GitRecords[]; table: RuleTable; versions: readonly RuleVersion[]; files: string[] } | undefined;

  /**
   * `key` undefined: nothing is read or saved (a listing tracks the cache). `tracked`: the change
   * checked keeps lore's cache in git (not so for the commit that takes it out, though HEAD has it).
   */
  private constructor(root: string, private readonly key: string | undefined, readonly tracked = false) {
    this.path = join(root, KNOWLEDGE_DIR, CACHE_DIR, RULE_SNAPSHOT);
    if (key === undefined) return;
    try {
      const file = readParsedIfExistsSync(this.path, readSnapshotFile);
      if (file?.key === key) this.stored = file.content();
    } catch {
      // damaged: read anew and saved again
    }
  }

  /** The snapshot for these listings (both sides, in order: the change checked last). */
  static open(root: string, listings: readonly GitListing[]): RuleSnapshot {
    if (listings.some((listing) => listing.cacheTracked)) return new RuleSnapshot(root, undefined, listings[listings.length - 1]!.cacheTracked);
    const identity = listings.map((listing) => `${listing.exists}\n${listing.files.map((f) => `${f.path}\0${f.blob}`).join('\n')}`).join('\n\n');
    return new RuleSnapshot(root, sha1(`${cacheKey()}\n${identity}`));
  }

  /**
   * The snapshot for a change that leaves every rule file as HEAD has it (the staged diff names
   * none), keyed by `trees`: git's answers for RULE_TREES_AT_HEAD, one line each (the id and type
   * of each rule folder or file at HEAD, or missing). Nothing is read or saved when HEAD tracks
   * lore's cache.
   */
  static forTrees(root: string, trees: string): RuleSnapshot {
    const answers = trees.split('\n');
    if (answers[RULE_TREES_AT_HEAD.indexOf(`HEAD:${KNOWLEDGE_DIR}/${CACHE_DIR}`)] !== 'missing') return new RuleSnapshot(root, undefined, true);
    return new RuleSnapshot(root, sha1(`${cacheKey()}\ntrees\n${trees}`));
  }

  /** Both sides (their records other than prohibitions) and the rules, when the snapshot holds them. */
  kept(): { sides: GitRecords[]; rules: CompiledRules; files: string[] } | undefined {
    return this.stored;
  }

  /** Remembers both sides (read anew, problems included, prohibitions left out) and their rules' versions and table, for the next run. */
  keep(sides: GitRecords[], versions: readonly RuleVersion[], table: RuleTable, files: readonly string[]): void {
    if (this.key !== undefined) this.toSave = { sides, table, versions, files: [...files] };
  }

  /**
   * The prefilter automaton of these literals: read from `guard-literals-<name>.bin` when that file
   * was built from the same literals (same ids, same texts, same lore), else built and saved.
   */
  literalSet(name: 'paths' | 'content', literals: ReadonlyArray<{ id: number; text: string }>): LiteralSet {
    if (this.key === undefined) return new LiteralSet(literals);
    const path = join(this.path, '..', `guard-literals-${name}.bin`);
    const key = sha1(`${cacheKey()}\n${literals.map((l) => `${l.id}\0${l.text}`).join('\n')}`);
    try {
      const set = readParsedIfExistsSync(path, readAutomatonFile);
      if (set?.key === key) {
        const found = set.content();
        if (found !== undefined) return found;
      }
    } catch {
      // damaged: built anew and saved again
    }
    const set = new LiteralSet(literals);
    const bytes = set.toBytes();
    this.built.set(path, { head: header(key, checksum(bytes)), bytes });
    return set;
  }

  /** Writes the snapshot and the automata when something new went into them (best effort: they are caches). */
  async save(): Promise<void> {
    await Promise.all([...this.built].map(([path, { head, bytes }]) => writeFileAtomic(path, Buffer.concat([Buffer.from(head, 'latin1'), bytes]), { durable: false }).catch(() => undefined)));
    this.built.clear();
    if (this.toSave === undefined || this.key === undefined) return;
    const { sides, table, versions, files } = this.toSave;
    this.toSave = undefined;
    const saved: SavedVersion[] = versions.map(({ entry, file, identity }) => ({ entry: pick(entry), file, ...(identity === undefined ? {} : { identity }) }));
    const body = Buffer.from(`${JSON.stringify({ sides, table, files } satisfies Saved)}\n${JSON.stringify(saved)}`);
    await writeFileAtomic(this.path, Buffer.concat([Buffer.from(`${this.key} ${checksum(body)}\n`), body]), { durable: false }).catch(() => undefined);
  }
}

function pick(entry: KnowledgeEntry): KnowledgeEntry {
  const fields = entry as unknown as Record<string, unknown>;
  return Object.fromEntries(GUARD_FIELDS.filter((field) => fields[field] !== undefined).map((field) => [field, fields[field]])) as unknown as KnowledgeEntry;
}

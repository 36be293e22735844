// What a warm guard needs of both sides' knowledge, in one small file: the records of the guard's
// kinds (prohibitions cut to the fields the guard reads) and the prefilter literal of each
// pattern, keyed by the listings git gave for both sides (every path and blob id the records came
// from) and by the lore that made it. So a warm hook parses one compact file instead of the whole
// parse cache. Beside it, the prefilter automaton of each matcher set (guard-literals-paths.bin,
// -content.bin), keyed by the literals it was built from, so a warm hook builds none. Caches, rebuilt when missing, damaged, edited or keyed otherwise; never read or
// written when git tracks anything under .knowledge/.cache (the listings say so).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { checksum } from '../fs/checksum.js';
import { readBytesIfExistsSync } from '../fs/read-text.js';
import { cacheKey } from '../store/cache-key.js';
import type { GitListing, GitRecords } from '../indexer/git-records.js';
import { CACHE_DIR, KNOWLEDGE_DIR } from '../store/layout.js';
import { LiteralSet } from './aho-corasick.js';
import { patternLiteral, type CompileMemory } from './rules.js';
import type { RequiredLiteral } from './literals.js';
import { RULE_TREES_AT_HEAD } from './hook-git.js';

/** The fields of a prohibition the guard reads: applicability, the matchers, what a finding says, and the tests its own file may hold. */
const GUARD_FIELDS = ['id', 'type', 'title', 'priority', 'secret', 'enabled', 'scope', 'projectId', 'validFrom', 'validUntil', 'agentTypes', 'patterns', 'globs', 'content', 'tests'];

const sha1 = (data: string | Uint8Array): string => createHash('sha1').update(data).digest('hex');
/**
 * An automaton file's header: its key (a sha1), a space and its CRC-32, padded with spaces to 84
 * bytes with its newline, so that the automaton after it starts at a multiple of four and is read in place.
 */
const HEADER = 84;
const header = (key: string, sum: string): string => `${key} ${sum}`.padEnd(HEADER - 1) + '\n';

type Record_ = GitRecords['records'][number];

/** Both sides as saved: a record the sides share (same file, same blob) is written once, in `pool`. */
interface Saved {
  pool: Record_[];
  sides: Array<Omit<GitRecords, 'records'> & { records: number[] }>;
  literals: Record<string, RequiredLiteral | null>;
}

/** The guard's records of both sides, from the snapshot or read anew, and the literals it remembers. */
export class RuleSnapshot implements CompileMemory {
  private readonly path: string;
  /** Automata built this run, to save: file → header and bytes. */
  private readonly built = new Map<string, { head: string; bytes: Uint8Array }>();
  private literals: Record<string, RequiredLiteral | null> = {};
  private sides: GitRecords[] | undefined;
  private dirty = false;

  /** `key` undefined: nothing is read or saved (a listing tracks the cache). */
  private constructor(root: string, private readonly key: string | undefined) {
    this.path = join(root, KNOWLEDGE_DIR, CACHE_DIR, 'guard-rules.json');
    if (key === undefined) return;
    try {
      // "<key> <CRC-32 of the body>\n<body>": a file cut short or damaged is not the one lore wrote.
      const bytes = readBytesIfExistsSync(this.path) ?? Buffer.alloc(0);
      const newline = bytes.indexOf(10);
      if (newline !== -1 && bytes.toString('latin1', 0, newline) === `${key} ${checksum(bytes.subarray(newline + 1))}`) {
        const saved = JSON.parse(bytes.toString('utf8', newline + 1)) as Saved;
        this.sides = saved.sides.map((side) => ({ ...side, records: side.records.map((i) => saved.pool[i]!) }));
        this.literals = saved.literals;
      }
    } catch {
      // missing or damaged: read anew and saved again
    }
  }

  /** The snapshot for these listings (both sides, in order). */
  static open(root: string, listings: readonly GitListing[]): RuleSnapshot {
    if (listings.some((listing) => listing.cacheTracked)) return new RuleSnapshot(root, undefined);
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
    if (answers[RULE_TREES_AT_HEAD.indexOf(`HEAD:${KNOWLEDGE_DIR}/${CACHE_DIR}`)] !== 'missing') return new RuleSnapshot(root, undefined);
    return new RuleSnapshot(root, sha1(`${cacheKey()}\ntrees\n${trees}`));
  }

  /** Both sides' records when the snapshot holds them. */
  records(): GitRecords[] | undefined {
    return this.sides;
  }

  /** Remembers both sides' records (read anew, problems included) for the next run. */
  keep(sides: readonly GitRecords[]): void {
    if (this.key === undefined) return;
    this.sides = sides.map((side) => ({ ...side, records: side.records.map((r) => (r.kind === 'prohibition' ? { ...r, value: pick(r.value as Record<string, unknown>) } : r)) }));
    this.dirty = true;
  }

  /** The prefilter literal of a pattern (or `glob:<glob>`), computed once and remembered. */
  literal(source: string): RequiredLiteral | undefined {
    if (!(source in this.literals)) {
      this.literals[source] = patternLiteral(source) ?? null;
      this.dirty = true;
    }
    return this.literals[source] ?? undefined;
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
      // "<key> <CRC-32 of the bytes>\n<bytes>", like the snapshot itself.
      const saved = readBytesIfExistsSync(path);
      if (saved !== undefined && saved.length > HEADER && saved.toString('latin1', 0, HEADER) === header(key, checksum(saved.subarray(HEADER)))) {
        const set = LiteralSet.fromBytes(saved.subarray(HEADER));
        if (set !== undefined) return set;
      }
    } catch {
      // missing or damaged: built anew and saved again
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
    if (!this.dirty || this.key === undefined || this.sides === undefined) return;
    const pool: Record_[] = [];
    const at = new Map<string, number>();
    const sides = this.sides.map((side) => ({
      ...side,
      records: side.records.map((record) => {
        const key = `${record.file}\0${record.blob}`;
        if (!at.has(key)) at.set(key, pool.push(record) - 1);
        return at.get(key)!;
      }),
    }));
    const body = Buffer.from(JSON.stringify({ pool, sides, literals: this.literals } satisfies Saved));
    await writeFileAtomic(this.path, Buffer.concat([Buffer.from(`${this.key} ${checksum(body)}\n`), body]), { durable: false }).catch(() => undefined);
  }
}

function pick(value: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const field of GUARD_FIELDS) if (value[field] !== undefined) kept[field] = value[field];
  return kept;
}

// What a warm guard needs of both sides' knowledge, in one small file: the records of the guard's
// kinds (prohibitions cut to the fields the guard reads) and the prefilter literal of each
// pattern, keyed by the listings git gave for both sides (every path and blob id the records came
// from) and by the lore that made it. So a warm hook parses one compact file instead of the whole
// parse cache. A cache, rebuilt when missing, damaged, edited or keyed otherwise; never read or
// written when git tracks anything under .knowledge/.cache (the listings say so).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { readTextIfExistsSync } from '../fs/read-text.js';
import { cacheKey } from '../indexer/cache-key.js';
import type { GitListing, GitRecords } from '../indexer/git-records.js';
import { CACHE_DIR, KNOWLEDGE_DIR } from '../store/layout.js';
import { patternLiteral } from './rules.js';
import type { RequiredLiteral } from './literals.js';

/** The fields of a prohibition the guard reads: applicability, the matchers, what a finding says, and the tests its own file may hold. */
const GUARD_FIELDS = ['id', 'type', 'title', 'priority', 'secret', 'enabled', 'scope', 'projectId', 'validFrom', 'validUntil', 'agentTypes', 'patterns', 'globs', 'content', 'tests'];

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

type Record_ = GitRecords['records'][number];

/** Both sides as saved: a record the sides share (same file, same blob) is written once, in `pool`. */
interface Saved {
  pool: Record_[];
  sides: Array<Omit<GitRecords, 'records'> & { records: number[] }>;
  literals: Record<string, RequiredLiteral | null>;
}

/** The guard's records of both sides, from the snapshot or read anew, and the literals it remembers. */
export class RuleSnapshot {
  private readonly path: string;
  private literals: Record<string, RequiredLiteral | null> = {};
  private sides: GitRecords[] | undefined;
  private dirty = false;

  /** `key` undefined: nothing is read or saved (a listing tracks the cache). */
  private constructor(root: string, private readonly key: string | undefined) {
    this.path = join(root, KNOWLEDGE_DIR, CACHE_DIR, 'guard-rules.json');
    if (key === undefined) return;
    try {
      // "<key> <sha1 of the body>\n<body>": a file edited by hand (or cut short) is not the one lore wrote.
      const text = readTextIfExistsSync(this.path) ?? '';
      const newline = text.indexOf('\n');
      const body = text.slice(newline + 1);
      if (newline !== -1 && text.slice(0, newline) === `${key} ${sha1(body)}`) {
        const saved = JSON.parse(body) as Saved;
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

  /** Writes the snapshot when something new went into it (best effort: it is a cache). */
  async save(): Promise<void> {
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
    const body = JSON.stringify({ pool, sides, literals: this.literals } satisfies Saved);
    await writeFileAtomic(this.path, `${this.key} ${sha1(body)}\n${body}`, { durable: false }).catch(() => undefined);
  }
}

function pick(value: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const field of GUARD_FIELDS) if (value[field] !== undefined) kept[field] = value[field];
  return kept;
}

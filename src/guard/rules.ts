// Compiling prohibitions into matchers for the commit guard. The rules of a check are first a
// table (RuleTable): every version of both sides in columns, what decides where each applies, and
// its matchers with the literal text each cannot match without. The rule snapshot saves that
// table as it is, so a warm hook parses a few arrays instead of thousands of records. Scanning
// finds which literals occur (one pass over the paths, one over the added lines) and runs only
// those matchers, of the versions that apply.
import { applicabilityOf, applies, appliesEverywhere, type Applicability, type ApplyContext } from '../knowledge/applicable.js';
import { codePointsAsUnits, compileGlob, globToRegex } from '../match/glob.js';
import { compileRegex, type SafeRegex } from '../match/regex.js';
import type { KnowledgeEntry } from '../types.js';
import { LiteralSet } from './aho-corasick.js';
import { maxWidth, requiredLiteral, type RequiredLiteral } from './literals.js';
import { findAround, LONG_LINE, MAX_WINDOW_WIDTH } from './long-lines.js';

/** Where a version of a rule comes from: already committed, in the change, or the same in both. */
export type RuleOrigin = 'committed' | 'change' | 'both';

export interface RuleVersion {
  entry: KnowledgeEntry;
  origin: RuleOrigin;
  /** The file the rule was read from. */
  file: string;
  /** The content's identity (a git blob id), when known: equal identities are equal versions. */
  identity?: string;
}

/** The matchers of one kind of subject (paths or added lines), one column per field. */
export interface MatcherColumns {
  /** The version each matcher belongs to (its place in the table). */
  rule: number[];
  /** One letter per matcher: p(attern), g(lob), c(ontent). */
  kind: string;
  /** The pattern, glob or regex as written. */
  text: string[];
  /** The literal it cannot match without, or null: it always runs. */
  literal: Array<string | null>;
  /** 1 when that literal is compared ignoring ASCII case. */
  ignoreCase: number[];
}

/**
 * The rules of a check as columns: plain data, saved as it is. `where[v]` is null for a version
 * that applies everywhere (enabled, global, no validity window), else what decides it.
 */
export interface RuleTable {
  /** Per version: 0 committed, 1 in the change, 2 both. */
  origin: number[];
  where: Array<Where | null>;
  paths: MatcherColumns;
  content: MatcherColumns;
}

/** What decides where a version applies, as saved: an open end of its window is null. */
type Where = Omit<Applicability, 'from' | 'until'> & { from: number | null; until: number | null };

const ORIGINS: readonly RuleOrigin[] = ['committed', 'change', 'both'];
const KINDS = { p: 'pattern', g: 'glob', c: 'content' } as const;

/** A table and its versions: `version(v)` is the whole version, made when a finding needs it. */
export interface CompiledRules {
  table: RuleTable;
  version(v: number): RuleVersion;
}

/** Unions the versions of the rules: identical versions merge into one with origin 'both'. */
export function unionVersions(committed: readonly RuleVersion[], change: readonly RuleVersion[]): RuleVersion[] {
  const seen = new Map<string, RuleVersion>();
  for (const version of [...committed, ...change]) {
    const key = version.identity ?? JSON.stringify(version.entry);
    const existing = seen.get(key);
    if (existing === undefined) seen.set(key, { ...version });
    else if (existing.origin !== version.origin) existing.origin = 'both';
  }
  return [...seen.values()];
}

/** The table of these versions, with each matcher's literal. */
export function ruleTable(versions: readonly RuleVersion[]): RuleTable {
  const columns = (): MatcherColumns => ({ rule: [], kind: '', text: [], literal: [], ignoreCase: [] });
  const table: RuleTable = { origin: [], where: [], paths: columns(), content: columns() };
  const add = (to: MatcherColumns, v: number, kind: keyof typeof KINDS, text: string, found: RequiredLiteral | undefined): void => {
    to.rule.push(v);
    to.kind += kind;
    to.text.push(text);
    to.literal.push(found?.text ?? null);
    to.ignoreCase.push(found?.ignoreCase === true ? 1 : 0);
  };
  // Stores repeat patterns and globs across entries: each distinct one is read once. The key's
  // first character says which reading (a path regex may itself begin with anything).
  const literals = new Map<string, RequiredLiteral | undefined>();
  const literalOf = (reading: 'r' | 'g', source: string): RequiredLiteral | undefined => {
    const key = reading + source;
    if (!literals.has(key)) literals.set(key, reading === 'g' ? globLiteral(source) : requiredLiteral(source));
    return literals.get(key);
  };
  versions.forEach((version, v) => {
    table.origin.push(ORIGINS.indexOf(version.origin));
    const where = applicabilityOf(version.entry);
    // JSON has no infinity: an open end is saved as null.
    table.where.push(appliesEverywhere(where) ? null : { ...where, from: Number.isFinite(where.from) ? where.from : null, until: Number.isFinite(where.until) ? where.until : null });
    const { patterns, globs, content } = version.entry;
    for (const pattern of patterns ?? []) add(table.paths, v, 'p', pattern, literalOf('r', pattern));
    for (const glob of globs ?? []) add(table.paths, v, 'g', glob, literalOf('g', glob));
    for (const regex of content ?? []) add(table.content, v, 'c', regex, literalOf('r', regex));
  });
  return table;
}

/** Which versions of the table apply in any of `contexts` (one per project the check names): 1 where one does. */
export function appliedVersions(table: RuleTable, contexts: readonly ApplyContext[]): Uint8Array {
  const applied = new Uint8Array(table.where.length);
  table.where.forEach((where, v) => {
    if (where === null) applied[v] = 1;
    else {
      const window = { ...where, from: where.from ?? -Infinity, until: where.until ?? Infinity };
      if (contexts.some((context) => applies(window, context))) applied[v] = 1;
    }
  });
  return applied;
}

/** The origin of version `v`. */
export function originOf(table: RuleTable, v: number): RuleOrigin {
  return ORIGINS[table.origin[v]!]!;
}

export interface Matcher {
  /** Its place in its set (paths or content): what the set's automaton reports. */
  id: number;
  rule: RuleVersion;
  kind: 'pattern' | 'glob' | 'content';
  /** The pattern, glob or regex as written in the entry. */
  text: string;
  test(subject: string): { index: number; text: string } | undefined;
  /** The text the test cannot match without (undefined: none, the test always runs). */
  literal: RequiredLiteral | undefined;
}

type Test = Matcher['test'];

/**
 * The path or content matchers of a scan, read from the table's columns: a store of thousands of
 * rules has thousands of matchers, and a scan runs the few whose literal occurs. A Matcher object,
 * a group and a compiled test are made for those only (and for the matchers with no literal,
 * which always run). The automaton holds the literals of every version's matchers, so that it
 * depends on the rules alone (not on the day, the role or the project); a literal found for a
 * version that does not apply is passed over. Matchers with the same kind and text form a group:
 * they share one compiled test, which runs once per subject.
 */
export class MatcherSet {
  /** The literals' automaton: ids are places in this set. */
  readonly literals: LiteralSet;
  /** The groups of the applying matchers without a usable literal: visited for every subject. */
  readonly alwaysGroups: ReadonlyArray<readonly Matcher[]>;
  /** The literal ids found in the current subject (reused: scanning allocates nothing per line). */
  readonly hits: number[] = [];
  /** Per matcher, 1 when its version applies. */
  private readonly live: Uint8Array;
  /** Per matcher, 1 when the automaton left its literal out: it always runs. */
  private readonly unfiltered: Uint8Array;
  private readonly made: Array<readonly Matcher[] | undefined>;
  /** Per group leader (the group's first matcher), the subject that last visited it: each group runs once per subject. */
  private readonly visited: Int32Array;
  private subjects = 0;
  /** Per applying matcher, its group's leader, and the next matcher of its group (-1: none); made on first use. */
  private leaders: { leader: Int32Array; next: Int32Array } | undefined;

  constructor(
    private readonly columns: MatcherColumns,
    private readonly version: (v: number) => RuleVersion,
    applied: Uint8Array,
    literals: (usable: ReadonlyArray<{ id: number; text: string }>) => LiteralSet,
  ) {
    const size = columns.text.length;
    const usable: Array<{ id: number; text: string }> = [];
    for (let id = 0; id < size; id++) if (columns.literal[id] !== null) usable.push({ id, text: columns.literal[id]! });
    this.literals = literals(usable);
    this.live = new Uint8Array(size);
    for (let id = 0; id < size; id++) this.live[id] = applied[columns.rule[id]!]!;
    // A literal the automaton could not take is no prefilter: its matcher always runs.
    this.unfiltered = new Uint8Array(size);
    for (const id of this.literals.skipped) this.unfiltered[id] = 1;
    this.made = new Array<readonly Matcher[] | undefined>(size);
    this.visited = new Int32Array(size);
    const always = new Set<readonly Matcher[]>();
    for (let id = 0; id < size; id++) if (this.live[id] === 1 && this.literal(id) === undefined) always.add(this.group(id));
    this.alwaysGroups = [...always];
  }

  /** The applying matchers, in order (made now when not made yet). */
  get matchers(): Matcher[] {
    const all: Matcher[] = [];
    for (let id = 0; id < this.live.length; id++) if (this.live[id] === 1) all.push(this.matcher(id));
    return all;
  }

  /** The applying matchers without a usable literal. */
  get always(): Matcher[] {
    return this.matchers.filter((m) => m.literal === undefined);
  }

  /** Whether matcher `id`'s version applies. */
  applies(id: number): boolean {
    return this.live[id] === 1;
  }

  /** An applying matcher. */
  matcher(id: number): Matcher {
    return this.group(id).find((m) => m.id === id)!;
  }

  /** The group of applying matcher `id`: every applying matcher of the same kind and text, sharing one compiled test. */
  group(id: number): readonly Matcher[] {
    const made = this.made[id];
    if (made !== undefined) return made;
    const { leader, next } = (this.leaders ??= this.lead());
    const first = leader[id]!;
    // Only an applying matcher has a group: asking for another is a bug, never an empty group to pass over.
    if (first === -1) throw new Error(`matcher ${id} belongs to a rule that does not apply`);
    const kind = KINDS[this.columns.kind[first] as keyof typeof KINDS];
    const text = this.columns.text[first]!;
    const test = compiledLazily(kind, text);
    const { version } = this;
    const group: Matcher[] = [];
    for (let m = first; m !== -1; m = next[m]!) {
      const v = this.columns.rule[m]!;
      // The version is asked for when a test matched: a snapshot's versions are parsed then, not for every group made.
      group.push({ id: m, get rule() { return version(v); }, kind, text, test, literal: this.literal(m) });
    }
    for (const m of group) this.made[m.id] = group;
    return group;
  }

  /** Whether the group of applying matcher `id` was visited for the current subject; marks it visited. */
  seen(id: number): boolean {
    const first = (this.leaders ??= this.lead()).leader[id]!;
    if (this.visited[first] === this.subjects) return true;
    this.visited[first] = this.subjects;
    return false;
  }

  /** Starts a new subject (for seen). */
  nextSubject(): void {
    this.subjects++;
  }

  /** The literal of matcher `id` as the prefilter uses it (undefined: it always runs). */
  literal(id: number): RequiredLiteral | undefined {
    const text = this.columns.literal[id];
    return text === null || text === undefined || this.unfiltered[id] === 1 ? undefined : { text, ignoreCase: this.columns.ignoreCase[id] === 1 };
  }

  private lead(): { leader: Int32Array; next: Int32Array } {
    const size = this.live.length;
    const leader = new Int32Array(size).fill(-1);
    const next = new Int32Array(size).fill(-1);
    const last = new Map<string, number>();
    for (let id = 0; id < size; id++) {
      if (this.live[id] !== 1) continue;
      const key = `${this.columns.kind[id]}\0${this.columns.text[id]}`;
      const before = last.get(key);
      if (before === undefined) leader[id] = id;
      else {
        next[before] = id;
        leader[id] = leader[before]!;
      }
      last.set(key, id);
    }
    return { leader, next };
  }
}

/** A matcher's test, compiled on its first run: most matchers never run (their literal is absent). */
function compiledLazily(kind: Matcher['kind'], text: string): Test {
  let test: Test | undefined;
  return (subject) => (test ??= compile(kind, text))(subject);
}

function compile(kind: Matcher['kind'], text: string): Test {
  if (kind === 'glob') {
    const glob = compileGlob(text);
    return (subject) => (glob.test(subject) ? { index: 0, text: subject } : undefined);
  }
  const regex: SafeRegex = compileRegex(text);
  const literal = kind === 'content' ? requiredLiteral(text) : undefined;
  const width = literal === undefined ? undefined : maxWidth(text);
  if (literal === undefined || width === undefined || width > MAX_WINDOW_WIDTH) return (subject) => regex.find(subject);
  return (subject) => (subject.length < LONG_LINE ? regex.find(subject) : findAround(regex, subject, literal, width));
}

/** The automaton of a set of literals: built, or taken from an earlier run. */
export type LiteralSets = (name: 'paths' | 'content', literals: ReadonlyArray<{ id: number; text: string }>) => LiteralSet;

const buildLiteralSet: LiteralSets = (_name, literals) => new LiteralSet(literals);

/** The path and content matchers of the versions `applied` marks; `literalSets` may take the automata from an earlier run. */
export function compileTable(rules: CompiledRules, applied: Uint8Array, literalSets: LiteralSets = buildLiteralSet): { paths: MatcherSet; content: MatcherSet } {
  const set = (name: 'paths' | 'content'): MatcherSet => new MatcherSet(rules.table[name], (v) => rules.version(v), applied, (usable) => literalSets(name, usable));
  return { paths: set('paths'), content: set('content') };
}

/** Compiles every one of these versions (rule tests, and callers with no table). */
export function compileRules(versions: readonly RuleVersion[]): { paths: MatcherSet; content: MatcherSet } {
  const table = ruleTable(versions);
  return compileTable({ table, version: (v) => versions[v]! }, new Uint8Array(versions.length).fill(1));
}

/** The required literal of a glob, through its RE2 translation (a negated glob has none). */
export function globLiteral(text: string): RequiredLiteral | undefined {
  const glob = globToRegex(text);
  if (glob.negated) return undefined;
  const literal = requiredLiteral(glob.source);
  if (literal === undefined) return undefined;
  // The regex reads surrogates as code points of their own (see glob.ts): back to the path's text.
  const required = codePointsAsUnits(literal.text);
  // A path equal to the glob's own text matches too (as in micromatch): it must hold the literal as well.
  return text.includes(required) ? { ...literal, text: required } : undefined;
}

/**
 * Calls `visit` for each distinct test that may match `subject` (those whose literal occurs in it,
 * and those without one), with every matcher sharing that test: identical patterns run once.
 * Matchers of versions that do not apply are never visited.
 */
export function forCandidates(set: MatcherSet, subject: string, visit: (matchers: readonly Matcher[]) => void): void {
  const { hits, alwaysGroups } = set;
  if (hits.length !== 0) hits.length = 0;
  set.literals.search(subject, hits);
  // Most subjects contain no literal: this is the whole cost of a line then.
  if (hits.length === 0 && alwaysGroups.length === 0) return;
  set.nextSubject();
  for (let i = 0; i < alwaysGroups.length; i++) {
    const group = alwaysGroups[i]!;
    if (!set.seen(group[0]!.id)) visit(group);
  }
  for (let i = 0; i < hits.length; i++) {
    const id = hits[i]!;
    if (!set.applies(id)) continue;
    const literal = set.literal(id)!;
    // The automaton ignores case; a case-sensitive literal must occur as written.
    if (!literal.ignoreCase && !subject.includes(literal.text)) continue;
    if (!set.seen(id)) visit(set.group(id));
  }
}

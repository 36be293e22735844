// Compiling prohibitions into matchers for the commit guard. Every matcher carries the literal
// text it cannot match without; scanning first finds which literals occur (one pass over the
// paths, one over the added lines) and runs only those matchers' expressions.
import { codePointsAsUnits, compileGlob, globToRegex } from '../match/glob.js';
import { compileRegex, type SafeRegex } from '../match/regex.js';
import type { KnowledgeEntry } from '../types.js';
import { LiteralSet } from './aho-corasick.js';
import { requiredLiteral, type RequiredLiteral } from './literals.js';

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

export interface Matcher {
  id: number;
  rule: RuleVersion;
  kind: 'pattern' | 'glob' | 'content';
  /** The pattern, glob or regex as written in the entry. */
  text: string;
  test(subject: string): { index: number; text: string } | undefined;
  /** The text the test cannot match without (undefined: none, the test always runs). Every matcher has the field: one shape for all. */
  literal: RequiredLiteral | undefined;
}

export interface MatcherSet {
  matchers: Matcher[];
  /** Matchers without a usable literal: always run. */
  always: Matcher[];
  literals: LiteralSet;
  byId: Map<number, Matcher>;
  /** Matchers with the same kind and pattern share one compiled test and run once. */
  groupOf: Map<Matcher, readonly Matcher[]>;
  alwaysGroups: ReadonlyArray<readonly Matcher[]>;
  /** Per group, the call that last visited it: dedupes groups without allocating per call. */
  visited: Map<readonly Matcher[], number>;
  calls: number;
  /** The literal ids found in the current subject (reused: scanning allocates nothing per line). */
  hits: number[];
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

/** A matcher's test, compiled on first use: most matchers never run (their literal is absent). */
function lazy(compile: () => Matcher['test']): Matcher['test'] {
  let test: Matcher['test'] | undefined;
  return (subject) => (test ??= compile())(subject);
}

function finder(source: string): Matcher['test'] {
  return lazy(() => {
    const regex: SafeRegex = compileRegex(source);
    return (subject) => regex.find(subject);
  });
}

/** What compiling may take from an earlier run: each pattern's literal, and the automaton of a set of literals. */
export interface CompileMemory {
  literal(source: string): RequiredLiteral | undefined;
  literalSet(name: 'paths' | 'content', literals: ReadonlyArray<{ id: number; text: string }>): LiteralSet;
}

/** Compiles everything anew. */
const FRESH: CompileMemory = { literal: (source) => patternLiteral(source), literalSet: (_name, literals) => new LiteralSet(literals) };

function matcherSet(name: 'paths' | 'content', matchers: Matcher[], memory: CompileMemory): MatcherSet {
  const byId = new Map(matchers.map((m) => [m.id, m]));
  const literals = memory.literalSet(name, matchers.filter((m) => m.literal !== undefined).map((m) => ({ id: m.id, text: m.literal!.text })));
  // A literal the automaton could not take is no prefilter: its matcher always runs.
  for (const id of literals.skipped) byId.get(id)!.literal = undefined;
  const always = matchers.filter((m) => m.literal === undefined);
  const groups = new Map<string, Matcher[]>();
  for (const m of matchers) {
    const key = `${m.kind}\0${m.text}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [m]);
    else {
      // Share the first matcher's (lazily compiled) test.
      m.test = group[0]!.test;
      group.push(m);
    }
  }
  const groupOf = new Map<Matcher, readonly Matcher[]>();
  for (const group of groups.values()) for (const m of group) groupOf.set(m, group);
  const alwaysGroups = [...new Set(always.map((m) => groupOf.get(m)!))];
  return { matchers, always, literals, byId, groupOf, alwaysGroups, visited: new Map(), calls: 0, hits: [] };
}

/** Compiles the path and content matchers of the given rule versions; `memory` may keep literals and automata between runs. */
export function compileRules(versions: readonly RuleVersion[], memory: CompileMemory = FRESH): { paths: MatcherSet; content: MatcherSet } {
  const paths: Matcher[] = [];
  const content: Matcher[] = [];
  let id = 0;
  for (const rule of versions) {
    for (const pattern of rule.entry.patterns ?? []) {
      paths.push({ id: id++, rule, kind: 'pattern', text: pattern, test: finder(pattern), literal: memory.literal(pattern) });
    }
    for (const glob of rule.entry.globs ?? []) {
      const test = lazy(() => {
        const compiled = compileGlob(glob);
        return (subject: string) => (compiled.test(subject) ? { index: 0, text: subject } : undefined);
      });
      paths.push({ id: id++, rule, kind: 'glob', text: glob, test, literal: memory.literal(`glob:${glob}`) });
    }
    for (const regex of rule.entry.content ?? []) {
      content.push({ id: id++, rule, kind: 'content', text: regex, test: finder(regex), literal: memory.literal(regex) });
    }
  }
  return { paths: matcherSet('paths', paths, memory), content: matcherSet('content', content, memory) };
}

/** The required literal of a pattern, or of a glob given as `glob:<glob>` (through its RE2 translation; a negated glob has none). */
export function patternLiteral(source: string): RequiredLiteral | undefined {
  if (!source.startsWith('glob:')) return requiredLiteral(source);
  const text = source.slice(5);
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
 */
export function forCandidates(set: MatcherSet, subject: string, visit: (matchers: readonly Matcher[]) => void): void {
  const { hits, alwaysGroups } = set;
  if (hits.length !== 0) hits.length = 0;
  set.literals.search(subject, hits);
  // Most subjects contain no literal: this is the whole cost of a line then.
  if (hits.length === 0 && alwaysGroups.length === 0) return;
  const call = ++set.calls;
  for (let i = 0; i < alwaysGroups.length; i++) visit(alwaysGroups[i]!);
  for (let i = 0; i < hits.length; i++) {
    const matcher = set.byId.get(hits[i]!)!;
    const group = set.groupOf.get(matcher)!;
    if (set.visited.get(group) === call) continue;
    // The automaton ignores case; a case-sensitive literal must occur as written.
    if (!matcher.literal!.ignoreCase && !subject.includes(matcher.literal!.text)) continue;
    set.visited.set(group, call);
    visit(group);
  }
}

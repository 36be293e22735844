// Rule tests: a prohibition's `tests` (inputs it must match and must not) run through the matching
// the commit guard and check-plan use — compileRules and scan for paths and added lines, keywordsIn
// for plan texts — never a second implementation. The hook never compiles them.
import { keywordMatches, keywordsIn } from '../knowledge/plan-match.js';
import type { KnowledgeEntry, RuleTestInput } from '../types.js';
import { compileRules } from './rules.js';
import { scan } from './scan.js';

/** The file an added line of a test goes to when the test names none. */
export const DEFAULT_LINE_PATH = 'example.txt';

/** A rule to test: the entry and the file it was read from. */
export interface TestedRule {
  entry: KnowledgeEntry;
  file: string;
}

export interface RuleTestFailure {
  entryId: string;
  file: string;
  /** The test's place in the record: tests.match[2]. */
  field: string;
  /** The same as a JSON pointer: /tests/match/2. */
  pointer: string;
  message: string;
}

export interface RuleTestReport {
  /** Rules that have tests. */
  rules: number;
  tests: number;
  failures: RuleTestFailure[];
}

/** A matcher named by its field and index, with its text when short: `globs[0] (**\/.env)`, `patterns[1]`. */
function named(field: 'patterns' | 'globs' | 'content' | 'keywords', list: readonly string[] | undefined, text: string): string {
  return `${field}[${list?.indexOf(text) ?? -1}]${text.length <= 60 ? ` (${text})` : ''}`;
}

/**
 * What matched an input (`globs[0] (**\/.env)`, `keywords[1] (commit env)`), or undefined: as the
 * hook sees a change holding it, or check-plan a plan. `compiled` is the rule's matchers
 * (compileRules of the rule alone), made once for all of its tests.
 */
function matchOf(rule: TestedRule, compiled: ReturnType<typeof compileRules>, input: RuleTestInput): string | undefined {
  const { entry } = rule;
  if (input.plan !== undefined) {
    const keyword = keywordMatches(entry, keywordsIn(input.plan, entry.keywords))[0]?.keyword;
    return keyword === undefined ? undefined : named('keywords', entry.keywords, keyword);
  }
  const path = input.path ?? DEFAULT_LINE_PATH;
  const added = input.line === undefined ? [] : [{ line: 1, text: input.line }];
  const { findings } = scan([{ files: [{ path, status: 'added', added }] }], compiled);
  const found = findings[0];
  if (found === undefined) return undefined;
  if (found.kind === 'content') return named('content', entry.content, found.matcher);
  return entry.globs?.includes(found.matcher) === true ? named('globs', entry.globs, found.matcher) : named('patterns', entry.patterns, found.matcher);
}

/** An input as people read it in a message. */
export function describeInput(input: RuleTestInput): string {
  if (input.plan !== undefined) return `plan ${JSON.stringify(input.plan)}`;
  if (input.line === undefined) return `path ${JSON.stringify(input.path)}`;
  return `line ${JSON.stringify(input.line)}${input.path === undefined ? '' : ` in ${JSON.stringify(input.path)}`}`;
}

/** Runs every test of every rule; the failures name the rule, the test's field and what happened. */
export function runRuleTests(rules: readonly TestedRule[]): RuleTestReport {
  const report: RuleTestReport = { rules: 0, tests: 0, failures: [] };
  for (const rule of rules) {
    const { tests } = rule.entry;
    if (tests === undefined) continue;
    report.rules++;
    // Compiled once per rule: its automata and regexes serve every test (a scan leaves no state behind).
    const compiled = compileRules([{ entry: rule.entry, origin: 'committed', file: rule.file }]);
    for (const side of ['match', 'noMatch'] as const) {
      for (const [index, input] of (tests[side] ?? []).entries()) {
        report.tests++;
        const matched = matchOf(rule, compiled, input);
        if ((matched !== undefined) === (side === 'match')) continue;
        const field = `tests.${side}[${index}]`;
        const what = side === 'match' ? `must match ${describeInput(input)}, but nothing matched` : `must not match ${describeInput(input)}, but ${matched} matched it`;
        report.failures.push({ entryId: rule.entry.id, file: rule.file, field, pointer: `/tests/${side}/${index}`, message: `${field}: ${what}` });
      }
    }
  }
  return report;
}

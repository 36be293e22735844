// Quality-gate evaluation: measured results against the resolved thresholds, so checks read the
// thresholds from the store instead of hard-coding them. A required gate without a measured value
// fails and says what is missing; coverage given as a percentage is refused, not passed.
import { ValidationError, type Problem } from '../errors.js';
import type { SchemaIssue } from '../schema/validate.js';
import { locateIssues, parseText } from '../store/parse.js';
import type { JsonValue } from '../types.js';
import type { ResolvedGate } from './gates.js';

/** Measured results of a turn: the known figures and any others, which are kept as given. */
export interface GateResults {
  /** Architecture review score, 0-100. */
  arch_review_score?: number;
  /** Coverage as a fraction, 0-1 (0.85 = 85%). */
  coverage?: number;
  tests_passed?: number;
  tests_failed?: number;
  [other: string]: JsonValue | undefined;
}

export type GateName = 'arch_review' | 'coverage' | 'tests';
export type GateStatus = 'passed' | 'failed' | 'not_required';

export interface GateOutcome {
  gate: GateName;
  required: boolean;
  status: GateStatus;
  /** arch_review: the minimum score; coverage: the minimum fraction. */
  threshold?: number;
  /** tests: whether every test must pass. */
  must_pass?: boolean;
  /** arch_review and coverage: the measured figure. */
  measured?: number;
  /** tests: the measured counts. */
  tests?: { passed: number; failed: number };
  /** Result fields a required gate needs and the results lack. */
  missing?: string[];
}

export interface GateEvaluation {
  profile: string;
  task_type: string;
  complexity: number;
  project: string;
  /** True when no required gate failed. */
  passed: boolean;
  gates: GateOutcome[];
  results: GateResults;
}

function issue(pointer: string, message: string): SchemaIssue {
  return { pointer, locatePointer: pointer, atKey: false, message };
}

/** What is wrong with a results value; an empty list when it can be evaluated. */
export function checkGateResults(value: unknown): SchemaIssue[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [issue('', 'the results must be a JSON object like {"coverage": 0.85, "tests_passed": 12, "tests_failed": 0}')];
  const results = value as Record<string, unknown>;
  const issues: SchemaIssue[] = [];
  const number = (field: string, lo: number, hi: number, integer: boolean): void => {
    const v = results[field];
    if (v === undefined) return;
    if (typeof v !== 'number' || (integer && !Number.isInteger(v))) issues.push(issue(`/${field}`, `${field} must be ${integer ? 'a whole number' : 'a number'} (found ${JSON.stringify(v)})`));
    else if (v < lo || v > hi) issues.push(issue(`/${field}`, `${field} must be between ${lo} and ${hi} (found ${v})`));
  };
  const coverage = results.coverage;
  if (typeof coverage === 'number' && coverage > 1 && coverage <= 100) {
    issues.push(issue('/coverage', `coverage must be a fraction from 0 to 1 (found ${coverage}, which looks like a percentage: ${coverage}% is ${+(coverage / 100).toFixed(4)})`));
  } else {
    number('coverage', 0, 1, false);
  }
  number('arch_review_score', 0, 100, false);
  number('tests_passed', 0, Number.MAX_SAFE_INTEGER, true);
  number('tests_failed', 0, Number.MAX_SAFE_INTEGER, true);
  return issues;
}

/**
 * Parses results text (JSON) and checks it; invalid results are a ValidationError located in the text.
 *
 * @example
 * parseGateResults('{"coverage": 0.82, "tests_passed": 40, "tests_failed": 0}', 'results.json'); // → { coverage: 0.82, ... }
 * parseGateResults('{"coverage": 85}', 'results.json'); // throws: coverage must be a fraction from 0 to 1 (... 85% is 0.85)
 */
export function parseGateResults(text: string, file: string): GateResults {
  const parsed = parseText(text, file);
  if (parsed.value === undefined) throw new ValidationError(`could not read the results in ${file}`, parsed.problems);
  const problems: Problem[] = locateIssues(parsed, file, checkGateResults(parsed.value));
  if (problems.length > 0) throw new ValidationError(`the results in ${file} cannot be evaluated`, problems, { hint: 'coverage is a fraction (0.85), arch_review_score 0-100, tests_passed and tests_failed counts' });
  return parsed.value as GateResults;
}

function scoreGate(gate: 'arch_review' | 'coverage', required: boolean, threshold: number | undefined, measured: number | undefined, field: string): GateOutcome {
  if (!required) return { gate, required, status: 'not_required', ...(measured === undefined ? {} : { measured }) };
  const base = { gate, required, ...(threshold === undefined ? {} : { threshold }) };
  if (measured === undefined) return { ...base, status: 'failed', missing: [field] };
  return { ...base, status: measured >= (threshold ?? 0) ? 'passed' : 'failed', measured };
}

function testsGate(required: boolean, mustPass: boolean, results: GateResults): GateOutcome {
  const { tests_passed: passed, tests_failed: failed } = results;
  const measured = passed !== undefined && failed !== undefined ? { tests: { passed, failed } } : {};
  if (!required) return { gate: 'tests', required, status: 'not_required', ...measured };
  const missing = (['tests_passed', 'tests_failed'] as const).filter((f) => results[f] === undefined);
  if (missing.length > 0) return { gate: 'tests', required, must_pass: mustPass, status: 'failed', missing };
  // A gate that requires tests is not met by running none.
  const ok = passed! + failed! > 0 && (!mustPass || failed === 0);
  return { gate: 'tests', required, must_pass: mustPass, status: ok ? 'passed' : 'failed', ...measured };
}

/**
 * Evaluates measured results against a resolved gate profile: one outcome per gate.
 *
 * @example
 * const gate = await resolveGateConfig({ store, taskType: 'feature', complexity: 5 });
 * evaluateGates(gate, { arch_review_score: 72, coverage: 0.78, tests_passed: 40, tests_failed: 0 }).passed; // → false (coverage < 0.8)
 */
export function evaluateGates(gate: ResolvedGate, results: GateResults): GateEvaluation {
  const issues = checkGateResults(results);
  if (issues.length > 0) throw new ValidationError('the results cannot be evaluated', issues.map((i) => ({ severity: 'error', file: '<results>', pointer: i.pointer, message: i.message })));
  const p = gate.profile;
  const gates = [
    scoreGate('arch_review', p.arch_review_required, p.arch_review_threshold, results.arch_review_score, 'arch_review_score'),
    scoreGate('coverage', p.coverage_required, p.coverage_threshold, results.coverage, 'coverage'),
    testsGate(p.tests_required || p.tests_must_pass, p.tests_must_pass, results),
  ];
  return { profile: p.id, task_type: gate.task_type, complexity: gate.complexity, project: gate.project, passed: gates.every((g) => g.status !== 'failed'), gates, results };
}

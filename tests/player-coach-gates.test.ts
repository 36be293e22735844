import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { evaluateGates, parseGateResults, type GateResults } from '../src/entities/gate-check.js';
import { DEFAULT_GATES } from '../src/entities/defaults.js';
import type { ResolvedGate } from '../src/entities/gates.js';
import type { ValidationError } from '../src/errors.js';
import { inProcess } from './helpers/cli.js';
import { ACME_OVERRIDES, seededStore } from './helpers/player-coach.js';

const { lore, loreJson } = inProcess;

const gate = (index: number, complexity: number): ResolvedGate => ({ task_type: DEFAULT_GATES[index]!.task_type, complexity, project: 'demo', profile: DEFAULT_GATES[index]!, origin: { source: 'fallback' }, fields: {} });
const FEATURE_5 = gate(2, 5);
const TESTING = gate(4, 3);
const DOCS = gate(5, 2);

describe('quality-gate evaluation', () => {
  const cases: Array<[string, ResolvedGate, GateResults, boolean, string[]]> = [
    ['all measured and met', FEATURE_5, { arch_review_score: 60, coverage: 0.8, tests_passed: 12, tests_failed: 0 }, true, ['arch_review:passed', 'coverage:passed', 'tests:passed']],
    ['coverage under the threshold', FEATURE_5, { arch_review_score: 90, coverage: 0.79, tests_passed: 12, tests_failed: 0 }, false, ['arch_review:passed', 'coverage:failed', 'tests:passed']],
    ['a failing test where all must pass', FEATURE_5, { arch_review_score: 90, coverage: 0.9, tests_passed: 11, tests_failed: 1 }, false, ['arch_review:passed', 'coverage:passed', 'tests:failed']],
    ['no tests ran', FEATURE_5, { arch_review_score: 90, coverage: 0.9, tests_passed: 0, tests_failed: 0 }, false, ['arch_review:passed', 'coverage:passed', 'tests:failed']],
    ['required values missing', FEATURE_5, { coverage: 0.9 }, false, ['arch_review:failed', 'coverage:passed', 'tests:failed']],
    ['arch review not required for testing', TESTING, { coverage: 0.95, tests_passed: 3, tests_failed: 0 }, true, ['arch_review:not_required', 'coverage:passed', 'tests:passed']],
    ['nothing required for documentation', DOCS, {}, true, ['arch_review:not_required', 'coverage:not_required', 'tests:not_required']],
  ];
  for (const [name, resolved, results, passed, statuses] of cases) {
    it(`evaluates ${name}`, () => {
      const evaluation = evaluateGates(resolved, results);
      assert.deepEqual([evaluation.passed, evaluation.gates.map((g) => `${g.gate}:${g.status}`)], [passed, statuses]);
    });
  }

  it('says which measured values a required gate is missing, and keeps extra figures', () => {
    const evaluation = evaluateGates(FEATURE_5, { coverage: 0.9, tests_passed: 4, lint_errors: 0 });
    assert.deepEqual(evaluation, {
      profile: 'QG-feature-4-6', task_type: 'feature', complexity: 5, project: 'demo', passed: false,
      gates: [
        { gate: 'arch_review', required: true, threshold: 60, status: 'failed', missing: ['arch_review_score'] },
        { gate: 'coverage', required: true, threshold: 0.8, status: 'passed', measured: 0.9 },
        { gate: 'tests', required: true, must_pass: true, status: 'failed', missing: ['tests_failed'] },
      ],
      results: { coverage: 0.9, tests_passed: 4, lint_errors: 0 },
    });
  });

  it('refuses coverage given as a percentage, and other impossible figures, with their place in the text', () => {
    const problems = (text: string): string[] => {
      try {
        parseGateResults(text, 'results.json');
      } catch (error) {
        return (error as ValidationError).problems.map((p) => `${p.line}:${p.column}: ${p.message}`);
      }
      return [];
    };
    assert.deepEqual(problems('{\n  "coverage": 85\n}\n'), ['2:15: coverage must be a fraction from 0 to 1 (found 85, which looks like a percentage: 85% is 0.85)']);
    assert.deepEqual(problems('{"arch_review_score": 101, "tests_failed": 1.5, "coverage": -0.1}'), [
      '1:61: coverage must be between 0 and 1 (found -0.1)',
      '1:23: arch_review_score must be between 0 and 100 (found 101)',
      '1:44: tests_failed must be a whole number (found 1.5)',
    ]);
    assert.deepEqual(problems('[1, 2]'), ['1:1: the results must be a JSON object like {"coverage": 0.85, "tests_passed": 12, "tests_failed": 0}']);
    assert.throws(() => evaluateGates(FEATURE_5, { coverage: 85 }), /the results cannot be evaluated/);
  });
});

describe('lore gates check', () => {
  it('prints one line per gate and exits 1 when a required gate fails', async (t) => {
    const { root } = await seededStore(t);
    writeFileSync(join(root, 'results.json'), '{"arch_review_score": 72, "coverage": 0.78, "tests_passed": 40, "tests_failed": 0}');
    const result = await lore(['gates', 'check', '--task-type', 'feature', '--complexity', '5', '--results', 'results.json'], { cwd: root });
    assert.deepEqual(result, { code: 1, stderr: '', stdout: [
      'arch_review: passed (measured 72 vs threshold 60)',
      'coverage: failed (measured 78% vs threshold 80%)',
      'tests: passed (40 passed, 0 failed; all must pass)',
      'failed: 1 of 3 required gates failed (QG-feature-4-6, feature complexity 5, project demo)',
      '',
    ].join('\n') });
  });

  it('reads the thresholds of the project override, from stdin, and gives the evaluation as JSON', async (t) => {
    const { root } = await seededStore(t, { '.knowledge/overrides/acme.yaml': ACME_OVERRIDES });
    const input = '{"arch_review_score": 72, "coverage": 0.82, "tests_passed": 40, "tests_failed": 0}';
    const demo = await loreJson<{ passed: boolean }>(['gates', 'check', '--task-type', 'feature', '--complexity', '5', '--results', '-'], { cwd: root, input });
    assert.deepEqual([demo.code, demo.json.passed], [0, true]);
    const acme = await loreJson<{ passed: boolean; gates: Array<{ gate: string; status: string; threshold?: number; measured?: number }> }>(['gates', 'check', '--task-type', 'feature', '--complexity', '5', '--project', 'acme', '--results', '-'], { cwd: root, input });
    assert.deepEqual([acme.code, acme.json.passed, acme.json.gates[1]], [1, false, { gate: 'coverage', required: true, threshold: 0.85, status: 'failed', measured: 0.82 }]);
  });

  it('refuses results over the store\'s file limit, from a file, stdin or a pipe given as a path', async (t) => {
    const { root } = await seededStore(t);
    const big = `{"coverage": 0.9, "padding": "${'x'.repeat(2 * 1024 * 1024)}"}`;
    writeFileSync(join(root, 'big.json'), big);
    const args = ['gates', 'check', '--task-type', 'feature', '--complexity', '5', '--results'];
    const limit = 'is over the limit of 1048576 bytes (limits.max_file_bytes in .knowledge/config.yaml)\n';
    assert.deepEqual(await lore([...args, 'big.json'], { cwd: root }), { code: 2, stdout: '', stderr: `error: big.json ${limit}` });
    assert.deepEqual(await lore([...args, '-'], { cwd: root, input: big }), { code: 2, stdout: '', stderr: `error: <stdin> ${limit}` });
    // A named pipe says its size is 0: only counting what is read can refuse it.
    execFileSync('mkfifo', [join(root, 'results.fifo')]);
    const [viaFifo] = await Promise.all([
      lore([...args, 'results.fifo'], { cwd: root }),
      writeFile(join(root, 'results.fifo'), big).catch(() => undefined), // lore stops reading at the limit
    ]);
    assert.deepEqual(viaFifo, { code: 2, stdout: '', stderr: `error: results.fifo ${limit}` });
  });

  it('says what is missing, passes a task type with no required gate, and refuses a percentage', async (t) => {
    const { root } = await seededStore(t);
    const missing = await lore(['gates', 'check', '--task-type', 'testing', '--complexity', '4', '--results', '-'], { cwd: root, input: '{"tests_passed": 3}' });
    assert.deepEqual([missing.code, missing.stdout], [1, 'arch_review: not required\ncoverage: failed (missing coverage in the results)\ntests: failed (missing tests_failed in the results)\nfailed: 2 of 2 required gates failed (QG-testing-1-10, testing complexity 4, project demo)\n']);
    const docs = await lore(['gates', 'check', '--task-type', 'documentation', '--complexity', '4', '--results', '-'], { cwd: root, input: '{}' });
    assert.deepEqual([docs.code, docs.stdout], [0, 'arch_review: not required\ncoverage: not required\ntests: not required\npassed: no gate is required (QG-documentation-1-10, documentation complexity 4, project demo)\n']);
    const percent = await lore(['gates', 'check', '--task-type', 'feature', '--complexity', '5', '--results', '-'], { cwd: root, input: '{"coverage": 85}' });
    assert.deepEqual([percent.code, percent.stdout], [1, '']);
    assert.equal(percent.stderr, [
      'error: the results in <stdin> cannot be evaluated',
      '<stdin>:1:14: error: coverage must be a fraction from 0 to 1 (found 85, which looks like a percentage: 85% is 0.85)',
      '  > 1 | {"coverage": 85}',
      '      |              ^^',
      'hint: coverage is a fraction (0.85), arch_review_score 0-100, tests_passed and tests_failed counts',
      '',
    ].join('\n'));
  });
});

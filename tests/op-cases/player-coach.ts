import { DEFAULT_MODES } from '../../src/entities/defaults.js';
import { renderRecord } from '../../src/store/write.js';
import type { OpCases } from '../helpers/op-cases.js';
import { ACME_OVERRIDES, ndjson, turn } from '../helpers/player-coach.js';

const CONFIG = 'version: 1\nproject: shop\n';
const LOG = '.knowledge/turns/shop/FEAT-1.ndjson';
const REVISED = [turn('FEAT-1', 'TASK-1', 1, 1, { coach_reason: 'tests fail' }), turn('FEAT-1', 'TASK-1', 2, 2), turn('FEAT-1', 'TASK-1', 3, 3, { quality_gate_results: { passed: false } })];
const completion = (feature: string, minute: number): object => ({ id: `COMPLETE-${feature}`, feature_id: feature, completed: true, timestamp: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString() });
/** Three revise verdicts in a row, a completion record, and a torn line readers skip. */
const COMPLETED_LOG = { [LOG]: `${ndjson([...REVISED, completion('FEAT-1', 4)])}{"id": "TURN-FEAT-1-TASK-1-T9", cut off\n` };
const ACME = { '.knowledge/overrides/acme.yaml': ACME_OVERRIDES };
/** Modes that leave complexity 6 uncovered. */
const GAPPED_MODES = Object.fromEntries(DEFAULT_MODES.map((m) => [`.knowledge/modes/${m.mode}.yaml`, renderRecord('mode', { ...m, complexity_range: { direct: [1, 2], task_work: [3, 4], autobuild: [8, 10] }[m.mode] })]));
const LIMITS = { '.knowledge/config.yaml': `${CONFIG}turns:\n  max_per_feature: 2\n  max_per_project: 5\n` };
const TASK = ['--task-type', 'feature', '--complexity', '5'];
const RESULTS = '{"arch_review_score": 72, "coverage": 0.82, "tests_passed": 40, "tests_failed": 0, "lint_errors": 0}';
const RECORD = ['turn', 'record', '--feature', 'FEAT-2', '--task', 'TASK-1', '--turn', '1', '--player-decision', 'write the parser', '--coach-decision', 'revise', '--progress', 'parser written'];
const TURN_JSON = JSON.stringify({ feature_id: 'FEAT-2', task_id: 'TASK-1', turn_number: 2, player_decision: 'p', coach_decision: 'approve', progress_summary: 's', acceptance_criteria_status: { parse: 'verified' }, quality_gate_results: { passed: true } });

export const PLAYER_COACH_CASES: OpCases = {
  'roles show': [{ args: ['roles', 'show', 'coach'] }, { args: ['roles', 'show', 'coach', '--project', 'acme'], files: ACME }],
  'gates show': [{ args: ['gates', 'show', ...TASK] }, { args: ['gates', 'show', ...TASK, '--project', 'acme'], files: ACME }],
  'gates list': [{ args: ['gates', 'list'] }, { args: ['gates', 'list', '--project', 'acme'], files: ACME }],
  'mode list': [{ args: ['mode', 'list'] }, { args: ['mode', 'list'], files: GAPPED_MODES }],
  'turn features': [{ args: ['turn', 'features'] }, { args: ['turn', 'features'], files: COMPLETED_LOG }],
  'gates check': [
    { args: ['gates', 'check', ...TASK, '--results', '-'], stdin: RESULTS },
    { args: ['gates', 'check', '--task-type', 'testing', '--complexity', '4', '--results', '-'], stdin: '{"tests_passed": 3}', code: 1 },
  ],
  'mode suggest': [{ args: ['mode', 'suggest', '--task-type', 'feature', '--complexity', '7'] }, { args: ['mode', 'suggest', '--task-type', 'feature', '--complexity', '6'], files: GAPPED_MODES }],
  'prompt coach': [
    { args: ['prompt', 'coach', ...TASK, '--feature', 'FEAT-1', '--task', 'TASK-1', '--turn', '1'] },
    { args: ['prompt', 'coach', ...TASK, '--feature', 'FEAT-1', '--task', 'TASK-1', '--turn', '4', '--max-turns', '3', '--project', 'acme'], files: { ...ACME, '.knowledge/turns/acme/FEAT-1.ndjson': ndjson(REVISED) } },
  ],
  'turn record': [
    { args: [...RECORD, '--blocker', 'no fixtures', '--ac', 'parse=pending'] },
    { args: ['turn', 'record', '--from-file', '-', '--project', 'acme'], stdin: TURN_JSON },
    { args: [...RECORD, '--coach-reason', 'the parser drops comments'], files: { '.knowledge/config.yaml': `${CONFIG}capture:\n  on_turn_record: true\n` } },
  ],
  'turn latest': [
    { args: ['turn', 'latest', '--feature', 'FEAT-1'] },
    { args: ['turn', 'latest', '--feature', 'FEAT-1'], files: COMPLETED_LOG },
    { args: ['turn', 'latest', '--feature', 'FEAT-1', '--ref', 'HEAD'], git: true, files: { '.knowledge/config.yaml': CONFIG, [LOG]: ndjson(REVISED) } },
  ],
  'turn list': [{ args: ['turn', 'list', '--feature', 'FEAT-1'] }, { args: ['turn', 'list', '--feature', 'FEAT-1'], files: COMPLETED_LOG }],
  'turn complete': [
    { args: ['turn', 'complete', '--feature', 'FEAT-1'], files: { ...LIMITS, [LOG]: ndjson(REVISED) } },
    { args: ['turn', 'complete', '--feature', 'FEAT-1'], files: { [LOG]: ndjson([...REVISED, completion('FEAT-1', 4)]) } },
  ],
  'turn prune': [
    { args: ['turn', 'prune', '--dry-run'], files: { ...LIMITS, [LOG]: ndjson([...REVISED, completion('FEAT-1', 4)]) } },
    { args: ['turn', 'prune'], files: { ...LIMITS, ...COMPLETED_LOG }, code: 1 },
  ],
};

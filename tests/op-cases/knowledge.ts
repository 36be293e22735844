import type { OpCases } from '../helpers/op-cases.js';
import { entry, entryFiles } from '../helpers/knowledge.js';
import { ndjson, turn } from '../helpers/player-coach.js';

const OLD = '2020-01-01T00:00:00.000Z';
const ENTRIES = entryFiles([
  entry({ id: 'pro-env', priority: 'critical', title: 'Never commit env files', description: 'Environment files hold secrets.', globs: ['**/.env'], keywords: ['env'] }),
  entry({ id: 'pro-console', priority: 'high', title: 'No console logging', description: 'Use the logger.', keywords: ['console'] }),
  entry({ id: 'rec-strict', title: 'Use strict mode', description: 'Enable strict in tsconfig.json for the config loader.', keywords: ['typescript', 'config'], examples: [{ scenario: 'A new package', goodApproach: 'strict: true' }] }),
  entry({ id: 'learn-retry', title: 'Retry with backoff', description: 'Fixed delays synchronise clients loading config.', keywords: ['retry', 'config'], priority: 'high' }),
  entry({ id: 'learn-retry-2', title: 'Retry with backoff', description: 'Fixed delays synchronise clients loading config again.', keywords: ['retry'], priority: 'low', createdAt: OLD }),
  [entry({ id: 'learn-pending', title: 'Cache the index', description: 'Rebuilding it is slow.', capture: { taskId: 'T-1', projectId: 'shop', outcome: 'success', description: 'It was slow.' } }), 'pending'],
]);
const USAGE = { '.knowledge/log/applications.ndjson': '{"id":"a1","entryId":"rec-strict","taskId":"T1","helpful":true,"timestamp":"2026-02-01T00:00:00.000Z"}\n' };
const FILES = { ...ENTRIES, ...USAGE };
const TASK_PLAN = (path: string, approach = 'Read the env file and retry on failure.'): string => JSON.stringify({ task: { description: 'Load the config', type: 'feature' }, plan: { approach, fileChanges: [{ path }, { path: 'src/config.ts', change: 'modify' }], technologies: ['typescript'] } });
const CAPTURE = JSON.stringify({ taskId: 'T-9', outcome: 'failure', description: 'Retries hammered the API.', suggestedTitle: 'Back off on 429', suggestedDescription: 'Use exponential backoff with jitter when an API answers 429.', suggestedKeywords: ['retry'] });
const TURNS = { '.knowledge/turns/shop/FEAT-1.ndjson': ndjson([turn('FEAT-1', 'TASK-1', 1, 1, { coach_reason: 'the parser drops comments', blockers_found: ['no fixtures'] }), turn('FEAT-1', 'TASK-1', 2, 2, { coach_decision: 'approve' })]) };
const REVIEW = JSON.stringify([{ path: 'src/parse.ts', line: 3, user: { login: 'grace' }, body: 'Keep comments when parsing the config file.', html_url: 'https://github.com/acme/shop/pull/7#discussion_r1' }, { user: { login: 'ada' }, body: 'LGTM', state: 'APPROVED', html_url: 'https://github.com/acme/shop/pull/7#pullrequestreview-2' }]);
const EXPORT = JSON.stringify([{ id: 'rec-imported', type: 'recommendation', title: 'Imported', description: 'From elsewhere.', scope: 'global', keywords: [], priority: 'medium', source: 'import', createdAt: OLD, updatedAt: OLD, createdBy: 'someone', enabled: true, timesApplied: 2, timesHelpful: 1, lastApplied: OLD }]);
const PRUNE = { ...FILES, '.knowledge/config.yaml': 'version: 1\nproject: shop\nretention:\n  prune_low_priority: true\n' };

export const KNOWLEDGE_CASES: OpCases = {
  add: [
    { args: ['add', 'prohibition', '--title', 'Never commit keys', '--description', 'Keys are secrets.', '--glob', '**/*.pem', '--priority', 'critical'], git: true, files: { '.knowledge/config.yaml': 'version: 1\n' } },
    { args: ['add', 'learnings', '--from-file', '-'], stdin: '{"title": "Pin versions", "description": "Lock files make builds repeatable.", "examples": [{"scenario": "CI", "goodApproach": "npm ci"}]}' },
  ],
  edit: [{ args: ['edit', 'rec-strict', '--set', 'priority=high', '--set', 'keywords=[typescript, tsconfig]', '--set', 'details='], files: FILES }, { args: ['edit', 'learn-pending', '--set', 'priority=medium'], files: FILES }],
  enable: [{ args: ['enable', 'rec-strict'], files: FILES }],
  disable: [{ args: ['disable', 'rec-strict'], files: FILES }],
  rm: [{ args: ['rm', 'learn-pending'], files: FILES }],
  query: [
    { args: ['query', 'load the config with typescript', '--file', 'config/.env', '--tech', 'typescript'], files: FILES },
    { args: ['query', 'retry', '--type', 'learnings', '--max', '1', '--min-priority', 'high', '--budget', '20'], files: FILES },
  ],
  'check-plan': [
    { args: ['check-plan'], files: FILES, stdin: TASK_PLAN('config/.env'), code: 1 },
    { args: ['check-plan', '--budget', '50'], files: FILES, stdin: TASK_PLAN('README.md', 'Retry on failure; no console output.') },
    { args: ['check-plan'], files: { ...FILES, '.knowledge/config.yaml': 'version: 1\npre_task_check:\n  enabled: false\n' }, stdin: TASK_PLAN('config/.env') },
  ],
  'prompt agent': [{ args: ['prompt', 'agent'], files: FILES, stdin: TASK_PLAN('config/.env') }],
  capture: [
    { args: ['capture', '--from-file', '-'], files: FILES, stdin: CAPTURE },
    { args: ['capture', '--task-id', 'T-9', '--outcome', 'success', '--description', 'It worked.', '--title', 'Retry with backoff', '--suggested-description', 'Fixed delays synchronise clients loading config.'], files: FILES, code: 1 },
    { args: ['capture', '--from-file', '-', '--threshold', '0.5'], files: { ...FILES, '.knowledge/config.yaml': 'version: 1\nproject: shop\ncapture:\n  auto_capture_failure: false\n' }, stdin: CAPTURE },
    { args: ['capture', '--from-turn', 'TURN-FEAT-1-TASK-1-T1'], files: { ...FILES, ...TURNS }, op: 'learning.capture_turn' },
    { args: ['capture', '--from-turn', 'TURN-FEAT-1-TASK-1-T2', '--project', 'shop'], files: { ...FILES, ...TURNS }, op: 'learning.capture_turn' },
    { args: ['capture', '--from-review', '-'], files: FILES, stdin: REVIEW, op: 'learning.capture_review' },
    { args: ['capture', '--from-review', '-', '--task-id', 'PR-7', '--allow-duplicate'], files: FILES, stdin: '- Retry with backoff\n- Keep comments when parsing the config file\n', op: 'learning.capture_review' },
  ],
  pending: [{ args: ['pending'], files: FILES }, { args: ['pending', '--similar', '0.1'], files: FILES }],
  approve: [{ args: ['approve', 'learn-pending', '--set', 'priority=high'], files: FILES, git: true }],
  reject: [{ args: ['reject', 'learn-pending', '--reason', 'covered by rec-strict'], files: FILES }],
  duplicates: [{ args: ['duplicates'], files: FILES }, { args: ['duplicates', '--threshold', '0.3', '--type', 'recommendation'], files: FILES }],
  applied: [{ args: ['applied', 'rec-strict', '--task', 'T2', '--not-helpful'], files: FILES }],
  export: [
    { args: ['export', '--priority', 'medium', '--priority', 'high'], files: FILES },
    { args: ['export', '--to', 'agents-md', '--to', 'cursor'], files: FILES, op: 'agent.export' },
    { args: ['export', '--to', 'copilot', '--check'], files: FILES, op: 'agent.export', code: 1 },
  ],
  import: [{ args: ['import', '-'], files: FILES, stdin: EXPORT }, { args: ['import', '-', '--dry-run', '--on-conflict', 'rename'], files: FILES, stdin: EXPORT }],
  prune: [{ args: ['prune'], files: PRUNE }, { args: ['prune', '--yes'], files: PRUNE }, { args: ['prune'], files: FILES }],
};

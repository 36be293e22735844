// The operations that write many files at once, as kill -9 cases: each says what "none" and "all"
// look like in the store afterwards.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CrashCase } from './crash.js';
import { entry, entryFiles } from './knowledge.js';

const CONFIG = { '.knowledge/config.yaml': 'version: 1\nproject: shop\n' };

/** Record files (not dot files) in a folder of the store; 0 when it does not exist. */
function count(root: string, dir: string): number {
  const path = join(root, '.knowledge', dir);
  return existsSync(path) ? readdirSync(path).filter((n) => !n.startsWith('.')).length : 0;
}

/** Distinct ids in a log of the store. */
function logIds(root: string, log: string): number {
  const path = join(root, '.knowledge', log);
  if (!existsSync(path)) return 0;
  return new Set(readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id)).size;
}

function allOrNone(n: number, all: number, what: string): string {
  return n === 0 ? 'none' : n === all ? 'all' : `${n} of ${all} ${what}`;
}

const ENTITIES = 100;

export const GRAPH_APPLY: CrashCase = {
  name: `lore graph apply (${ENTITIES} entities)`,
  files: {
    ...CONFIG,
    'update.json': JSON.stringify({ entities: Array.from({ length: ENTITIES }, (_, i) => ({ name: `service-${i}`, type: 'service', description: `Service number ${i}.`, tags: ['crash'] })) }),
  },
  args: ['graph', 'apply', 'update.json'],
  outcome: (root) => allOrNone(count(root, 'graph/entities'), ENTITIES, 'entity files'),
};

export const IMPORT: CrashCase = {
  name: `lore import (${ENTITIES} entries with usage statistics)`,
  files: {
    ...CONFIG,
    'knowledge.json': JSON.stringify(Array.from({ length: ENTITIES }, (_, i) => ({ ...entry({ id: `rec-imported-${i}`, type: 'recommendation' }), timesApplied: 2, timesHelpful: 1 }))),
  },
  args: ['import', 'knowledge.json'],
  outcome: (root) => {
    const entries = count(root, 'knowledge/recommendations');
    const events = logIds(root, 'log/applications.ndjson');
    if (entries === 0 && events === 0) return 'none';
    if (entries === ENTITIES && events === 2 * ENTITIES) return 'all';
    return `${entries} of ${ENTITIES} entries and ${events} of ${2 * ENTITIES} usage events`;
  },
};

export const SEED: CrashCase = {
  name: 'lore seed (11 default records)',
  files: CONFIG,
  args: ['seed'],
  outcome: (root) => allOrNone(count(root, 'roles') + count(root, 'gates') + count(root, 'modes'), 11, 'default records'),
};

export const APPROVE: CrashCase = {
  name: 'lore approve (a pending learning becomes a learning)',
  files: { ...CONFIG, ...entryFiles([[entry({ id: 'learn-retry', type: 'learning' }), 'pending']]) },
  args: ['approve', 'learn-retry'],
  outcome: (root) => {
    const pending = count(root, 'knowledge/pending');
    const learning = count(root, 'knowledge/learnings');
    return pending === 1 && learning === 0 ? 'none' : pending === 0 && learning === 1 ? 'all' : `${pending} pending and ${learning} learning files`;
  },
};

export const REJECT: CrashCase = {
  name: 'lore reject (the rejection is logged, the pending learning goes)',
  files: { ...CONFIG, ...entryFiles([[entry({ id: 'learn-retry', type: 'learning' }), 'pending']]) },
  args: ['reject', 'learn-retry', '--reason', 'covered elsewhere'],
  outcome: (root) => {
    const pending = count(root, 'knowledge/pending');
    const logged = logIds(root, 'log/rejections.ndjson');
    return pending === 1 && logged === 0 ? 'none' : pending === 0 && logged === 1 ? 'all' : `${pending} pending files and ${logged} rejections`;
  },
};

const OLD = 40;

export const PRUNE: CrashCase = {
  name: `lore prune (${OLD} old low-priority entries)`,
  files: { ...CONFIG, ...entryFiles(Array.from({ length: OLD }, (_, i) => entry({ id: `rec-old-${i}`, type: 'recommendation', priority: 'low', createdAt: '2020-01-01T00:00:00.000Z', updatedAt: '2020-01-01T00:00:00.000Z' }))) },
  args: ['prune', '--yes'],
  outcome: (root) => allOrNone(OLD - count(root, 'knowledge/recommendations'), OLD, 'entries pruned'),
};

export const TURN_RECORD_CAPTURE: CrashCase = {
  name: 'lore turn record with capture.on_turn_record (the turn and its learning)',
  files: { '.knowledge/config.yaml': 'version: 1\nproject: shop\ncapture:\n  on_turn_record: true\n' },
  args: ['turn', 'record', '--feature', 'FEAT-1', '--task', 'TASK-1', '--turn', '1', '--player-decision', 'write the parser', '--coach-decision', 'revise', '--coach-reason', 'the parser drops comments', '--progress', 'parser written'],
  outcome: (root) => {
    const turns = logIds(root, 'turns/shop/FEAT-1.ndjson');
    const pending = count(root, 'knowledge/pending');
    return turns === 0 && pending === 0 ? 'none' : turns === 1 && pending === 1 ? 'all' : `${turns} turns and ${pending} pending learnings`;
  },
};

const POINTS = 40;

export const CAPTURE_REVIEW: CrashCase = {
  name: `lore capture --from-review (${POINTS} review points)`,
  files: { ...CONFIG, 'review.md': Array.from({ length: POINTS }, (_, i) => `- Point ${i}: keep the retry budget of client ${i} per request`).join('\n') },
  args: ['capture', '--from-review', 'review.md', '--task-id', 'PR-7', '--allow-duplicate'],
  outcome: (root) => allOrNone(count(root, 'knowledge/pending'), POINTS, 'pending learnings'),
};

export const CRASH_CASES: readonly CrashCase[] = [GRAPH_APPLY, IMPORT, SEED, APPROVE, REJECT, PRUNE, TURN_RECORD_CAPTURE, CAPTURE_REVIEW];

// Fixtures for the player/coach tests: seeded stores, override files and turn-log lines.
import type { TestContext } from 'node:test';
import { seedDefaults } from '../../src/entities/seed.js';
import { openStore, type Store } from '../../src/store/open.js';
import type { TurnState } from '../../src/types.js';
import { tempStore } from './temp.js';

/** A config.yaml for project "demo", with optional extra lines (e.g. turn limits). */
export function config(extra = ''): string {
  return `version: 1\nproject: demo\n${extra}`;
}

/** The override file of the spec's example, for project acme. */
export const ACME_OVERRIDES = [
  'role_constraints:',
  '  coach:',
  '    must_do_additions:',
  '      - Verify OPG registration compliance',
  '      - Check Moneyhub API contract alignment',
  '      - Run quality gates',
  '    escalate_when_additions:',
  '      - Financial data handling inconsistency detected',
  'quality_gate_configs:',
  '  feature:',
  '    overrides:',
  '      - complexity_range: [4, 6]',
  '        coverage_threshold: 0.85',
  '',
].join('\n');

/** A temp store (project demo) holding `files`, seeded unless `seed` is false; opened. */
export async function seededStore(t: TestContext, files: Record<string, string> = {}, seed = true): Promise<{ root: string; store: Store }> {
  const root = tempStore(t, { '.knowledge/config.yaml': config(), ...files });
  if (seed) await seedDefaults(root);
  return { root, store: await openStore({ cwd: root }) };
}

/** A turn with fixed defaults; `minute` orders timestamps deterministically. */
export function turn(feature: string, task: string, n: number, minute: number, extra: Partial<TurnState> = {}): TurnState {
  return {
    id: `TURN-${feature}-${task}-T${n}`,
    feature_id: feature,
    task_id: task,
    turn_number: n,
    player_decision: `player step ${n}`,
    coach_decision: 'revise',
    blockers_found: [],
    progress_summary: `progress ${n}`,
    acceptance_criteria_status: {},
    mode: 'CONTINUING_WORK',
    quality_gate_results: null,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
    ...extra,
  };
}

/** NDJSON text of records. */
export function ndjson(records: readonly object[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

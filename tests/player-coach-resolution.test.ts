import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { LoreError } from '../src/errors.js';
import { DEFAULT_GATES, DEFAULT_MODES, DEFAULT_ROLES } from '../src/entities/defaults.js';
import { resolveGateConfig } from '../src/entities/gates.js';
import { suggestMode } from '../src/entities/modes.js';
import { resolveRoleConstraints } from '../src/entities/roles.js';
import { seedDefaults } from '../src/entities/seed.js';
import type { Fallbacks } from '../src/entities/sources.js';
import { ACME_OVERRIDES, seededStore } from './helpers/player-coach.js';

const NO_FALLBACKS: Fallbacks = { roles: [], gates: [], modes: [] };

/** The error a promise rejects with, as a plain object of what the CLI shows. */
async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string; hint: string | undefined; problems: string[] }> {
  try {
    await promise;
  } catch (error) {
    const e = error as LoreError;
    return { code: e.code, message: e.message, hint: e.hint, problems: e.problems.map((p) => `${p.file}:${p.line ?? ''}:${p.column ?? ''}: ${p.message}`) };
  }
  throw new Error('expected the promise to reject');
}

describe('role constraints resolution', () => {
  it('returns the seeded defaults from the store when the project has no override file', async (t) => {
    const { store } = await seededStore(t);
    const coach = await resolveRoleConstraints({ store, role: 'coach' });
    assert.deepEqual(coach.constraints, DEFAULT_ROLES[1]);
    assert.deepEqual([coach.project, coach.origin, coach.overrideFile], ['demo', { source: 'store', file: '.knowledge/roles/coach.yaml' }, undefined]);
    assert.deepEqual(coach.items.escalate_when.map((i) => i.source), ['store', 'store', 'store']);
  });

  it('extends (never replaces) the lists with the project additions, skipping items already present', async (t) => {
    const { store } = await seededStore(t, { '.knowledge/overrides/acme.yaml': ACME_OVERRIDES });
    const coach = await resolveRoleConstraints({ store, role: 'coach', project: 'acme' });
    assert.deepEqual(coach.constraints.must_do, ['Validate against acceptance criteria', 'Run quality gates', 'Provide actionable feedback', 'Track AC status', 'Verify OPG registration compliance', 'Check Moneyhub API contract alignment']);
    assert.deepEqual(coach.constraints.escalate_when, ['Test failures persist after 3 attempts', 'Architecture violations detected', 'AC cannot be met as written', 'Financial data handling inconsistency detected']);
    assert.deepEqual(coach.constraints.must_not_do, DEFAULT_ROLES[1]!.must_not_do);
    assert.deepEqual(coach.items.must_do.map((i) => `${i.source}:${i.file}`), [
      ...Array(4).fill('store:.knowledge/roles/coach.yaml'),
      'override:.knowledge/overrides/acme.yaml', 'override:.knowledge/overrides/acme.yaml',
    ]);
    assert.equal(coach.overrideFile, '.knowledge/overrides/acme.yaml');
    // The override binds acme only; the player has no additions there.
    assert.deepEqual((await resolveRoleConstraints({ store, role: 'coach', project: 'other' })).constraints, DEFAULT_ROLES[1]);
    assert.deepEqual((await resolveRoleConstraints({ store, role: 'player', project: 'acme' })).constraints, DEFAULT_ROLES[0]);
  });

  it('falls back to the built-in constraints when the store has no role records', async (t) => {
    const { store } = await seededStore(t, {}, false);
    const player = await resolveRoleConstraints({ store, role: 'player' });
    assert.deepEqual([player.constraints, player.origin], [DEFAULT_ROLES[0], { source: 'fallback' }]);
  });

  it('refuses an unknown role, names the roles, and says when no constraints exist at all', async (t) => {
    const { store } = await seededStore(t, {}, false);
    assert.deepEqual(await failure(resolveRoleConstraints({ store, role: 'coahc' })), { code: 'USAGE', message: 'unknown role "coahc": the roles are coach, player', hint: 'did you mean coach?', problems: [] });
    assert.deepEqual(await failure(resolveRoleConstraints({ store, role: 'coach', fallbacks: NO_FALLBACKS })), {
      code: 'NOT_FOUND', message: 'no constraints for role coach: the store has no ROLE-coach and there is no built-in fallback', hint: 'run "lore seed" to write the defaults', problems: [],
    });
  });

  it('reports a malformed override file with its file, line and field instead of ignoring it', async (t) => {
    const { store } = await seededStore(t, { '.knowledge/overrides/acme.yaml': 'role_constraints:\n  coach:\n    must_do_addition:\n      - Verify\n' });
    const error = await failure(resolveRoleConstraints({ store, role: 'coach', project: 'acme' }));
    assert.deepEqual([error.code, error.message, error.problems], ['INVALID_RECORD', 'could not use .knowledge/overrides/acme.yaml: it is invalid', [
      '.knowledge/overrides/acme.yaml:3:5: unknown field "must_do_addition" in role_constraints.coach (did you mean "must_do_additions"?)',
    ]]);
    const yaml = await seededStore(t, { '.knowledge/overrides/acme.yaml': 'quality_gate_configs:\n  feature: [\n' });
    const syntax = await failure(resolveGateConfig({ store: yaml.store, taskType: 'feature', complexity: 5, project: 'acme' }));
    assert.equal(syntax.code, 'INVALID_RECORD');
    assert.match(syntax.problems[0]!, /^\.knowledge\/overrides\/acme\.yaml:3:1: YAML syntax: /);
  });
});

describe('quality-gate resolution', () => {
  const cases: Array<[string, number, string, [boolean, number | undefined, boolean, number | undefined, boolean, boolean]]> = [
    ['feature', 1, 'QG-feature-1-3', [true, 50, true, 0.7, true, true]],
    ['feature', 3, 'QG-feature-1-3', [true, 50, true, 0.7, true, true]],
    ['feature', 4, 'QG-feature-4-6', [true, 60, true, 0.8, true, true]],
    ['feature', 5, 'QG-feature-4-6', [true, 60, true, 0.8, true, true]],
    ['feature', 6, 'QG-feature-4-6', [true, 60, true, 0.8, true, true]],
    ['feature', 7, 'QG-feature-7-10', [true, 70, true, 0.85, true, true]],
    ['feature', 10, 'QG-feature-7-10', [true, 70, true, 0.85, true, true]],
    ['scaffolding', 5, 'QG-scaffolding-1-10', [false, undefined, false, undefined, false, false]],
    ['testing', 9, 'QG-testing-1-10', [false, undefined, true, 0.9, true, true]],
    ['documentation', 1, 'QG-documentation-1-10', [false, undefined, false, undefined, false, false]],
  ];

  it('picks the profile whose complexity range holds the complexity, from the store and from the fallbacks alike', async (t) => {
    const seeded = await seededStore(t);
    const bare = await seededStore(t, {}, false);
    for (const [taskType, complexity, id, fields] of cases) {
      const fromStore = await resolveGateConfig({ store: seeded.store, taskType, complexity });
      const fromFallback = await resolveGateConfig({ store: bare.store, taskType, complexity });
      const p = fromStore.profile;
      assert.deepEqual([p.id, [p.arch_review_required, p.arch_review_threshold, p.coverage_required, p.coverage_threshold, p.tests_required, p.tests_must_pass]], [id, fields], `${taskType} ${complexity}`);
      assert.deepEqual(fromFallback.profile, p, `${taskType} ${complexity}: the fallback equals the seeded profile`);
      assert.deepEqual([fromStore.origin.source, fromFallback.origin], ['store', { source: 'fallback' }]);
    }
  });

  it('keeps the built-in table equal to the seeded files byte for byte in value', async (t) => {
    const { root } = await seededStore(t);
    const seededAgain = await seedDefaults(root);
    assert.deepEqual(seededAgain.map((s) => s.status), Array(11).fill('kept'));
    assert.equal(DEFAULT_GATES.length, 6);
    assert.match(readFileSync(join(root, '.knowledge/gates/feature-4-6.yaml'), 'utf8'), /coverage_threshold: 0\.8\n/);
  });

  it('replaces only the fields an override names, on the profile with the same range', async (t) => {
    const { store } = await seededStore(t, { '.knowledge/overrides/acme.yaml': ACME_OVERRIDES });
    const five = await resolveGateConfig({ store, taskType: 'feature', complexity: 5, project: 'acme' });
    assert.deepEqual(five.profile, { ...DEFAULT_GATES[2], coverage_threshold: 0.85 });
    assert.deepEqual(five.fields, { arch_review_required: 'store', arch_review_threshold: 'store', coverage_required: 'store', coverage_threshold: 'override', tests_required: 'store', tests_must_pass: 'store' });
    assert.deepEqual((await resolveGateConfig({ store, taskType: 'feature', complexity: 7, project: 'acme' })).profile, DEFAULT_GATES[3]);
    assert.deepEqual((await resolveGateConfig({ store, taskType: 'feature', complexity: 5, project: 'demo' })).profile, DEFAULT_GATES[2]);
  });

  it('uses a store profile that replaced a built-in range, without the overlapping built-in one', async (t) => {
    const { store } = await seededStore(t, {}, false);
    const { writeRecord } = await import('../src/store/write.js');
    await writeRecord(store.root, 'gate', { ...DEFAULT_GATES[2], id: 'QG-feature-4-10', complexity_range: [4, 10], coverage_threshold: 0.75 });
    const nine = await resolveGateConfig({ store, taskType: 'feature', complexity: 9 });
    assert.deepEqual([nine.profile.id, nine.profile.coverage_threshold, nine.origin.source], ['QG-feature-4-10', 0.75, 'store']);
    assert.equal((await resolveGateConfig({ store, taskType: 'feature', complexity: 2 })).origin.source, 'fallback');
  });

  it('refuses unknown task types, bugfix (no profile) and complexities outside 1-10, naming what exists', async (t) => {
    const { store } = await seededStore(t);
    const known = 'task types and ranges: documentation 1-10; feature 1-3, 4-6, 7-10; scaffolding 1-10; testing 1-10';
    const table: Array<[string, number, { code: string; message: string; hint: string | undefined }]> = [
      ['feature', 0, { code: 'USAGE', message: 'complexity 0 is outside 1-10: complexity is a whole number from 1 to 10', hint: known }],
      ['feature', 11, { code: 'USAGE', message: 'complexity 11 is outside 1-10: complexity is a whole number from 1 to 10', hint: known }],
      ['featrue', 5, { code: 'USAGE', message: 'unknown task type "featrue": the task types are scaffolding, feature, testing, documentation, bugfix', hint: `did you mean feature? ${known}` }],
      ['bugfix', 5, {
        code: 'NOT_FOUND',
        message: 'task type bugfix has no quality-gate profile: none is seeded and the store has none, and lore does not guess thresholds',
        hint: `add .knowledge/gates/bugfix-1-10.yaml (id QG-bugfix-1-10) with the thresholds you want, or use another task type; ${known}`,
      }],
    ];
    for (const [taskType, complexity, expected] of table) {
      assert.deepEqual(await failure(resolveGateConfig({ store, taskType, complexity })), { ...expected, problems: [] }, `${taskType} ${complexity}`);
    }
  });

  it('refuses an override that switches a gate on without its threshold', async (t) => {
    const { store } = await seededStore(t, { '.knowledge/overrides/acme.yaml': 'quality_gate_configs:\n  documentation:\n    overrides:\n      - complexity_range: [1, 10]\n        coverage_required: true\n' });
    const error = await failure(resolveGateConfig({ store, taskType: 'documentation', complexity: 2, project: 'acme' }));
    assert.deepEqual([error.code, error.message, error.problems], ['INVALID_RECORD', '.knowledge/overrides/acme.yaml makes QG-documentation-1-10 invalid for project acme', ['.knowledge/overrides/acme.yaml::: coverage_threshold is required but missing']]);
  });
});

describe('implementation mode suggestion', () => {
  const expected: Array<[number, string, string]> = [
    [1, 'direct', 'minimal'], [2, 'direct', 'minimal'], [3, 'direct', 'minimal'], [4, 'task_work', 'standard'], [5, 'task_work', 'standard'],
    [6, 'task_work', 'standard'], [7, 'autobuild', 'full'], [8, 'autobuild', 'full'], [10, 'autobuild', 'full'],
  ];

  it('picks the nearest range midpoint among the modes that cover the complexity, ties to less ceremony', async (t) => {
    const seeded = await seededStore(t);
    const bare = await seededStore(t, {}, false);
    for (const [complexity, mode, ceremony] of expected) {
      const fromStore = await suggestMode({ store: seeded.store, taskType: 'feature', complexity });
      const fromFallback = await suggestMode({ store: bare.store, taskType: 'feature', complexity });
      assert.deepEqual([fromStore?.mode, fromStore?.ceremony_level, fromStore?.origin.source], [mode, ceremony, 'store'], String(complexity));
      assert.deepEqual({ ...fromFallback, origin: undefined }, { ...fromStore, origin: undefined }, String(complexity));
    }
  });

  it('gives the mode, its ceremony, the first two when_to_use items and the first pitfall', async (t) => {
    const { store } = await seededStore(t);
    assert.deepEqual(await suggestMode({ store, taskType: 'feature', complexity: 2 }), {
      mode: 'direct', ceremony_level: 'minimal', complexity_range: [1, 3], when_to_use: ['Simple file ops', 'Config changes'], pitfall: "Don't use for complex implementations",
      origin: { source: 'store', file: '.knowledge/modes/direct.yaml' }, candidates: ['direct'],
    });
    const seven = await suggestMode({ store, taskType: 'feature', complexity: 7 });
    assert.deepEqual([seven?.mode, seven?.when_to_use, seven?.pitfall, seven?.candidates], ['autobuild', DEFAULT_MODES[2]!.when_to_use, 'Requires feature-plan output', ['autobuild', 'task_work']]);
  });

  it('suggests nothing, without an error, when no mode exists', async (t) => {
    const { store } = await seededStore(t, {}, false);
    assert.equal(await suggestMode({ store, taskType: 'feature', complexity: 5, fallbacks: NO_FALLBACKS }), undefined);
    assert.deepEqual(await failure(suggestMode({ store, taskType: 'feature', complexity: 0 })), { code: 'USAGE', message: 'complexity 0 is outside 1-10: complexity is a whole number from 1 to 10', hint: 'modes: direct 1-3, task_work 3-7, autobuild 5-10', problems: [] });
  });
});

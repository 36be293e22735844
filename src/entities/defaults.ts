// The system defaults of the player/coach spec, exactly its tables. `lore seed` writes them to
// the store and the resolvers fall back to them, so both always agree.
import type { GateProfile, ImplementationMode, RoleConstraints } from '../types.js';

export const DEFAULT_ROLES: readonly RoleConstraints[] = [
  {
    id: 'ROLE-player',
    role: 'player',
    must_do: ['Implement code', 'Follow implementation plans', 'Write tests', 'Report blockers with evidence'],
    must_not_do: ['Validate quality gates', 'Make architectural decisions without ADR', 'Modify quality profiles', 'Ask for human guidance mid-feature'],
    ask_before: ['Changing architecture from plan', 'Modifying external deps', 'Skipping acceptance criteria'],
    escalate_when: [],
  },
  {
    id: 'ROLE-coach',
    role: 'coach',
    must_do: ['Validate against acceptance criteria', 'Run quality gates', 'Provide actionable feedback', 'Track AC status'],
    must_not_do: ['Write implementation code', 'Modify implementation directly', 'Make implementation decisions', 'Change AC mid-task'],
    ask_before: [],
    escalate_when: ['Test failures persist after 3 attempts', 'Architecture violations detected', 'AC cannot be met as written'],
  },
];

const none = { arch_review_required: false, coverage_required: false, tests_required: false, tests_must_pass: false } as const;

export const DEFAULT_GATES: readonly GateProfile[] = [
  { id: 'QG-scaffolding-1-10', task_type: 'scaffolding', complexity_range: [1, 10], ...none },
  { id: 'QG-feature-1-3', task_type: 'feature', complexity_range: [1, 3], arch_review_required: true, arch_review_threshold: 50, coverage_required: true, coverage_threshold: 0.7, tests_required: true, tests_must_pass: true },
  { id: 'QG-feature-4-6', task_type: 'feature', complexity_range: [4, 6], arch_review_required: true, arch_review_threshold: 60, coverage_required: true, coverage_threshold: 0.8, tests_required: true, tests_must_pass: true },
  { id: 'QG-feature-7-10', task_type: 'feature', complexity_range: [7, 10], arch_review_required: true, arch_review_threshold: 70, coverage_required: true, coverage_threshold: 0.85, tests_required: true, tests_must_pass: true },
  { id: 'QG-testing-1-10', task_type: 'testing', complexity_range: [1, 10], arch_review_required: false, coverage_required: true, coverage_threshold: 0.9, tests_required: true, tests_must_pass: true },
  { id: 'QG-documentation-1-10', task_type: 'documentation', complexity_range: [1, 10], ...none },
];

export const DEFAULT_MODES: readonly ImplementationMode[] = [
  {
    id: 'MODE-direct',
    mode: 'direct',
    invocation_method: 'inline',
    result_location_pattern: 'Files edited in place in the working tree',
    state_recovery_strategy: 'git_check_first',
    when_to_use: ['Simple file ops', 'Config changes', 'Doc updates'],
    pitfalls: ["Don't use for complex implementations", 'Check git status first'],
    complexity_range: [1, 3],
    ceremony_level: 'minimal',
  },
  {
    id: 'MODE-task_work',
    mode: 'task_work',
    invocation_method: 'sdk_query',
    result_location_pattern: 'The feature worktree named by its FEAT-XXX id (not TASK-XXX)',
    state_recovery_strategy: 'resume_from_checkpoint',
    when_to_use: ['Feature work needing quality gates', 'Multi-file changes'],
    pitfalls: [
      'MUST use SDK query(), NOT subprocess (ADR-FB-001)',
      'Paths use FEAT-XXX worktree ID, not TASK-XXX (ADR-FB-002)',
      'Implementation plan MUST exist before execution (ADR-FB-003)',
    ],
    complexity_range: [3, 7],
    ceremony_level: 'standard',
  },
  {
    id: 'MODE-autobuild',
    mode: 'autobuild',
    invocation_method: 'orchestrated',
    result_location_pattern: 'The feature worktree, written by the orchestrated player-coach loop',
    state_recovery_strategy: 'resume_from_checkpoint',
    when_to_use: ['Multi-task features', 'Work needing player-coach adversarial cooperation'],
    pitfalls: ['Requires feature-plan output', "Don't mix with manual edits during execution"],
    complexity_range: [5, 10],
    ceremony_level: 'full',
  },
];

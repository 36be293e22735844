// The coach's prompt, in the spec's injected format: role constraints, the quality gates of the
// task, and from turn 2 on the context of the previous turn. Values come from the resolvers, so
// the prompt always shows what the store (with overrides and fallbacks) says.
import { LoreError, UsageError } from '../errors.js';
import { resolveGateConfig, type ResolvedGate } from '../entities/gates.js';
import { itemText, resolveRoleConstraints, type ResolvedRole } from '../entities/roles.js';
import { projectOf, type RuntimeOptions } from '../entities/sources.js';
import { assertValidId } from '../store/ids.js';
import { escalationFor, latestTurn, readTurnLog, type Escalation } from '../turns/turn-log.js';
import type { GateProfile, RoleConstraints, TurnState } from '../types.js';

export interface CoachPromptOptions extends RuntimeOptions {
  taskType: string;
  complexity: number;
  feature: string;
  task: string;
  /** The turn this prompt is for, from 1. */
  turn: number;
  /** The turn budget M in "Turn N of M" (default: config.yaml's turns.max_turns). */
  maxTurns?: number | undefined;
}

export interface CoachPrompt {
  project: string;
  task_type: string;
  complexity: number;
  feature: string;
  task: string;
  turn: number;
  max_turns: number;
  /** Null when neither the store nor the fallbacks hold the coach's constraints (the section is left out). */
  role: ResolvedRole | null;
  gates: ResolvedGate;
  /** The turn the previous-turn section shows: the latest recorded turn before this one. */
  previous: TurnState | null;
  escalation: Escalation | null;
  text: string;
}

const joined = (items: readonly string[]): string => (items.length === 0 ? 'None' : items.join(' | '));
const percent = (fraction: number | undefined): string => `${+((fraction ?? 0) * 100).toFixed(2)}%`;

/** The "## Your Role: Coach" section. */
export function formatRoleSection(c: RoleConstraints): string {
  const lines = ['## Your Role: Coach', `You MUST: ${joined(c.must_do)}`, `You MUST NOT: ${joined(c.must_not_do.map(itemText))}`];
  // Not in the spec's format, which has no coach ask_before items; shown only when an override adds some.
  if (c.ask_before.length > 0) lines.push(`ASK BEFORE: ${joined(c.ask_before)}`);
  lines.push(`ESCALATE when: ${joined(c.escalate_when)}`);
  return lines.join('\n');
}

/** The "## Quality Gates for This Task" section. */
export function formatGateSection(p: GateProfile, complexity: number): string {
  const tests = p.tests_required || p.tests_must_pass ? (p.tests_must_pass ? 'required, must pass' : 'required') : 'not required';
  return [
    '## Quality Gates for This Task',
    `Task type: ${p.task_type} | Complexity: ${complexity}`,
    `Architecture review: ${p.arch_review_required ? `required (threshold: ${p.arch_review_threshold})` : 'not required'}`,
    `Coverage: ${p.coverage_required ? `required (threshold: ${percent(p.coverage_threshold)})` : 'not required'}`,
    `Tests: ${tests}`,
    'DO NOT adjust these thresholds during this session.',
  ].join('\n');
}

/** The "## Previous Turn Context (Turn N of M)" section; N is the turn the prompt is for ("Turn N, past the M planned" beyond M). */
export function formatPreviousTurn(previous: TurnState, turn: number, maxTurns: number, escalation: Escalation | null): string {
  const ac = Object.entries(previous.acceptance_criteria_status);
  const decision = previous.coach_decision.toUpperCase();
  const lines = [
    // "Turn 56 of 3" would say nothing true: past the planned turns the heading says so.
    `## Previous Turn Context (${turn <= maxTurns ? `Turn ${turn} of ${maxTurns}` : `Turn ${turn}, past the ${maxTurns} planned`})`,
    previous.progress_summary,
    `AC status: ${ac.length === 0 ? 'None' : `{${ac.map(([id, status]) => `${id}: ${status}`).join(', ')}}`}`,
    `Blockers: ${joined(previous.blockers_found)}`,
    `Coach decision: ${previous.coach_reason === undefined || previous.coach_reason === '' ? decision : `${decision} — ${previous.coach_reason}`}`,
  ];
  if (escalation !== null) {
    lines.push(`Escalation: ${escalation.task} has had ${escalation.streak} consecutive REVISE verdicts. Your ESCALATE when rule applies: escalate instead of revising again.`);
  }
  return lines.join('\n');
}

function checkTurnOptions(options: CoachPromptOptions, maxTurns: number): void {
  assertValidId(options.feature, 'feature');
  assertValidId(options.task, 'task');
  if (!Number.isInteger(options.turn) || options.turn < 1) throw new UsageError(`turn ${options.turn} is not a turn number: turns count from 1`);
  if (!Number.isInteger(maxTurns) || maxTurns < 1) throw new UsageError(`max turns ${maxTurns} is not a turn budget: it must be a whole number from 1`);
}

/** The coach's constraints, or null when neither the store nor the fallbacks have them. */
async function coachRole(options: CoachPromptOptions): Promise<ResolvedRole | null> {
  try {
    return await resolveRoleConstraints({ ...options, role: 'coach' });
  } catch (error) {
    if (error instanceof LoreError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
}

/**
 * Builds the coach's prompt for a turn of a task.
 *
 * @example
 * const prompt = await buildCoachPrompt({ store, taskType: 'feature', complexity: 5, feature: 'FEAT-001', task: 'TASK-003', turn: 2 });
 * prompt.text.startsWith('## Your Role: Coach\nYou MUST: Validate against acceptance criteria'); // → true
 */
export async function buildCoachPrompt(options: CoachPromptOptions): Promise<CoachPrompt> {
  const maxTurns = options.maxTurns ?? options.store.config.turns.max_turns;
  checkTurnOptions(options, maxTurns);
  const project = projectOf(options.store, options.project);
  const gates = await resolveGateConfig({ ...options, project });
  const role = await coachRole({ ...options, project });
  let previous: TurnState | null = null;
  let escalation: Escalation | null = null;
  if (options.turn > 1) {
    const earlier = (await readTurnLog({ store: options.store, project, feature: options.feature })).turns.filter((t) => t.turn_number < options.turn);
    previous = latestTurn(earlier) ?? null;
    escalation = escalationFor(earlier, options.task);
  }
  const sections = [
    ...(role === null ? [] : [formatRoleSection(role.constraints)]),
    formatGateSection(gates.profile, options.complexity),
    ...(previous === null ? [] : [formatPreviousTurn(previous, options.turn, maxTurns, escalation)]),
  ];
  return { project, task_type: gates.task_type, complexity: options.complexity, feature: options.feature, task: options.task, turn: options.turn, max_turns: maxTurns, role, gates, previous, escalation, text: sections.join('\n\n') };
}

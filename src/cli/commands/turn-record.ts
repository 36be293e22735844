import { UsageError, ValidationError } from '../../errors.js';
import type { Store } from '../../store/open.js';
import { parseText } from '../../store/parse.js';
import type { TurnRecordOutput } from '../../ops/player-coach/turn-record.js';
import { checkTurn, parseTurn } from '../../turns/record.js';
import type { TurnState } from '../../types.js';
import { defineOpCommand, type CommandContext } from '../command.js';
import { printPrune, PROJECT_OPTION, projectInput } from './_player-coach.js';
import { readInputText, storeInputLimit } from '../_input.js';

const NAME = 'turn record';
const FLAGS = ['feature', 'task', 'turn', 'player-decision', 'coach-decision', 'progress'] as const;
const OPTIONAL = ['coach-reason', 'blocker', 'ac', 'mode', 'gate-results'] as const;

/** `--ac login=verified` → { login: 'verified' }. */
function acceptance(values: readonly string[]): Record<string, string> {
  const status: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf('=');
    if (at <= 0) throw new UsageError(`--ac must be id=status (found "${value}")`, 'e.g. --ac login=verified --ac logout=pending; statuses: verified, pending, rejected, blocked');
    status[value.slice(0, at)] = value.slice(at + 1);
  }
  return status;
}

async function gateResults(ctx: CommandContext, store: Store, path: string): Promise<unknown> {
  const input = await readInputText(ctx, path, storeInputLimit(store));
  const parsed = parseText(input.text, input.file);
  if (parsed.value === undefined) throw new ValidationError(`could not read the gate results in ${input.file}`, parsed.problems);
  return parsed.value;
}

const FLAG_OF: Record<string, string> = {
  feature_id: '--feature', task_id: '--task', turn_number: '--turn', player_decision: '--player-decision', coach_decision: '--coach-decision',
  coach_reason: '--coach-reason', blockers_found: '--blocker', progress_summary: '--progress', acceptance_criteria_status: '--ac', mode: '--mode', quality_gate_results: '--gate-results',
};

/** A turn from flags; what is wrong is said in terms of the flags ("--coach-decision must be one of ..."). */
async function turnFromFlags(ctx: CommandContext, store: Store, now: Date): Promise<TurnState> {
  const { turn, issues } = checkTurn(await fromFlags(ctx, store), now);
  if (issues.length === 0) return turn;
  const messages = issues.map((i) => i.message.replace(/^([a-z_]+)(\.|\[)?/, (all, field: string, sep?: string) => (FLAG_OF[field] === undefined ? all : `${FLAG_OF[field]}${sep === '.' ? ' ' : (sep ?? '')}`)));
  throw new UsageError(`the turn is invalid: ${messages.join('; ')}`, `see lore ${NAME} --help`);
}

/** The turn input from flags; every required flag must be there. */
async function fromFlags(ctx: CommandContext, store: Store): Promise<Record<string, unknown>> {
  const missing = FLAGS.filter((f) => ctx.options[f] === undefined);
  if (missing.length > 0) throw new UsageError(`lore ${NAME} needs ${missing.map((f) => `--${f}`).join(', ')} (or --from-file FILE)`, `see lore ${NAME} --help`);
  const results = ctx.string('gate-results');
  return {
    feature_id: ctx.string('feature'),
    task_id: ctx.string('task'),
    turn_number: ctx.number('turn'),
    player_decision: ctx.string('player-decision'),
    coach_decision: ctx.string('coach-decision'),
    ...(ctx.string('coach-reason') === undefined ? {} : { coach_reason: ctx.string('coach-reason') }),
    blockers_found: ctx.strings('blocker'),
    progress_summary: ctx.string('progress'),
    acceptance_criteria_status: acceptance(ctx.strings('ac')),
    mode: ctx.string('mode') ?? 'FRESH_START',
    quality_gate_results: results === undefined ? null : await gateResults(ctx, store, results),
  };
}

export const command = defineOpCommand<TurnRecordOutput>({
  name: NAME,
  summary: "record a player/coach turn in its feature's turn log",
  usage: '--feature F --task K --turn N --player-decision TEXT --coach-decision D --progress TEXT [options] | --from-file FILE|-',
  description: [
    'Validates the turn, sets its timestamp and appends it to .knowledge/turns/<project>/<feature>.ndjson',
    'with the id TURN-{feature}-{task}-T{n}; recording the same id again updates that turn. The timestamp',
    'is the time of the write, or 1 ms after an earlier version of the same turn whose time is later (a',
    'clock that ran ahead), so the new version is always the one read back. --from-file reads the turn',
    'as JSON (the TurnState fields; id and timestamp are set by lore). After the write, the retention',
    'limits (turns.max_per_feature, turns.max_per_project) are applied; a log retention refuses to',
    'rewrite (a line it cannot read) is a warning: the turn is recorded all the same.',
    '',
    'With capture.on_turn_record (default false) the turn\'s learning is captured in the same transaction, as',
    'lore capture --from-turn would: a revise or escalate with auto_capture_failure, a task\'s final approval',
    'with auto_capture_success. stderr says what was captured (the pending id) or why nothing was.',
  ].join('\n'),
  options: {
    feature: { type: 'string', value: 'F', description: 'the feature (FEAT-XXX)' },
    task: { type: 'string', value: 'K', description: 'the task (TASK-XXX)' },
    turn: { type: 'integer', min: 1, value: 'N', description: 'the turn number, from 1' },
    'player-decision': { type: 'string', value: 'TEXT', description: 'what the player chose to do' },
    'coach-decision': { type: 'string', value: 'D', description: "the coach's verdict: approve, revise or escalate" },
    'coach-reason': { type: 'string', value: 'TEXT', description: 'why the coach decided so' },
    progress: { type: 'string', value: 'TEXT', description: 'what was achieved' },
    blocker: { type: 'string', multiple: true, value: 'TEXT', description: 'a blocker found (repeatable)' },
    ac: { type: 'string', multiple: true, value: 'ID=STATUS', description: 'acceptance criterion status: verified, pending, rejected, blocked (repeatable)' },
    mode: { type: 'string', value: 'M', description: 'FRESH_START (default), RECOVERING_STATE or CONTINUING_WORK' },
    'gate-results': { type: 'string', value: 'FILE', description: 'quality-gate results (lore gates check --json), or - for stdin' },
    'from-file': { type: 'string', value: 'FILE', description: 'read the whole turn as JSON, or - for stdin' },
    ...PROJECT_OPTION,
  },
  positionals: [0, 0],
  examples: [
    'lore turn record --feature FEAT-001 --task TASK-003 --turn 1 --player-decision "add auth middleware" --coach-decision revise --coach-reason "missing session timeout handling" --progress "Player implemented authentication middleware." --ac login=verified --ac logout=pending',
    'lore turn record --from-file turn.json --json',
  ],
  op: 'turn.record',
  async input(ctx) {
    const store = await ctx.openStore();
    const now = new Date();
    let turn: TurnState;
    const fromFile = ctx.string('from-file');
    if (fromFile !== undefined) {
      const extra = [...FLAGS, ...OPTIONAL].filter((f) => ctx.options[f] !== undefined && !(Array.isArray(ctx.options[f]) && (ctx.options[f] as unknown[]).length === 0));
      if (extra.length > 0) throw new UsageError(`--from-file gives the whole turn, so ${extra.map((f) => `--${f}`).join(', ')} cannot be used with it`, `see lore ${NAME} --help`);
      const input = await readInputText(ctx, fromFile, storeInputLimit(store));
      // Checked here, so that what is wrong is shown at its line and column in the file.
      turn = parseTurn(input.text, input.file, now);
    } else {
      turn = await turnFromFlags(ctx, store, now);
    }
    // lore sets the id and the timestamp.
    const { id: _id, timestamp: _timestamp, ...fields } = turn;
    return { turn: fields, ...projectInput(ctx) };
  },
  print(result, ctx) {
    ctx.print(`recorded ${result.turn.id} in ${result.file} (${result.status === 'created' ? 'new turn' : 'updated'})`);
    // What capture.on_turn_record did, on stderr: stdout stays the turn's line.
    const { capture } = result;
    if (capture !== null) ctx.note(capture.status === 'not-captured' ? `not captured: ${capture.message}` : capture.message);
    printPrune(ctx, result.prune, false);
  },
});

// What a command module exports, and the context it runs in. Most commands are adapters over an
// operation (src/ops/): flags → the operation's input, its output → text, or with --json the
// output itself. Commands that are not about the store (the git hooks) run on their own.
import type { Store } from '../store/open.js';
import type { Workspace } from '../workspace/workspace.js';
import type { Style } from './format.js';

/**
 * One option, its type declared once: main.ts checks and converts every value before a command
 * sees it (integers and numbers within their bounds, enums among their values, dates as dates).
 */
export interface OptionSpec {
  type: 'string' | 'boolean' | 'integer' | 'number' | 'enum' | 'date';
  multiple?: boolean;
  short?: string;
  /** Placeholder in help: `--task-type T`. */
  value?: string;
  description: string;
  /** integer, number: the smallest and largest value accepted. */
  min?: number;
  max?: number;
  /** enum: the values accepted (a plural of one, `prohibitions`, is read as it). */
  values?: readonly string[];
}

interface CommandBase {
  /** Full name: `init`, `graph add-entity`. */
  name: string;
  summary: string;
  /** The arguments after the name in the usage line: `<id> [options]`. */
  usage: string;
  /** More explanation for `--help`, paragraphs separated by blank lines. */
  description?: string;
  options: Record<string, OptionSpec>;
  /** Positional arguments allowed: [min, max]; max Infinity for any number. */
  positionals: [number, number];
  /** The values a positional argument takes, when they are a fixed list (shell completion offers them). */
  args?: readonly string[];
  examples: string[];
  /**
   * What this command's exit codes mean where it says more than the convention (0 success, 1 a policy
   * said no, 2 usage or operational error): `{ 1: 'a critical finding blocks the commit' }`. Shown in
   * --help and docs/reference/commands.md.
   */
  exits?: Readonly<Record<number, string>>;
  /** Whether `--json` applies (true for every command that prints a result). */
  json?: boolean;
  /** On the hook path: main.ts does not load the width library for it (it loads it for a line that needs it). */
  light?: boolean;
}

/** A command that runs on its own (not an operation on the store). */
export interface RunCommandSpec extends CommandBase {
  run(ctx: CommandContext): Promise<number | void>;
}

/** A command over an operation: with --json it prints the operation's output, exactly. */
export interface OpCommandSpec<O = never> extends CommandBase {
  /** The operation's name (src/ops/registry.ts). */
  op: string;
  /** Another operation for some options (`lore export --to cursor` runs agent.export); its output goes to print and exit too. */
  opFor?(options: OptionValues): string | undefined;
  /** The operation's input, from the flags and arguments (it may read files or stdin). */
  input(ctx: CommandContext): unknown;
  /** Prints the output for people; returns the exit code (default: `exit`, else 0). */
  print(output: O, ctx: CommandContext): number | void | Promise<number | void>;
  /** The exit code of an output, with --json and without (default 0). */
  exit?(output: O): number;
  /**
   * Ask a running daemon (`lore serve`) for the output when there is one: for reads whose input
   * means the same in the daemon (a function says for which inputs).
   */
  daemon?: true | ((input: never) => boolean);
}

export type CommandSpec = RunCommandSpec | OpCommandSpec<never>;

export type OptionValue = string | boolean | number | string[] | number[] | undefined;
export type OptionValues = Record<string, OptionValue>;

/** Where a run of the CLI reads and writes: its directory, environment and streams. */
export interface CliIO {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream;
}

export interface CommandContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  args: string[];
  /** Every option, checked and converted (numbers as numbers, enums singular, dates as ISO text). */
  options: OptionValues;
  json: boolean;
  style: Style;
  /** The width output is fitted to: the terminal's, else $COLUMNS, else 80. */
  columns: number;
  /** Whether stderr is a terminal (a line cut to fit one is cut only there). */
  stderrIsTerminal: boolean;
  /** `--store DIR`, if given. */
  storeDir: string | undefined;
  stdin: NodeJS.ReadableStream;
  /** The store this run works on, opened when first asked for. */
  workspace: Workspace;
  /** Writes a line (or lines) to stdout. */
  print(text: string): void;
  /** Writes a value as JSON to stdout. */
  printJson(value: unknown): void;
  /** Writes a line to stderr (warnings). */
  note(text: string): void;
  /** Reports progress of long work: a line on stderr when it is a terminal (not with --json); print and note clear it. */
  progress(done: number, total: number, what: string): void;
  /** Every command's spec, each module loaded (for lore completion, which the command table loads). */
  commands(): Promise<CommandSpec[]>;
  /** Runs another lore command in this process with its own directory, environment and streams; its exit code (lore serve answers the commit hook with it). */
  runCommand(argv: readonly string[], io: CliIO): Promise<number>;
  /** Opens the store (located from cwd or --store). */
  openStore(options?: { allowInvalidConfig?: boolean }): Promise<Store>;
  /** The value of a string, enum or date option. */
  string(name: string): string | undefined;
  /** The values of a repeatable string or enum option. */
  strings(name: string): string[];
  /** The value of an integer or number option. */
  number(name: string): number | undefined;
  flag(name: string): boolean;
}

/** Declares a command that runs on its own. */
export function defineCommand(spec: RunCommandSpec): RunCommandSpec {
  return spec;
}

/** Declares a command over an operation; `O` is the operation's output. */
export function defineOpCommand<O>(spec: OpCommandSpec<O>): OpCommandSpec<O> {
  return spec;
}

// What a command module exports, and the context it runs in.
import type { Store } from '../store/open.js';
import type { Style } from './format.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** Placeholder in help: `--task-type T`. */
  value?: string;
  description: string;
}

export interface CommandSpec {
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
  examples: string[];
  /** Whether `--json` applies (true for every command that prints a result). */
  json?: boolean;
  run(ctx: CommandContext): Promise<number | void>;
}

export type OptionValues = Record<string, string | boolean | string[] | boolean[] | undefined>;

export interface CommandContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  args: string[];
  options: OptionValues;
  json: boolean;
  style: Style;
  /** Terminal width, or undefined when output is not a terminal (no truncation). */
  columns: number | undefined;
  /** `--store DIR`, if given. */
  storeDir: string | undefined;
  stdin: NodeJS.ReadableStream;
  /** Writes a line (or lines) to stdout. */
  print(text: string): void;
  /** Writes a value as JSON to stdout. */
  printJson(value: unknown): void;
  /** Writes a line to stderr (warnings). */
  note(text: string): void;
  /** Shows a transient progress line on stderr when it is a terminal; undefined clears it. */
  progress(text: string | undefined): void;
  /** Opens the store (located from cwd or --store). */
  openStore(options?: { allowInvalidConfig?: boolean }): Promise<Store>;
  /** The value of a string option. */
  string(name: string): string | undefined;
  /** The values of a repeatable string option. */
  strings(name: string): string[];
  flag(name: string): boolean;
}

/** Declares a command; the identity function gives the literal its type. */
export function defineCommand(spec: CommandSpec): CommandSpec {
  return spec;
}

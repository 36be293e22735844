// Cases for tests/ops-json.test.ts: each command over an operation, run with --json in a store made
// for it, must print exactly what the operation's output schema describes. Each area keeps its
// cases in tests/op-cases/<area>.ts.
export interface OpCase {
  /** What follows `lore` (without --json). */
  args: string[];
  /** The store's files (a config.yaml with project shop is added when none is given). */
  files?: Record<string, string>;
  /** Run in a git repository with the files committed (commands that need git). */
  git?: boolean;
  /** Standard input. */
  stdin?: string;
  /** The exit code expected (default 0). */
  code?: number;
  /** The operation these options run, when not the command's own (the command's opFor). */
  op?: string;
}

/** Cases by command name (`list`, `graph apply`). */
export type OpCases = Record<string, OpCase[]>;

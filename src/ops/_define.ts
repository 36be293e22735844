// What an operation is: a stable name, a one-line summary, an input and an output JSON Schema
// (schemas/ops/<name>.input.schema.json and .output.schema.json) and `run`. The CLI, the MCP
// server and the daemon's HTTP API are adapters over the table of operations; none of them holds
// logic of its own.
import type { Workspace } from '../workspace/workspace.js';

/** What an operation may do besides returning its output. */
export interface OpContext {
  /** The opened store and everything loaded from it. */
  ws: Workspace;
  /** A note for people (a skipped file, a warning); the CLI prints it on stderr. */
  note(text: string): void;
  /** Progress of a long operation; adapters show it when they can. */
  progress(done: number, total: number, what: string): void;
  /**
   * The caller is an HTTP or MCP client, not the person at the terminal: a file or folder its
   * input names must be one of the repository's own (_paths.ts inputPath).
   */
  confined?: boolean;
}

/** One operation. */
export interface Op<I = unknown, O = unknown> {
  name: string;
  run(input: I, ctx: OpContext): Promise<O>;
}

/** Declares an operation; the identity function gives the literal its types. */
export function defineOp<I, O>(op: Op<I, O>): Op<I, O> {
  return op;
}

/** An operation in the table (src/ops/registry.ts): what adapters know without loading it. */
export interface OpEntry {
  /** Stable, dotted: `knowledge.query`. MCP tools are named with `_` for `.` (`knowledge_query`). */
  name: string;
  /** One line, for people and for agents choosing a tool. */
  summary: string;
  /** Changes nothing in the store (MCP's read-only annotation). */
  readOnly: boolean;
  load: () => Promise<{ op: Op<never, unknown> }>;
}

// A failed tool call as MCP says it: a result with isError, carrying lore's message, the file,
// line and field of each problem, and the hint, as text for the model and as JSON for programs.
import { LoreError, systemError, type Problem } from '../errors.js';

function where(problem: Problem): string {
  return [problem.file, problem.line, problem.column].filter((part) => part !== undefined).join(':');
}

/** The tool result of an error (an unexpected one is reported as a bug, with its message). */
export function toolError(thrown: unknown, notes: readonly string[] = []): { isError: true; content: Array<{ type: 'text'; text: string }> } {
  const error = systemError(thrown) ?? thrown;
  const known = error instanceof LoreError;
  const message = known ? error.message : `internal error: ${(error as Error).message ?? String(error)} (a bug in lore: please report it)`;
  const lines = [`error: ${message}`];
  const problems = known ? error.problems : [];
  for (const problem of problems) lines.push(`${where(problem)}: ${problem.severity}: ${problem.pointer === undefined ? '' : `${problem.pointer}: `}${problem.message}`);
  if (known && error.hint !== undefined) lines.push(`hint: ${error.hint}`);
  const json = { error: { code: known ? error.code : 'INTERNAL', message, ...(known && error.hint !== undefined ? { hint: error.hint } : {}), problems: problems.map(({ frame: _frame, ...rest }) => rest) } };
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }, { type: 'text', text: JSON.stringify(json) }, ...notes.map((text) => ({ type: 'text' as const, text }))] };
}

// Strict JSON for graph files and payloads, with line and column on every problem: JSON.parse
// decides what is valid, the YAML parser (a JSON superset with positions) says where things are.
import { ValidationError, type Problem } from '../errors.js';
import { codeFrame, parseText } from '../store/parse.js';

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** Where JSON.parse stopped: from its message when it says, else from the YAML parser's first error. */
function syntaxPosition(text: string, message: string): { line: number; column: number } | undefined {
  const at = /at position (\d+)/.exec(message);
  if (at !== undefined && at !== null) return lineColumn(text, Number(at[1]));
  if (/end of JSON input/.test(message)) return lineColumn(text, text.length);
  const problem = parseText(text, '').problems.find((p) => p.severity === 'error' && p.line !== undefined);
  return problem === undefined ? undefined : { line: problem.line!, column: problem.column! };
}

/** Parses strict JSON; throws ValidationError (exit 1) naming the file, line and column when it is not. */
export function parseJson(text: string, file: string, what = 'JSON'): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!/\S/.test(body)) throw new ValidationError(`${file} is empty: expected ${what}`, [{ severity: 'error', file, line: 1, column: 1, message: `the file is empty: expected ${what}` }]);
  try {
    return JSON.parse(body);
  } catch (error) {
    const message = (error as Error).message.replace(/, "[\s\S]*" is not valid JSON$/, '');
    const at = syntaxPosition(body, message);
    const problem: Problem = { severity: 'error', file, ...(at === undefined ? {} : { ...at, frame: codeFrame(body, at.line, at.column) }), message: `invalid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}` };
    throw new ValidationError(`${file} is not valid JSON`, [problem], { cause: error });
  }
}

/** Adds line, column and a code frame to problems located only by a JSON pointer into `text`. */
export function withPositions(problems: readonly Problem[], text: string): Problem[] {
  if (problems.every((p) => p.pointer === undefined || p.line !== undefined)) return [...problems];
  const parsed = parseText(text.replace(/^\uFEFF/, ''), '', { maxAliases: 0, maxDepth: 1000 });
  return problems.map((p) => {
    if (p.pointer === undefined || p.line !== undefined) return p;
    const at = parsed.locate(p.pointer);
    return at === undefined ? p : { ...p, line: at.line, column: at.column, frame: at.frame };
  });
}

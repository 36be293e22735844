// Strict JSON with positions: every syntax error, repeated key or too-deep nesting is a problem
// that says JSON and names its line and column. A scan checks the text (bounded memory, no
// recursion), JSON.parse builds the value, and JSON pointers are located by scanning again only
// when a problem needs a position: a large valid input is never held twice as a syntax tree.
import { ValidationError, type Problem } from '../errors.js';
import { addPointer, pointerTargets, scanJson, type PointerTarget, type ScanFault } from './json-scan.js';
import { frameAt, lineColumns } from './text-position.js';
import type { Located, LocateRequest, ParsedText, ParseLimits } from './_parsed.js';

/** The message of a nesting deeper than the limit, for JSON and YAML alike. */
export function depthMessage(maxDepth: number): string {
  return `the value is nested more than ${maxDepth} levels deep (the limit, limits.max_depth)`;
}

/** Finds the ranges of JSON pointers in valid JSON text with one scan. */
function locateAll(text: string, requests: readonly LocateRequest[], firstLine: number): Array<Located | undefined> {
  if (requests.length === 0) return [];
  const root = pointerTargets();
  const paths = requests.map((r) => addPointer(root, r.pointer));
  scanJson(text, { maxDepth: Number.POSITIVE_INFINITY, targets: root });
  const ranges = requests.map((request, k): [number, number] | undefined => {
    const path = paths[k]!;
    const last = path[path.length - 1]!;
    if (request.atKey === true && last.keyStart !== undefined) return [last.keyStart, last.keyEnd!];
    // The nearest existing node, as for YAML: the deepest target the scan passed.
    const hit = [...path].reverse().find((t: PointerTarget) => t.start !== undefined && t.end !== undefined);
    return hit === undefined ? undefined : [hit.start!, hit.end!];
  });
  const positions = lineColumns(text, ranges.flatMap((r) => r ?? []));
  return ranges.map((range) => {
    if (range === undefined) return undefined;
    const start = positions.get(range[0])!;
    const end = positions.get(range[1])!;
    const width = end.line === start.line ? end.column - start.column : 1;
    return { line: start.line + firstLine - 1, column: start.column, frame: frameAt(text, start.lineStart, start.line, start.column, width, firstLine) };
  });
}

/** The problem of a scan fault, located in the text. */
function faultProblem(text: string, file: string, fault: ScanFault, firstLine: number): Problem {
  const at = lineColumns(text, [fault.offset]).get(fault.offset)!;
  return {
    severity: 'error',
    file,
    line: at.line + firstLine - 1,
    column: at.column,
    frame: frameAt(text, at.lineStart, at.line, at.column, 1, firstLine),
    message: fault.kind === 'depth' ? fault.message : `JSON syntax: ${fault.message}`,
  };
}

/**
 * Parses strict JSON (RFC 8259, no repeated keys, nesting within limits.maxDepth) with every
 * problem located. `firstLine` numbers the lines of a text cut from a larger file (an NDJSON line).
 */
export function parseJsonText(text: string, file: string, limits: Pick<ParseLimits, 'maxDepth'>, firstLine = 1): ParsedText {
  const locateMany = (requests: readonly LocateRequest[]): Array<Located | undefined> => locateAll(text, requests, firstLine);
  const parsed = (value: unknown, problems: Problem[]): ParsedText => ({ value, problems, locateAll: locateMany, locate: (pointer, atKey = false) => locateMany([{ pointer, atKey }])[0] });
  if (!/\S/.test(text)) return parsed(undefined, [{ severity: 'error', file, line: firstLine, column: 1, message: 'the file is empty: expected JSON' }]);
  const fault = scanJson(text, { maxDepth: limits.maxDepth, duplicates: true });
  if (fault !== undefined) {
    const problem = faultProblem(text, file, fault, firstLine);
    return parsed(undefined, [fault.kind === 'depth' ? { ...problem, message: depthMessage(limits.maxDepth) } : problem]);
  }
  try {
    return parsed(JSON.parse(text), []);
  } catch (error) {
    // The scan accepts exactly what JSON.parse accepts; this is only a safety net.
    return parsed(undefined, [{ severity: 'error', file, line: firstLine, column: 1, message: `JSON syntax: ${(error as Error).message}` }]);
  }
}

/**
 * Parses strict JSON (a BOM is ignored); throws ValidationError (exit 1) naming the file, line and
 * column when it is not. `what` says what was expected of an empty text.
 */
export function parseJson(text: string, file: string, what = 'JSON', limits: Pick<ParseLimits, 'maxDepth'> = { maxDepth: 32 }): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!/\S/.test(body)) throw new ValidationError(`${file} is empty: expected ${what}`, [{ severity: 'error', file, line: 1, column: 1, message: `the file is empty: expected ${what}` }]);
  const parsed = parseJsonText(body, file, limits);
  if (parsed.value === undefined) {
    const syntax = parsed.problems.every((p) => p.message.startsWith('JSON syntax:'));
    throw new ValidationError(syntax ? `${file} is not valid JSON` : `${file} is nested too deeply`, parsed.problems);
  }
  return parsed.value;
}

/** Adds line, column and a code frame to problems located only by a JSON pointer into JSON `text`. */
export function withPositions(problems: readonly Problem[], text: string): Problem[] {
  const wanted = problems.filter((p) => p.pointer !== undefined && p.line === undefined);
  if (wanted.length === 0) return [...problems];
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const found = locateAll(body, wanted.map((p) => ({ pointer: p.pointer! })), 1);
  const at = new Map(wanted.map((p, k) => [p, found[k]]));
  return problems.map((p) => {
    const where = at.get(p);
    return where === undefined ? p : { ...p, line: where.line, column: where.column, frame: where.frame };
  });
}

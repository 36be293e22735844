// Parsing of record text (YAML or JSON) with positions, so that every problem can name its
// line and column. Works on strings only; reading files is read.ts's job.
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node, type Pair } from 'yaml';
import type { Problem } from '../errors.js';
import type { SchemaIssue } from '../schema/validate.js';

export interface ParseLimits {
  maxAliases: number;
  maxDepth: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = { maxAliases: 100, maxDepth: 32 };

export interface Located {
  line: number;
  column: number;
  frame: string;
}

export interface ParsedText {
  /** The parsed value; undefined when the text could not be parsed. */
  value: unknown;
  problems: Problem[];
  /** Finds the line and column of a JSON pointer in the text (the nearest existing node). */
  locate(pointer: string, atKey?: boolean): Located | undefined;
}

/** A few lines of `text` around `line`, with a caret under `column` (1-based), like yaml's prettyErrors. */
export function codeFrame(text: string, line: number, column: number, width = 1): string {
  const lines = text.split(/\r?\n/);
  const first = Math.max(1, line - 1);
  const last = Math.min(lines.length, line);
  const gutter = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const content = (lines[n - 1] ?? '').replace(/\t/g, ' ');
    out.push(`${n === line ? '>' : ' '} ${String(n).padStart(gutter)} | ${content.length > 120 ? `${content.slice(0, 117)}...` : content}`);
  }
  const caretCount = Math.max(1, Math.min(width, 80));
  out.push(`  ${' '.repeat(gutter)} | ${' '.repeat(Math.max(0, column - 1))}${'^'.repeat(caretCount)}`);
  return out.join('\n');
}

/** A line git writes into a file it could not merge: <<<<<<< ours, =======, >>>>>>> theirs. */
const CONFLICT_MARKER = /(?:^|\n)(?:<{7}|>{7})(?: |\r?\n|$)/;

function depthOf(value: unknown, limit: number): number {
  // Iterative, so a hostile nesting cannot overflow the stack while being measured.
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > max) max = depth;
    if (max > limit) return max;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return max;
}

function nodeAt(doc: Document, pointer: string, atKey: boolean): Node | undefined {
  let node: unknown = doc.contents;
  let found: Node | undefined = (doc.contents as Node | null) ?? undefined;
  if (pointer === '') return found;
  const parts = pointer.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const last = i === parts.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p: Pair) => isScalar(p.key) && String(p.key.value) === part);
      if (pair === undefined) return found;
      if (last && atKey) return pair.key as Node;
      node = pair.value ?? pair.key;
    } else if (isSeq(node)) {
      node = node.items[Number(part)];
    } else {
      return found;
    }
    if (node === undefined || node === null || isPair(node)) return found;
    found = node as Node;
  }
  return found;
}

/**
 * Parses YAML or JSON text into a value, with every syntax problem located. Caps the YAML
 * alias count and the nesting depth; an empty file is a problem, not an empty record.
 */
export function parseText(text: string, file: string, limits: ParseLimits = DEFAULT_PARSE_LIMITS): ParsedText {
  const marker = CONFLICT_MARKER.exec(text);
  if (marker !== null) {
    // A half-merged file: say so once, instead of a page of syntax errors about the markers.
    const line = text.slice(0, marker.index).split('\n').length + (marker[0].startsWith('\n') ? 1 : 0);
    const problem: Problem = { severity: 'error', file, line, column: 1, frame: codeFrame(text, line, 1, 7), message: 'the file has unresolved merge-conflict markers: resolve the conflict (keep one version, or combine them) and remove the <<<<<<<, ======= and >>>>>>> lines' };
    return { value: undefined, problems: [problem], locate: () => undefined };
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: true, strict: true });
  const problems: Problem[] = [];
  const locate = (pointer: string, atKey = false): Located | undefined => {
    const node = nodeAt(doc, pointer, atKey);
    const range = node?.range;
    if (range === undefined || range === null) return undefined;
    const { line, col } = lineCounter.linePos(range[0]);
    const end = lineCounter.linePos(range[1]);
    const width = end.line === line ? end.col - col : 1;
    return { line, column: col, frame: codeFrame(text, line, col, width) };
  };
  for (const error of [...doc.errors, ...doc.warnings]) {
    const pos = error.linePos?.[0];
    const message = error.message.replace(/ at line \d+, column \d+:?[\s\S]*$/, '');
    problems.push({
      severity: doc.errors.includes(error as never) ? 'error' : 'warning',
      file,
      ...(pos === undefined ? {} : { line: pos.line, column: pos.col, frame: codeFrame(text, pos.line, pos.col) }),
      message: `YAML syntax: ${message}`,
    });
  }
  if (doc.errors.length > 0) return { value: undefined, problems, locate };
  if (doc.contents === null) {
    problems.push({ severity: 'error', file, line: 1, column: 1, message: 'the file is empty: expected a record (key: value lines)' });
    return { value: undefined, problems, locate };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: limits.maxAliases });
  } catch (error) {
    const message = error instanceof ReferenceError
      ? `too many YAML alias expansions (limit ${limits.maxAliases}): the file looks like an alias bomb`
      : `could not resolve the YAML document: ${(error as Error).message}`;
    problems.push({ severity: 'error', file, line: 1, column: 1, message });
    return { value: undefined, problems, locate };
  }
  if (depthOf(value, limits.maxDepth) > limits.maxDepth) {
    problems.push({ severity: 'error', file, line: 1, column: 1, message: `the record is nested deeper than ${limits.maxDepth} levels` });
    return { value: undefined, problems, locate };
  }
  return { value, problems, locate };
}

/** Turns schema issues into problems located in the text. */
export function locateIssues(parsed: ParsedText, file: string, issues: readonly SchemaIssue[], severity: Problem['severity'] = 'error'): Problem[] {
  return issues.map((issue) => {
    const at = parsed.locate(issue.locatePointer, issue.atKey);
    return {
      severity,
      file,
      ...(at === undefined ? {} : { line: at.line, column: at.column, frame: at.frame }),
      pointer: issue.pointer,
      message: issue.message,
    };
  });
}

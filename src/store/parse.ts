// Parsing of record text (YAML or JSON) with positions, so that every problem can name its
// line and column. Works on strings only; reading files is read.ts's job.
import type { CST, Document, LineCounter, Node, Pair } from 'yaml';
import { yaml } from './_yaml.js';
import type { Problem } from '../errors.js';
import type { SchemaIssue } from '../schema/validate.js';
import { depthMessage, parseJsonText } from './json-text.js';
import type { Located, LocateRequest, ParsedText, ParseLimits } from './_parsed.js';

export type { Located, LocateRequest, ParsedText, ParseLimits };
import { codeFrame } from './text-position.js';
import { readDifferentlyByYaml11, yaml11TypeOf } from './yaml11.js';
import { readPlainYaml, type PlainScalar } from './_plain-yaml.js';

export { codeFrame };


export const DEFAULT_PARSE_LIMITS: ParseLimits = { maxAliases: 100, maxDepth: 32 };

/** The default of ParseLimits.maxYamlChars: 4 MiB of YAML. */
export const MAX_YAML_CHARS = 4 * 1024 * 1024;

/** How a text is read: as YAML, as strict JSON, or as JSON when it starts like JSON (falling back to YAML). */
export type TextFormat = 'yaml' | 'json' | 'auto';

export interface ParseOptions {
  /** Default: from the file name (formatOf). */
  format?: TextFormat;
  /** The number of the text's first line, for a text cut from a larger file (an NDJSON line). */
  firstLine?: number;
}




/** The format a file name says: .json, .ndjson and .jsonl are JSON, .yaml and .yml YAML, anything else (stdin) either. */
export function formatOf(file: string): TextFormat {
  const dot = file.lastIndexOf('.');
  const ext = dot === -1 || file.lastIndexOf('/') > dot ? '' : file.slice(dot).toLowerCase();
  if (ext === '.json' || ext === '.ndjson' || ext === '.jsonl') return 'json';
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  return 'auto';
}

/** Whether a value nests deeper than `limit`, walking iteratively (no stack to overflow). */
export function tooDeep(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The first collection of YAML's syntax tree nested deeper than `limit`. Checked before the tree
 * is composed: composing recurses once per level, and V8 dies outright (not with a RangeError)
 * when a regular expression must be compiled that close to the end of the stack.
 */
function tooDeepToken(tokens: readonly CST.Token[], limit: number): CST.Token | undefined {
  const stack: Array<[CST.Token | null | undefined, number]> = tokens.map((token) => [token, 0]);
  while (stack.length > 0) {
    const [token, depth] = stack.pop()!;
    if (token === null || token === undefined) continue;
    if (token.type === 'document') stack.push([token.value, depth]);
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue;
    if (depth + 1 > limit) return token;
    for (const item of token.items as Array<{ key?: CST.Token | null; value?: CST.Token | null }>) stack.push([item.key, depth + 1], [item.value, depth + 1]);
  }
  return undefined;
}

/** Parses one YAML document as yaml's parseDocument does, refusing nesting past `limit` before composing it. */
function parseYamlDocument(text: string, lineCounter: LineCounter, limit: number): Document | { tooDeepAt: number } {
  const tokens = [...new (yaml().Parser)(lineCounter.addNewLine).parse(text)];
  const deep = tooDeepToken(tokens, limit);
  if (deep !== undefined) return { tooDeepAt: deep.offset };
  let doc: Document | undefined;
  for (const next of new (yaml().Composer)({ uniqueKeys: true, strict: true }).compose(tokens, true, text.length)) {
    if (doc === undefined) {
      doc = next;
    } else {
      doc.errors.push(new (yaml().YAMLParseError)(next.range.slice(0, 2) as [number, number], 'MULTIPLE_DOCS', 'Source contains multiple documents; please use YAML.parseAllDocuments()'));
      break;
    }
  }
  return doc!;
}

/** The first collection node of a YAML document nested deeper than `limit`, if any. */
function tooDeepNode(doc: Document, limit: number): Node | undefined {
  const stack: Array<[unknown, number]> = [[doc.contents, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (!yaml().isMap(node) && !yaml().isSeq(node)) continue;
    if (depth > limit) return node as Node;
    for (const item of node.items as unknown[]) {
      if (yaml().isPair(item)) stack.push([item.value, depth + 1], [item.key, depth + 1]);
      else stack.push([item, depth + 1]);
    }
  }
  return undefined;
}

function nodeAt(doc: Document, pointer: string, atKey: boolean): Node | undefined {
  let node: unknown = doc.contents;
  let found: Node | undefined = (doc.contents as Node | null) ?? undefined;
  if (pointer === '') return found;
  const parts = pointer.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const last = i === parts.length - 1;
    if (yaml().isMap(node)) {
      const pair = node.items.find((p: Pair) => yaml().isScalar(p.key) && String(p.key.value) === part);
      if (pair === undefined) return found;
      if (last && atKey) return pair.key as Node;
      node = pair.value ?? pair.key;
    } else if (yaml().isSeq(node)) {
      node = node.items[Number(part)];
    } else {
      return found;
    }
    if (node === undefined || node === null || yaml().isPair(node)) return found;
    found = node as Node;
  }
  return found;
}

/** A line git writes into a file it could not merge: <<<<<<< ours, =======, >>>>>>> theirs. */
const CONFLICT_MARKER = /(?:^|\n)(?:<{7}|>{7})(?: |\r?\n|$)/;

function unparsed(problems: Problem[]): ParsedText {
  return { value: undefined, problems, locate: () => undefined, locateAll: (requests) => requests.map(() => undefined) };
}

/** Parses YAML text with positions; see parseText. */
function parseYamlText(text: string, file: string, limits: ParseLimits, firstLine: number): ParsedText {
  const maxChars = limits.maxYamlChars ?? MAX_YAML_CHARS;
  if (text.length > maxChars) {
    return unparsed([{ severity: 'error', file, line: firstLine, column: 1, message: `the YAML text is ${text.length} characters, over the limit of ${maxChars} for YAML (its parser needs many times the text in memory); give it as JSON` }]);
  }
  const plain = readPlainYaml(text);
  // Nesting past the limit is the parser's to report, with its place.
  if (plain === undefined || plain.depth > limits.maxDepth) return parseYamlDocumentText(text, file, limits, firstLine);
  let parsed: ParsedText | undefined;
  // Positions are only wanted for problems: then the parser reads the text, and finds what this reading found.
  const full = (): ParsedText => (parsed ??= parseYamlDocumentText(text, file, limits, firstLine));
  const problems = yaml11Problems(text, file, firstLine, () => plain.plain);
  return {
    value: plain.value,
    problems,
    locate: (pointer, atKey) => full().locate(pointer, atKey),
    locateAll: (requests) => (requests.length === 0 ? [] : full().locateAll(requests)),
  };
}

/** Parses YAML text with yaml's parser, positions kept; see parseText. */
function parseYamlDocumentText(text: string, file: string, limits: ParseLimits, firstLine: number): ParsedText {
  const shift = firstLine - 1;
  const lineCounter = new (yaml().LineCounter)();
  const parsed = parseYamlDocument(text, lineCounter, limits.maxDepth);
  /** Nesting past the limit is one problem, whatever else the parser said about it. */
  const tooDeepAt = (offset: number): ParsedText => {
    const { line, col } = lineCounter.linePos(offset);
    return unparsed([{ severity: 'error', file, line: line + shift, column: col, frame: codeFrame(text, line, col, 1, firstLine), message: depthMessage(limits.maxDepth) }]);
  };
  if ('tooDeepAt' in parsed) return tooDeepAt(parsed.tooDeepAt);
  const doc = parsed;
  const problems: Problem[] = [];
  const locate = (pointer: string, atKey = false): Located | undefined => {
    const node = nodeAt(doc, pointer, atKey);
    const range = node?.range;
    if (range === undefined || range === null) return undefined;
    const { line, col } = lineCounter.linePos(range[0]);
    const end = lineCounter.linePos(range[1]);
    const width = end.line === line ? end.col - col : 1;
    return { line: line + shift, column: col, frame: codeFrame(text, line, col, width, firstLine) };
  };
  const result = (value: unknown): ParsedText => ({ value, problems, locate, locateAll: (requests) => requests.map((r) => locate(r.pointer, r.atKey)) });
  for (const error of [...doc.errors, ...doc.warnings]) {
    // The composer catches its own stack overflow on deep nesting and reports it with this code.
    if (error.code === 'RESOURCE_EXHAUSTION') return tooDeepAt(error.pos[0]);
    const pos = lineCounter.linePos(error.pos[0]);
    problems.push({
      severity: doc.errors.includes(error as never) ? 'error' : 'warning',
      file,
      line: pos.line + shift,
      column: pos.col,
      frame: codeFrame(text, pos.line, pos.col, 1, firstLine),
      message: `YAML syntax: ${error.message}`,
    });
  }
  if (doc.errors.length > 0) return result(undefined);
  if (doc.contents === null) {
    problems.push({ severity: 'error', file, line: firstLine, column: 1, message: 'the file is empty: expected a record (key: value lines)' });
    return result(undefined);
  }
  const deep = tooDeepNode(doc, limits.maxDepth);
  if (deep !== undefined) return tooDeepAt(deep.range?.[0] ?? 0);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: limits.maxAliases });
  } catch (error) {
    if (error instanceof RangeError) return tooDeepAt(0);
    const message = error instanceof ReferenceError
      ? `too many YAML alias expansions (limit ${limits.maxAliases}): the file looks like an alias bomb`
      : `could not resolve the YAML document: ${(error as Error).message}`;
    problems.push({ severity: 'error', file, line: firstLine, column: 1, message });
    return result(undefined);
  }
  // Aliases can nest what the document itself does not.
  if (tooDeep(value, limits.maxDepth)) return tooDeepAt(0);
  problems.push(...yaml11Problems(text, file, firstLine, () => plainScalars(doc, text, lineCounter)));
  return result(value);
}

/**
 * Where a plain value YAML 1.1 reads otherwise may start (after `: `, `- `, `[`, `{` or `,`): a sign,
 * digit or dot, or a whole word like yes, Off, e5. No `^` alternative: it would cost V8's fast scan
 * for the first character (4x slower over 10,000 records), and a record's values never start a line.
 */
const YAML11_CANDIDATE = /(?:[:-][ \t]+|[[{,][ \t]*)(?:[-+]?[0-9.]|(?:y|n|yes|no|on|off|e[-+]?\d+)(?=[ \t]*(?:$|[,\]}#])))/im;

/** The plain scalars of a document, keys and values in document order, as readPlainYaml lists them. */
function plainScalars(doc: Document, text: string, lineCounter: LineCounter): PlainScalar[] {
  const scalars: PlainScalar[] = [];
  yaml().visit(doc, {
    Scalar(_key, node) {
      if (node.type !== 'PLAIN' || node.range === undefined || node.range === null) return;
      const { line, col } = lineCounter.linePos(node.range[0]);
      scalars.push({ source: text.slice(node.range[0], node.range[1]), value: node.value, line, column: col });
    },
  });
  return scalars;
}

/** A warning for each plain scalar a YAML 1.1 reader would read as another value (see yaml11.ts), with the quoted form to write. */
function yaml11Problems(text: string, file: string, firstLine: number, scalars: () => PlainScalar[]): Problem[] {
  // Most records hold no candidate at all: no value starting like a number, date or dot, and no
  // word a 1.1 reader takes for a boolean or null. Then the scalars are not listed.
  if (!YAML11_CANDIDATE.test(text)) return [];
  const problems: Problem[] = [];
  for (const { source, value, line, column } of scalars()) {
    if (!readDifferentlyByYaml11(source, value)) continue;
    const quoted = JSON.stringify(typeof value === 'string' ? value : source);
    problems.push({
      severity: 'warning', file, line: line + firstLine - 1, column, frame: codeFrame(text, line, column, source.length, firstLine),
      message: `${source} is ${typeof value === 'string' ? 'a string' : `the ${typeof value} ${String(value)}`} to lore but ${yaml11TypeOf(source)} to YAML 1.1 readers (PyYAML, SnakeYAML): write it quoted, ${quoted}`,
    });
  }
  return problems;
}

/** Whether a text starts like JSON: its first character past blanks (and a BOM) opens an object or array. */
function looksLikeJson(text: string): boolean {
  const first = /[^\s\uFEFF]/.exec(text.length > 4096 ? text.slice(0, 4096) : text)?.[0];
  return first === '{' || first === '[';
}

/**
 * Parses YAML or JSON text into a value, with every syntax problem located. A `.json` file is
 * strict JSON and its errors say JSON; a text of unknown format (stdin) that starts like JSON is
 * read as JSON, and as YAML (a superset) only when that parses instead. Caps YAML aliases, YAML
 * size and the nesting depth; an empty file is a problem, not an empty record.
 */
export function parseText(text: string, file: string, limits: ParseLimits = DEFAULT_PARSE_LIMITS, options: ParseOptions = {}): ParsedText {
  const format = options.format ?? formatOf(file);
  const firstLine = options.firstLine ?? 1;
  const marker = CONFLICT_MARKER.exec(text);
  if (marker !== null) {
    // A half-merged file: say so once, instead of a page of syntax errors about the markers.
    const line = text.slice(0, marker.index).split('\n').length + (marker[0].startsWith('\n') ? 1 : 0);
    return unparsed([{ severity: 'error', file, line: line + firstLine - 1, column: 1, frame: codeFrame(text, line, 1, 7), message: 'the file has unresolved merge-conflict markers: resolve the conflict (keep one version, or combine them) and remove the <<<<<<<, ======= and >>>>>>> lines' }]);
  }
  if (format === 'yaml' || (format === 'auto' && !looksLikeJson(text))) return parseYamlText(text, file, limits, firstLine);
  const json = parseJsonText(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, file, limits, firstLine);
  if (format === 'json' || json.value !== undefined || !json.problems.some((p) => p.message.startsWith('JSON syntax:'))) return json;
  // JSON-looking text that is not JSON may still be YAML ({a: 1}); a large one is not tried, as YAML.
  if (text.length > (limits.maxYamlChars ?? MAX_YAML_CHARS)) return json;
  const yaml = parseYamlText(text, file, limits, firstLine);
  return yaml.value !== undefined ? yaml : json;
}

/** Turns schema issues into problems located in the text. */
export function locateIssues(parsed: ParsedText, file: string, issues: readonly SchemaIssue[], severity: Problem['severity'] = 'error'): Problem[] {
  const found = parsed.locateAll(issues.map((issue) => ({ pointer: issue.locatePointer, atKey: issue.atKey })));
  return issues.map((issue, k) => {
    const at = found[k];
    return {
      severity,
      file,
      ...(at === undefined ? {} : { line: at.line, column: at.column, frame: at.frame }),
      pointer: issue.pointer,
      message: issue.message,
    };
  });
}

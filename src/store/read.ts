// Reading records from `.knowledge/`: every file is size-capped, parsed with positions, validated
// against its schema and the store's rules. Invalid files are reported, never half-used.
import { stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { isErrno, type Problem } from '../errors.js';
import { decodeUtf8, utf8Problem } from '../fs/utf8.js';
import { validateAgainst } from '../schema/validate.js';
import type { LimitsConfig } from '../types.js';
import { DEFAULT_LIMITS } from './config-defaults.js';
import { displayPath, KINDS, knowledgeDir, RECORD_KINDS, type RecordKindName } from './layout.js';
import { readCapped } from '../fs/read-text.js';
import { listRecordFilesOrProblem, readProblem, RECORD_EXTENSIONS, tooLarge } from './record-files.js';
import { locateIssues, MAX_YAML_CHARS, parseText } from './parse.js';
import { checkRecord } from './rules.js';

/** A valid record read from the store. */
export interface StoreRecord<T = unknown> {
  kind: RecordKindName;
  id: string;
  /** Path relative to the store root, with forward slashes. */
  file: string;
  value: T;
}

export interface ReadResult<T = unknown> {
  records: StoreRecord<T>[];
  problems: Problem[];
  /** How many record files were looked at (valid or not). */
  files: number;
}

export interface ReadOptions {
  kinds?: readonly RecordKindName[];
  limits?: LimitsConfig;
  /** Called as files are read (for progress on long reads). */
  onProgress?: (done: number, total: number) => void;
}

/** Validates record text as a record of `kind` stored under the file stem `stem`. */
export function parseRecord<T = unknown>(text: string, kind: RecordKindName, stem: string, file: string, limits: LimitsConfig = DEFAULT_LIMITS): { record?: StoreRecord<T>; problems: Problem[] } {
  // A record is already capped by max_file_bytes; raising that setting raises what YAML may hold too.
  const maxYamlChars = Math.max(MAX_YAML_CHARS, limits.max_file_bytes);
  const parsed = parseText(text.replace(/^\uFEFF/, ''), file, { maxAliases: limits.max_yaml_aliases, maxDepth: limits.max_depth, maxYamlChars });
  if (parsed.value === undefined) return { problems: parsed.problems };
  const spec = KINDS[kind];
  const schemaIssues = validateAgainst(spec.schema, parsed.value);
  const issues = schemaIssues.length > 0 ? schemaIssues : checkRecord(kind, parsed.value, stem);
  const problems = [...parsed.problems, ...locateIssues(parsed, file, issues)];
  if (problems.some((p) => p.severity === 'error')) return { problems };
  const id = spec.idField === undefined ? stem : String((parsed.value as Record<string, unknown>)[spec.idField]);
  return { record: { kind, id, file, value: parsed.value as T }, problems };
}

/** Decodes record bytes strictly (a byte that is not UTF-8 is a problem), then parses and validates them. */
export function parseRecordBytes<T = unknown>(bytes: Uint8Array, kind: RecordKindName, stem: string, file: string, limits: LimitsConfig = DEFAULT_LIMITS): { record?: StoreRecord<T>; problems: Problem[] } {
  const decoded = decodeUtf8(bytes);
  if ('fault' in decoded) return { problems: [utf8Problem(file, decoded.fault)] };
  return parseRecord<T>(decoded.text, kind, stem, file, limits);
}

/** Reads and validates one record file. */
export async function readRecordFile<T = unknown>(root: string, kind: RecordKindName, path: string, limits: LimitsConfig = DEFAULT_LIMITS): Promise<{ record?: StoreRecord<T>; problems: Problem[] }> {
  const file = displayPath(root, path);
  const stem = basename(path, extname(path));
  let content: { bytes: Buffer } | { size: number };
  try {
    content = readCapped(path, limits.max_file_bytes);
  } catch (error) {
    return { problems: [readProblem(file, error)] };
  }
  if ('size' in content) return { problems: [tooLarge(file, content.size, limits)] };
  return parseRecordBytes<T>(content.bytes, kind, stem, file, limits);
}

/** Runs `task` over `items` with at most `limit` at once, keeping the order of results. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Reads every record of the given kinds (all kinds by default). */
export async function readRecords<T = unknown>(root: string, options: ReadOptions = {}): Promise<ReadResult<T>> {
  const kinds = options.kinds ?? RECORD_KINDS;
  const limits = options.limits ?? DEFAULT_LIMITS;
  const listProblems: Problem[] = [];
  const jobs = (await Promise.all(kinds.map(async (kind) => (await listRecordFilesOrProblem(root, kind, listProblems)).map((path) => ({ kind, path }))))).flat();
  let done = 0;
  const results = await mapLimit(jobs, 32, async ({ kind, path }) => {
    const result = await readRecordFile<T>(root, kind, path, limits);
    options.onProgress?.(++done, jobs.length);
    return result;
  });
  const records: StoreRecord<T>[] = [];
  const problems: Problem[] = [...listProblems];
  for (const result of results) {
    if (result.record !== undefined) records.push(result.record);
    problems.push(...result.problems);
  }
  return { records, problems, files: jobs.length };
}

/** Reads one record by kind and id; undefined when no file holds it. */
export async function readRecord<T = unknown>(root: string, kind: RecordKindName, id: string, limits: LimitsConfig = DEFAULT_LIMITS): Promise<{ record?: StoreRecord<T>; problems: Problem[] } | undefined> {
  const stem = KINDS[kind].stem(id);
  for (const ext of RECORD_EXTENSIONS) {
    const path = join(knowledgeDir(root), KINDS[kind].dir, stem + ext);
    try {
      await stat(path);
    } catch (error) {
      if (isErrno(error, 'ENOENT')) continue;
      throw error;
    }
    return readRecordFile<T>(root, kind, path, limits);
  }
  return undefined;
}

// Validation of a whole store: every record file, every log line, the checks across records,
// and files that are not part of the format. Reports every problem, not only the first.
import { lstat, readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { isErrno, type Problem } from '../errors.js';
import { symlinkError } from '../fs/no-follow.js';
import { readCapped } from '../fs/read-text.js';
import { readLog } from '../log/ndjson.js';
import { SCHEMAS_DIR, SCHEMA_NAMES, schemaFileName } from '../schema/schemas.js';
import { checkAcrossRecords } from './check.js';
import { diagnose } from './doctor.js';
import { isTransient } from './leftovers.js';
import { CACHE_DIR, displayPath, EXTENDS_LOCK, KINDS, knowledgeDir, LOGS, RECORD_KINDS, SCHEMA_COPY_DIR, type RecordKindName } from './layout.js';
import type { Store } from './open.js';
import { parseText } from './parse.js';
import { RECORD_EXTENSIONS } from './record-files.js';
import { readRecords, type StoreRecord } from './read.js';
import { logKind } from './log-kinds.js';

export interface LogSummary {
  file: string;
  lines: number;
}

export interface StoreReport {
  root: string;
  /** Record files looked at. */
  files: number;
  /** Valid records, by kind. */
  records: StoreRecord[];
  counts: Record<RecordKindName, number>;
  logs: LogSummary[];
  problems: Problem[];
  errors: number;
  warnings: number;
  valid: boolean;
}

/** The names in a folder, symlinks left out (symlinks() reports them); none when it is missing or a symlink. */
async function listDir(path: string): Promise<string[]> {
  try {
    if ((await lstat(path)).isSymbolicLink()) return [];
    return (await readdir(path, { withFileTypes: true })).filter((e) => !e.isSymbolicLink()).map((e) => e.name).sort();
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return [];
    throw error;
  }
}

/**
 * Every symlink under `.knowledge/` (and `.knowledge` itself), as errors: lore reads and writes
 * none of them. The one exception is the schemas folder, which only editors read.
 */
async function symlinks(root: string): Promise<Problem[]> {
  const problems: Problem[] = [];
  const report = async (path: string): Promise<void> => {
    const error = symlinkError(path);
    problems.push({ severity: 'error', file: displayPath(root, path), message: error.message.replace(/^\S+ is /, 'is ') });
  };
  const dir = knowledgeDir(root);
  try {
    if ((await lstat(dir)).isSymbolicLink()) {
      await report(dir);
      return problems;
    }
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return problems;
    throw error;
  }
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isSymbolicLink()) {
        if (path !== join(dir, SCHEMA_COPY_DIR)) await report(path);
      } else if (entry.isDirectory()) {
        await walk(path);
      }
    }
  };
  await walk(dir);
  return problems;
}

/** The `.ndjson` files of the store's log folders, relative to `.knowledge/`. */
async function listLogs(root: string): Promise<string[]> {
  const dir = knowledgeDir(root);
  const logs: string[] = [];
  for (const project of await listDir(join(dir, LOGS.turnsDir))) {
    for (const name of await listDir(join(dir, LOGS.turnsDir, project))) if (name.endsWith('.ndjson')) logs.push(`${LOGS.turnsDir}/${project}/${name}`);
  }
  for (const name of await listDir(join(dir, 'log'))) if (name.endsWith('.ndjson')) logs.push(`log/${name}`);
  return logs;
}

const KNOWN_TOP_LEVEL = new Set(['config.yaml', 'knowledge', 'roles', 'gates', 'modes', 'overrides', 'graph', 'turns', 'log', 'allow', SCHEMA_COPY_DIR, CACHE_DIR, '.gitattributes', '.gitignore', EXTENDS_LOCK]);

/** Files and folders that lore would silently ignore, most likely typos (prohibition/ for prohibitions/). */
async function unknownFiles(root: string): Promise<Problem[]> {
  const dir = knowledgeDir(root);
  const problems: Problem[] = [];
  const warn = (path: string, message: string): void => {
    problems.push({ severity: 'warning', file: displayPath(root, path), message });
  };
  for (const name of await listDir(dir)) {
    if (!KNOWN_TOP_LEVEL.has(name) && !isTransient(name)) warn(join(dir, name), 'is not part of the .knowledge/ format and is ignored');
  }
  const recordDirs = new Set(RECORD_KINDS.map((kind) => KINDS[kind].dir));
  for (const parent of ['knowledge', 'graph']) {
    for (const name of await listDir(join(dir, parent))) {
      if (!recordDirs.has(`${parent}/${name}`)) warn(join(dir, parent, name), 'is not part of the .knowledge/ format and is ignored');
    }
  }
  for (const kind of RECORD_KINDS) {
    for (const name of await listDir(join(dir, KINDS[kind].dir))) {
      if (!name.startsWith('.') && !(RECORD_EXTENSIONS as readonly string[]).includes(extname(name))) {
        warn(join(dir, KINDS[kind].dir, name), `is ignored: ${KINDS[kind].label} are .yaml files`);
      }
    }
  }
  return problems;
}

/** Whether `.knowledge/schemas/` (the copies editors use) matches the schemas of this lore. */
async function staleSchemaCopies(root: string): Promise<Problem[]> {
  const dir = join(knowledgeDir(root), SCHEMA_COPY_DIR);
  try {
    if ((await lstat(dir)).isSymbolicLink()) return [];
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return [];
    throw error;
  }
  for (const name of SCHEMA_NAMES) {
    // The copy never through a link (a schema file planted as one to /dev/stdin would hang this), nor past 1 MiB.
    const copy = (() => {
      try {
        const read = readCapped(join(dir, schemaFileName(name)), 1024 * 1024);
        return 'bytes' in read ? read.bytes.toString('utf8') : '';
      } catch {
        return '';
      }
    })();
    const current = await readFile(SCHEMAS_DIR + schemaFileName(name), 'utf8');
    if (copy !== current) {
      return [{ severity: 'warning', file: displayPath(root, dir), message: 'the schema copies editors use are out of date; run "lore init" to refresh them' }];
    }
  }
  return [];
}

/** What crashes left behind, and a .gitignore that would commit it: warnings, `lore doctor --fix` deals with them. */
async function crashLeftovers(root: string): Promise<Problem[]> {
  const items = await diagnose(root, { forValidate: true });
  return items.map((item) => ({ severity: 'warning', file: item.file, message: `${item.message} (lore doctor --fix)` }));
}

/** Adds line, column and a code frame to problems that only have a pointer. */
async function locateProblems(root: string, problems: Problem[]): Promise<void> {
  for (const problem of problems) {
    if (problem.line !== undefined || problem.pointer === undefined) continue;
    try {
      const text = await readFile(join(root, problem.file), 'utf8');
      const at = parseText(text, problem.file).locate(problem.pointer);
      if (at !== undefined) Object.assign(problem, { line: at.line, column: at.column, frame: at.frame });
    } catch {
      // The problem is still reported, just without a position.
    }
  }
}

export interface ValidateOptions {
  onProgress?: (done: number, total: number) => void;
  /** Checks of the valid records that layers above the store add (the prohibitions' rule tests); their problems are located like the others. */
  check?: (records: readonly StoreRecord[]) => Problem[];
}

/** Validates everything in the store. */
export async function validateStore(store: Store, options: ValidateOptions = {}): Promise<StoreReport> {
  const { root, config } = store;
  const read = await readRecords(root, { limits: config.limits, ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }) });
  const across = [...checkAcrossRecords(read.records), ...(options.check?.(read.records) ?? [])];
  await locateProblems(root, across);
  const problems: Problem[] = [...store.configProblems, ...read.problems, ...across];
  const logs: LogSummary[] = [];
  for (const log of await listLogs(root)) {
    const path = join(knowledgeDir(root), log);
    const file = displayPath(root, path);
    const kind = logKind(log);
    if (kind === undefined) {
      problems.push({ severity: 'warning', file, message: 'is not a log lore knows; it is ignored' });
      continue;
    }
    const result = await readLog(path, { displayPath: file, validate: kind.lineProblem });
    logs.push({ file, lines: result.lines });
    problems.push(...result.problems);
  }
  problems.push(...(await symlinks(root)), ...(await unknownFiles(root)), ...(await staleSchemaCopies(root)), ...(await crashLeftovers(root)));
  const counts = Object.fromEntries(RECORD_KINDS.map((kind) => [kind, 0])) as Record<RecordKindName, number>;
  for (const record of read.records) counts[record.kind]++;
  const errors = problems.filter((p) => p.severity === 'error').length;
  return { root, files: read.files, records: read.records, counts, logs, problems, errors, warnings: problems.length - errors, valid: errors === 0 };
}

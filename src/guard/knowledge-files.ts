// The knowledge a change brings: every record, config.yaml and log line it adds under `.knowledge/`
// must parse and validate, or the change is blocked, so the store on main stays valid. Records go
// through the blob cache (a warm hook parses nothing); log lines are checked as they are added.
import type { Problem } from '../errors.js';
import type { GitFile } from '../git/objects.js';
import { gitFileRole, parseGitFiles, type GitFileToParse, type GitRecordCache } from '../indexer/git-records.js';
import { CACHE_DIR, KNOWLEDGE_DIR } from '../store/layout.js';
import type { AddedLine, ChangedFile } from './added-lines.js';

const LOG_PATH = new RegExp(`^${KNOWLEDGE_DIR}/(?:turns|log)/.*\\.ndjson$`);

/** Problems in added log lines: not JSON, not an object, or not a valid line of that log. */
async function logLineProblems(path: string, added: readonly AddedLine[], commit: string | undefined, notUtf8: boolean): Promise<Problem[]> {
  const { logKind } = await import('../store/log-kinds.js');
  const kind = logKind(path.slice(KNOWLEDGE_DIR.length + 1));
  if (kind === undefined) return [];
  const problems: Problem[] = [];
  const file = commit === undefined ? path : `${commit.slice(0, 12)}:${path}`;
  for (const { line, text } of added) {
    if (text.trim() === '') continue;
    // In a file that is not UTF-8, a line holding U+FFFD is where a bad byte was.
    if (notUtf8 && text.includes('\uFFFD')) {
      problems.push({ severity: 'error', file, line, column: text.indexOf('\uFFFD') + 1, message: `line ${line} is not valid UTF-8` });
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      problems.push({ severity: 'error', file, line, column: 1, message: `line ${line} is not valid JSON` });
      continue;
    }
    const why = value === null || typeof value !== 'object' || Array.isArray(value) ? 'is not a JSON object' : kind.lineProblem(value);
    if (why !== undefined) problems.push({ severity: 'error', file, line, column: 1, message: `line ${line} ${why}` });
  }
  return problems;
}

/**
 * The problems of the knowledge files a change adds or modifies. `records` are the record and
 * config files to check as they will be (in the index, or at the head of a range); `logs` are the
 * changed log files with their added lines (and the commit that added them).
 */
export async function knowledgeProblems(
  where: { cwd: string; env?: NodeJS.ProcessEnv },
  cache: GitRecordCache,
  records: readonly GitFile[],
  logs: ReadonlyArray<{ file: ChangedFile; commit?: string }>,
): Promise<Problem[]> {
  const wanted: GitFileToParse[] = [];
  for (const file of records) {
    const role = gitFileRole(file.path);
    if (role !== undefined) wanted.push({ file, role });
  }
  const problems = (await parseGitFiles(where, cache, wanted)).flatMap((parsed) => parsed.problems.filter((p) => p.severity === 'error'));
  for (const { file, commit } of logs) problems.push(...(await logLineProblems(file.path, file.added, commit, file.notUtf8 === true)));
  return problems;
}

/**
 * Files under `.knowledge/` that lore makes for itself and acts on when it finds them: its cache
 * (which decides what the guard reads) and what a write leaves for a moment (temp files, locks,
 * the journal the next command applies). Committed, a repository would hand them to everyone who
 * clones it, so a change that adds or modifies one is refused, naming it.
 */
export async function localFileProblems(files: readonly ChangedFile[], commit?: string): Promise<Problem[]> {
  const cache = `${KNOWLEDGE_DIR}/${CACHE_DIR}`;
  const candidates = files.filter((f) => f.path.startsWith(`${KNOWLEDGE_DIR}/`) && gitFileRole(f.path) === undefined && !LOG_PATH.test(f.path));
  if (candidates.length === 0) return [];
  const { isTransient } = await import('../store/leftovers.js');
  const problems: Problem[] = [];
  for (const { path } of candidates) {
    const file = commit === undefined ? path : `${commit.slice(0, 12)}:${path}`;
    if (path === cache || path.startsWith(`${cache}/`)) {
      problems.push({ severity: 'error', file, message: `is lore's local cache (${cache}/), which each clone rebuilds and git must not track: a committed one would decide what the commit guard reads (git rm --cached -r -- ${cache})` });
    } else if (isTransient(path.slice(path.lastIndexOf('/') + 1))) {
      problems.push({ severity: 'error', file, message: `is a file lore writes for a moment (a temp file, a lock or the journal of a write), never knowledge: the next lore command would act on a committed one (git rm --cached -- ${path})` });
    }
  }
  return problems;
}

/** The changed files under `.knowledge/` that are logs (their added lines are checked). */
export function changedLogs(files: readonly ChangedFile[]): ChangedFile[] {
  return files.filter((f) => LOG_PATH.test(f.path));
}

/** The changed files under `.knowledge/` that are records or config.yaml, with their new blobs. */
export function changedRecords(files: readonly ChangedFile[]): GitFile[] {
  return files.filter((f) => f.blob !== undefined && gitFileRole(f.path) !== undefined).map((f) => ({ path: f.path, blob: f.blob! }));
}

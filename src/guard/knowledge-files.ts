// The knowledge a change brings: every record, config.yaml and log line it adds under `.knowledge/`
// must parse and validate, or the change is blocked, so the store on main stays valid. Records go
// through the blob cache (a warm hook parses nothing); log lines are checked as they are added.
import type { Problem } from '../errors.js';
import type { GitFile } from '../git/objects.js';
import { gitFileRole, parseGitFiles, type GitFileToParse, type GitRecordCache } from '../indexer/git-records.js';
import { KNOWLEDGE_DIR } from '../store/layout.js';
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

/** The changed files under `.knowledge/` that are logs (their added lines are checked). */
export function changedLogs(files: readonly ChangedFile[]): ChangedFile[] {
  return files.filter((f) => LOG_PATH.test(f.path));
}

/** The changed files under `.knowledge/` that are records or config.yaml, with their new blobs. */
export function changedRecords(files: readonly ChangedFile[]): GitFile[] {
  return files.filter((f) => f.blob !== undefined && gitFileRole(f.path) !== undefined).map((f) => ({ path: f.path, blob: f.blob! }));
}

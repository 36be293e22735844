// Scanning a change: paths against path matchers, added lines against content matchers, in the
// prefilter-first order. Produces findings with stable fingerprints; says what it scanned.
import { createHash } from 'node:crypto';
import { normalisePath } from '../match/glob.js';
import type { ChangedFile } from './added-lines.js';
import { priorityRank } from '../priority.js';
import type { Priority } from '../types.js';
import { forgetFolded } from './long-lines.js';
import { forCandidates, type Matcher, type MatcherSet, type RuleOrigin } from './rules.js';

export interface Scanned {
  commits: number;
  files: number;
  lines: number;
  bytes: number;
}

export interface Finding {
  entryId: string;
  title: string;
  priority: Priority;
  /** Where the rule comes from: already committed, added by the change, or both. */
  origin: RuleOrigin;
  /** The file the rule was read from. */
  ruleFile: string;
  kind: 'path' | 'content' | 'role';
  /** The pattern, glob or regex that matched (for role findings, the constraint's text). */
  matcher: string;
  path: string;
  /** How the change touches the file (for path findings: what to advise). */
  change?: ChangedFile['status'];
  line?: number;
  column?: number;
  commit?: string;
  /** The matched text, redacted when the entry is secret-like. */
  text: string;
  secret: boolean;
  /** Hash of entry id, path and normalised matched text: no line numbers, no timestamps. */
  fingerprint: string;
}

/** The input of one scan: the files of one commit, or of the index. */
export interface ChangeSet {
  commit?: string;
  files: ChangedFile[];
}

/** A stable identity for a finding, for baselines and code-scanning tools. */
export function fingerprint(entryId: string, path: string, text: string): string {
  return createHash('sha256').update(`${entryId}\0${path}\0${text.trim().replace(/\s+/g, ' ')}`).digest('hex').slice(0, 32);
}

/** Hides the matched text of secret-like entries, keeping only its length. */
export function redact(text: string, secret: boolean): string {
  return secret ? `[redacted: ${text.length} characters]` : text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

function finding(matcher: Matcher, path: string, raw: string, at: { line?: number; column?: number; commit?: string; change?: ChangedFile['status'] }): Finding {
  const { entry } = matcher.rule;
  const secret = entry.secret === true;
  return {
    entryId: entry.id, title: entry.title, priority: entry.priority, origin: matcher.rule.origin, ruleFile: matcher.rule.file,
    kind: matcher.kind === 'content' ? 'content' : 'path', matcher: matcher.text, path, ...at,
    text: redact(raw, secret), secret, fingerprint: fingerprint(entry.id, path, raw),
  };
}

/** Keeps one finding per (entry, path, line, commit): the one of the highest priority. */
export function dedupe(findings: readonly Finding[]): Finding[] {
  const kept = new Map<string, Finding>();
  for (const f of findings) {
    const key = `${f.entryId}\0${f.path}\0${f.line ?? ''}\0${f.commit ?? ''}\0${f.kind}`;
    const existing = kept.get(key);
    if (existing === undefined || priorityRank(f.priority) > priorityRank(existing.priority)) kept.set(key, f);
  }
  return [...kept.values()];
}

/**
 * A line of a rule's own record file with the rule's test inputs blanked (as written and as YAML
 * quotes them; columns stay): its tests' inputs are written there (rule-tests.ts), and anything
 * else on the line (a real secret in a description, or beside a test input) is still matched.
 */
function withoutTestInputs(m: Matcher, text: string): string {
  const tests = m.rule.entry.tests;
  for (const input of [...(tests?.match ?? []), ...(tests?.noMatch ?? [])]) {
    if (typeof input.line !== 'string' || input.line === '') continue;
    for (const form of [`'${input.line.replaceAll("'", "''")}'`, JSON.stringify(input.line), input.line]) text = text.split(form).join('\0'.repeat(form.length));
  }
  return text;
}

/**
 * Scans change sets against compiled matchers; `onProgress` hears of each one scanned. A rule never
 * matches its own record file's path, nor its own test inputs written there (withoutTestInputs).
 */
export function scan(changes: readonly ChangeSet[], matchers: { paths: MatcherSet; content: MatcherSet }, onProgress?: (done: number, total: number, what: string) => void): { findings: Finding[]; scanned: Scanned } {
  const findings: Finding[] = [];
  // The byte count is only shown on request (--verbose, --json): counted then, not on every hook run.
  const scannedLines: Array<ChangedFile['added']> = [];
  let bytes: number | undefined;
  const scanned: Scanned = { commits: 0, files: 0, lines: 0, get bytes() {
    return (bytes ??= scannedLines.reduce((sum, file) => sum + file.reduce((n, line) => n + Buffer.byteLength(line.text) + 1, 0), 0));
  } };
  for (const [k, change] of changes.entries()) {
    onProgress?.(k + 1, changes.length, 'scanning commits');
    if (change.commit !== undefined) scanned.commits++;
    const at = change.commit === undefined ? {} : { commit: change.commit };
    for (const file of change.files) {
      scanned.files++;
      const visitPath = (group: readonly Matcher[]): void => {
        if (group[0]!.test(file.path) !== undefined) for (const m of group) if (m.rule.file !== file.path) findings.push(finding(m, file.path, file.path, { ...at, change: file.status }));
      };
      forCandidates(matchers.paths, file.path, visitPath);
      // A glob matches the path with / for \ and without ./ or a trailing / (normalisePath), so its
      // literal comes from that form: a name git gives otherwise (a\b is a file name on Linux) is
      // searched in that form too. A matcher visited twice finds the same thing; dedupe keeps one.
      const normal = normalisePath(file.path);
      if (normal !== file.path) forCandidates(matchers.paths, normal, visitPath);
      if (file.added.length === 0) continue;
      // One visitor per file, reading the current line: scanning allocates nothing per line.
      let added = file.added[0]!;
      const visit = (group: readonly Matcher[]): void => {
        const match = group[0]!.test(added.text);
        if (match === undefined) return;
        for (const m of group) {
          const own = m.rule.file === file.path ? m.test(withoutTestInputs(m, added.text)) : match;
          if (own !== undefined) findings.push(finding(m, file.path, own.text, { ...at, line: added.line, column: own.index + 1 }));
        }
      };
      for (let i = 0; i < file.added.length; i++) {
        added = file.added[i]!;
        forCandidates(matchers.content, added.text, visit);
      }
      scanned.lines += file.added.length;
      scannedLines.push(file.added);
    }
  }
  forgetFolded();
  return { findings: dedupe(findings), scanned };
}

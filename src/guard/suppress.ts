// What lets a finding pass: an inline `lore-allow: <id> reason="..."` (non-critical entries
// only, on the line or the line above), an allowlist record in .knowledge/allow/ (the only way
// for critical entries), or a baseline of findings already known.
import { compileGlob } from '../match/glob.js';
import type { AllowRecord } from '../types.js';
import type { Finding } from './scan.js';

export interface Outcome {
  /** Findings that count: critical ones block, others warn. */
  active: Finding[];
  suppressed: Array<Finding & { reason: string }>;
  allowed: Array<Finding & { allow: string; allowFile: string }>;
  baselined: Finding[];
  /** Why a suppression was not honoured, for people to fix. */
  notes: string[];
}

export interface SuppressInput {
  findings: readonly Finding[];
  /** The allowlist records that apply to a finding (those committed before it). */
  allowsFor(finding: Finding): ReadonlyArray<{ record: AllowRecord; file: string }>;
  baseline?: ReadonlySet<string>;
  now: Date;
  /** The text of a line of the file a finding is in (as committed), or undefined. */
  lineText(finding: Finding, line: number): Promise<string | undefined>;
}

const DIRECTIVE = /lore-allow:\s*([A-Za-z0-9][A-Za-z0-9._-]*)(?:\s+reason=(?:"([^"]*)"|'([^']*)'))?/g;

/** The `lore-allow` directives on a line: entry id → reason ('' when none was given). */
export function directives(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of text.matchAll(DIRECTIVE)) found.set(match[1]!, (match[2] ?? match[3] ?? '').trim());
  return found;
}

function expired(record: AllowRecord, now: Date): boolean {
  return record.expires !== undefined && Date.parse(`${record.expires}T23:59:59.999Z`) < now.getTime();
}

async function inlineReason(input: SuppressInput, finding: Finding, note: (text: string) => void): Promise<string | undefined> {
  if (finding.line === undefined) return undefined;
  for (const line of [finding.line, finding.line - 1]) {
    if (line < 1) continue;
    const text = await input.lineText(finding, line);
    const reason = text === undefined ? undefined : directives(text).get(finding.entryId);
    if (reason === undefined) continue;
    const where = `${finding.path}:${line}`;
    if (finding.priority === 'critical') {
      note(`${where}: lore-allow cannot allow the critical entry ${finding.entryId}; only a record in .knowledge/allow/ can`);
    } else if (reason === '') {
      note(`${where}: lore-allow: ${finding.entryId} needs a reason="..." and was ignored`);
    } else {
      return reason;
    }
  }
  return undefined;
}

/** Sorts findings into active, suppressed, allowed and baselined. */
export async function applySuppressions(input: SuppressInput): Promise<Outcome> {
  const outcome: Outcome = { active: [], suppressed: [], allowed: [], baselined: [], notes: [] };
  const note = (text: string): void => {
    if (!outcome.notes.includes(text)) outcome.notes.push(text);
  };
  for (const finding of input.findings) {
    const allows = input.allowsFor(finding);
    for (const { record, file } of allows) {
      if (record.entry === finding.entryId && expired(record, input.now)) note(`${file}: expired on ${record.expires} and no longer allows ${record.entry}`);
    }
    const allow = allows.find(({ record }) => record.entry === finding.entryId && !expired(record, input.now) && record.paths.some((glob) => compileGlob(glob).test(finding.path)));
    if (allow !== undefined) {
      outcome.allowed.push({ ...finding, allow: allow.record.id, allowFile: allow.file });
      continue;
    }
    if (input.baseline?.has(finding.fingerprint)) {
      outcome.baselined.push(finding);
      continue;
    }
    const reason = await inlineReason(input, finding, note);
    if (reason !== undefined) outcome.suppressed.push({ ...finding, reason });
    else outcome.active.push(finding);
  }
  return outcome;
}

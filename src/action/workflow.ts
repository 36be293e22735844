// GitHub Actions' side of the conversation: workflow commands (annotations) on stdout, and the
// files the runner reads after the step (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY).
import { appendFile } from 'node:fs/promises';
import type { Problem } from '../errors.js';
import type { CheckReport } from '../guard/_evaluate.js';
import { findingMessage } from '../guard/report-sarif.js';

// The escapes of the runner's command parser: data, and property values (which also end at , and :).
const data = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const property = (s: string): string => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** `::error file=a.ts,line=2,col=1,title=...::message`: an annotation on a file, or on the run. */
export function annotation(level: 'error' | 'warning', message: string, at: { file?: string; line?: number; column?: number; title?: string } = {}): string {
  const props = [['file', at.file], ['line', at.line], ['col', at.column], ['title', at.title]].filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${property(String(v))}`);
  return `::${level}${props.length === 0 ? '' : ` ${props.join(',')}`}::${data(message)}`;
}

/** An annotation for each blocking or warning finding and each invalid knowledge problem. */
export function reportAnnotations(report: CheckReport): string[] {
  const place = (p: Problem): string => p.file.replace(/^[0-9a-f]{12}:/, '');
  return [
    ...report.invalid.map((p) => annotation('error', `${p.pointer === undefined ? '' : `${p.pointer}: `}${p.message}`, { file: place(p), line: p.line, column: p.column, title: 'lore: knowledge does not validate' })),
    ...report.outcome.active.map((f) => annotation(f.priority === 'critical' ? 'error' : 'warning', findingMessage(f), { file: f.path, line: f.line, column: f.column, title: `lore ${f.entryId} [${f.priority}]` })),
  ];
}

/** Appends `name=value` lines to GITHUB_OUTPUT (single-line values). */
export async function writeOutputs(file: string | undefined, outputs: Record<string, string>): Promise<void> {
  if (file === undefined || file === '') return;
  await appendFile(file, Object.entries(outputs).map(([k, v]) => `${k}=${v}\n`).join(''));
}

/** Appends markdown to the job summary (GITHUB_STEP_SUMMARY). */
export async function writeSummary(file: string | undefined, markdown: string): Promise<void> {
  if (file === undefined || file === '') return;
  await appendFile(file, markdown);
}

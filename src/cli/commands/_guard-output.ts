// Output shared by `lore check` and `lore hook pre-commit`.
import { readFileSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import type { CheckReport } from '../../guard/_evaluate.js';
import { toSarif } from '../../guard/report-sarif.js';
import { findingLines, passedLine, scannedLine, toMarkdown, verdict } from '../../guard/report-text.js';
import type { CommandContext } from '../command.js';
import { formatProblem } from '../format.js';
import { loadWidthLibraryFor, truncateDisplay, wrapText } from '../_width.js';

export const FORMATS = ['text', 'json', 'sarif', 'markdown'] as const;
export type Format = (typeof FORMATS)[number];

export function formatOf(ctx: CommandContext): Format {
  const format = ctx.json ? 'json' : (ctx.string('format') ?? 'text');
  if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`unknown format "${format}"`, `formats: ${FORMATS.join(', ')}`);
  return format as Format;
}

function version(): string {
  return (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** Prints a check report, fitted to the width; returns the exit code (1 when blocked). With `oneLine` a clean pass is one line (the hook). */
export async function printReport(ctx: CommandContext, report: CheckReport, format: Format, write: (text: string) => void = ctx.print, oneLine = false): Promise<number> {
  if (format === 'json') write(JSON.stringify(report, null, 2));
  else if (format === 'sarif') write(JSON.stringify(toSarif(report, version()), null, 2));
  else if (format === 'markdown') write(toMarkdown(report).trimEnd());
  else {
    const lines = textLines(ctx, report, oneLine);
    await loadWidthLibraryFor(lines);
    // A clean pass in a hook is one line: cut to the terminal's width there, whole in a log.
    write(lines.length === 1 ? (ctx.stderrIsTerminal ? truncateDisplay(lines[0]!, ctx.columns) : lines[0]!) : wrapText(lines.join('\n'), ctx.columns));
  }
  return report.blocked ? 1 : 0;
}

function textLines(ctx: CommandContext, report: CheckReport, oneLine: boolean): string[] {
  const { style } = ctx;
  const verbose = ctx.flag('verbose');
  const quiet = [
    report.outcome.suppressed.length > 0 ? `${report.outcome.suppressed.length} suppressed by lore-allow` : '',
    report.outcome.allowed.length > 0 ? `${report.outcome.allowed.length} allowed by .knowledge/allow/` : '',
    report.outcome.baselined.length > 0 ? `${report.outcome.baselined.length} in the baseline` : '',
  ].filter(Boolean);
  if (oneLine && !verbose && !report.blocked && report.outcome.active.length === 0 && quiet.length === 0 && report.outcome.notes.length === 0) return [style.green(`lore: ${passedLine(report)}`)];
  const lines = [`lore: ${scannedLine(report)}`];
  if (report.role === undefined && verbose) lines.push('lore: no role known (LORE_ROLE, git config lore.role, the committed turn log): no role guard');
  if (report.invalid.length > 0) {
    lines.push('', `${style.red('BLOCKED')} the knowledge this change brings must parse and validate, so the store stays valid:`);
    for (const problem of report.invalid) lines.push(formatProblem(problem, style));
    lines.push('  how to proceed: fix the files (lore validate shows the same problems), stage them again and commit');
  }
  for (const f of report.outcome.active) lines.push('', ...findingLines(f, f.priority === 'critical' ? style.red('BLOCKED') : style.yellow('warning')));
  if (verbose) {
    for (const f of report.outcome.suppressed) lines.push('', ...findingLines(f, style.dim('suppressed')).slice(0, 2), `  reason: ${f.reason}`);
    for (const f of report.outcome.allowed) lines.push('', ...findingLines(f, style.dim('allowed')).slice(0, 2), `  by ${f.allowFile}`);
  }
  if (quiet.length > 0) lines.push('', `lore: also ${quiet.join(', ')}${verbose ? '' : ' (--verbose lists them)'}`);
  for (const note of report.outcome.notes) lines.push(`lore: note: ${note}`);
  const line = `lore: ${verdict(report)}`;
  lines.push('', report.blocked ? style.red(line) : report.outcome.active.length > 0 ? style.yellow(line) : style.green(line));
  return lines;
}

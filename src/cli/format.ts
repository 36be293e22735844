// Output for people: colours (off for NO_COLOR and pipes), problems with code frames, tables that fit.
import type { Problem } from '../errors.js';
import { displayWidth, padDisplay, wrapLine } from './_width.js';
import { byText } from '../text-order.js';

export interface Style {
  enabled: boolean;
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
  cyan(text: string): string;
}

const wrap = (enabled: boolean, open: number, close: number) => (text: string): string => (enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text);

/** Colours for a stream: on for a terminal, off for NO_COLOR, TERM=dumb, --no-color and pipes; FORCE_COLOR forces them. */
export function makeStyle(env: NodeJS.ProcessEnv, isTTY: boolean, noColorFlag: boolean): Style {
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0';
  const enabled = !noColorFlag && (env.NO_COLOR === undefined || env.NO_COLOR === '') && (forced || (isTTY && env.TERM !== 'dumb'));
  return {
    enabled,
    red: wrap(enabled, 31, 39),
    yellow: wrap(enabled, 33, 39),
    green: wrap(enabled, 32, 39),
    dim: wrap(enabled, 2, 22),
    bold: wrap(enabled, 1, 22),
    cyan: wrap(enabled, 36, 39),
  };
}

/** One problem the way compilers print them: `file:line:col: error: message`, then the code frame. */
export function formatProblem(problem: Problem, style: Style): string {
  const where = [problem.file, problem.line, problem.column].filter((part) => part !== undefined).join(':');
  const label = problem.severity === 'error' ? style.red('error') : style.yellow('warning');
  const lines = [`${where}: ${label}: ${problem.message}`];
  if (problem.frame !== undefined) lines.push(style.dim(problem.frame.replace(/^/gm, '  ')));
  return lines.join('\n');
}

/** Problems sorted by file and position. */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  return [...problems].sort((a, b) => byText(a.file, b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

/** Lays out rows in columns; the last column wraps under itself to fit `columns` (no limit when undefined). */
export function table(rows: readonly string[][], columns: number | undefined): string {
  if (rows.length === 0) return '';
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => displayWidth(row[i] ?? ''))));
  return rows
    .flatMap((row) => {
      const head = row.slice(0, -1).map((cell, i) => padDisplay(cell, widths[i]!)).join('  ');
      const line = (head === '' ? '' : `${head}  `) + (row[row.length - 1] ?? '');
      return columns === undefined ? [line] : wrapLine(line, columns, head === '' ? 0 : displayWidth(head) + 2);
    })
    .join('\n');
}

/** "1 error", "2 warnings". */
export function plural(count: number, word: string, pluralWord = `${word}s`): string {
  return `${count} ${count === 1 ? word : pluralWord}`;
}

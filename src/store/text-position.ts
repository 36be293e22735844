// Lines, columns and code frames of positions in a text, found without splitting the text into
// lines, so locating a problem in a large input costs no copy of it.

/** A 1-based line and column (in UTF-16 code units, as the YAML parser counts them). */
export interface LineColumn {
  line: number;
  column: number;
  /** Offset of the first character of the line. */
  lineStart: number;
}

/** The lines and columns of many offsets in one sweep over the text. */
export function lineColumns(text: string, offsets: readonly number[]): Map<number, LineColumn> {
  const sorted = [...new Set(offsets)].sort((a, b) => a - b);
  const out = new Map<number, LineColumn>();
  let line = 1;
  let lineStart = 0;
  for (const offset of sorted) {
    for (let next = text.indexOf('\n', lineStart); next !== -1 && next < offset; next = text.indexOf('\n', lineStart)) {
      line++;
      lineStart = next + 1;
    }
    out.set(offset, { line, column: offset - lineStart + 1, lineStart });
  }
  return out;
}

/** The line and column of one offset. */
export function lineColumn(text: string, offset: number): LineColumn {
  return lineColumns(text, [offset]).get(offset)!;
}

/** How many characters of a line a frame shows; a longer line is shown around the column, cut with "...". */
const SHOWN = 120;

/**
 * The part of the line starting at `start` that a frame shows, and where `column` (1-based) falls
 * in it. Only that part is copied: a frame of a line of megabytes costs what a short one does.
 */
function shownLine(text: string, start: number, column: number): { content: string; column: number } {
  let end = text.indexOf('\n', start);
  if (end === -1) end = text.length;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  const length = end - start;
  if (length <= SHOWN) return { content: text.slice(start, end).replace(/\t/g, ' '), column };
  // Up to 40 characters before the column, the rest after it; "..." where the line goes on.
  const from = Math.max(0, Math.min(column - 1 - 40, length - (SHOWN - 3)));
  const head = from > 0 ? '...' : '';
  const to = from + SHOWN - head.length >= length ? length : from + SHOWN - head.length - 3;
  const tail = to < length ? '...' : '';
  return { content: `${head}${text.slice(start + from, start + to).replace(/\t/g, ' ')}${tail}`, column: column - from + head.length };
}

/**
 * The line holding `lineStart` and the one before it, with a caret under `column` (1-based), like
 * yaml's prettyErrors. `firstLine` is the number of the text's first line (a text cut from a file).
 */
export function frameAt(text: string, lineStart: number, line: number, column: number, width = 1, firstLine = 1): string {
  const starts = line > 1 && lineStart > 0 ? [text.lastIndexOf('\n', lineStart - 2) + 1, lineStart] : [lineStart];
  const numbers = starts.map((_, i) => line - starts.length + 1 + i + firstLine - 1);
  const gutter = String(numbers[numbers.length - 1]).length;
  const shown = starts.map((start) => shownLine(text, start, column));
  const out = shown.map(({ content }, i) => `${i === starts.length - 1 ? '>' : ' '} ${String(numbers[i]).padStart(gutter)} | ${content}`);
  const caretCount = Math.max(1, Math.min(width, 80));
  out.push(`  ${' '.repeat(gutter)} | ${' '.repeat(Math.min(SHOWN, Math.max(0, shown[shown.length - 1]!.column - 1)))}${'^'.repeat(caretCount)}`);
  return out.join('\n');
}

/** A few lines of `text` around `line`, with a caret under `column` (1-based), like yaml's prettyErrors. */
export function codeFrame(text: string, line: number, column: number, width = 1, firstLine = 1): string {
  let lineStart = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', lineStart);
    if (next === -1) {
      lineStart = text.length;
      break;
    }
    lineStart = next + 1;
  }
  return frameAt(text, lineStart, line, column, width, firstLine);
}

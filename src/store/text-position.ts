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

function lineText(text: string, start: number): string {
  const end = text.indexOf('\n', start);
  const content = text.slice(start, end === -1 ? text.length : end);
  return content.endsWith('\r') ? content.slice(0, -1) : content;
}

/**
 * The line holding `lineStart` and the one before it, with a caret under `column` (1-based), like
 * yaml's prettyErrors. `firstLine` is the number of the text's first line (a text cut from a file).
 */
export function frameAt(text: string, lineStart: number, line: number, column: number, width = 1, firstLine = 1): string {
  const starts = line > 1 && lineStart > 0 ? [text.lastIndexOf('\n', lineStart - 2) + 1, lineStart] : [lineStart];
  const numbers = starts.map((_, i) => line - starts.length + 1 + i + firstLine - 1);
  const gutter = String(numbers[numbers.length - 1]).length;
  const out = starts.map((start, i) => {
    const content = lineText(text, start).replace(/\t/g, ' ');
    const marker = i === starts.length - 1 ? '>' : ' ';
    return `${marker} ${String(numbers[i]).padStart(gutter)} | ${content.length > 120 ? `${content.slice(0, 117)}...` : content}`;
  });
  const caretCount = Math.max(1, Math.min(width, 80));
  out.push(`  ${' '.repeat(gutter)} | ${' '.repeat(Math.max(0, column - 1))}${'^'.repeat(caretCount)}`);
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

// Text that fits the terminal: display width (a CJK character or an emoji takes two columns, a
// combining mark none), word wrapping with a hanging indent, and truncation. Simple text (below)
// is measured by its length; anything else by string-width, loaded only when a text needs it
// (about 30 ms: Intl.Segmenter and its tables), so most output never loads it.

type Measure = (text: string) => number;
let measure: Measure | undefined;

// SGR colour sequences, as format.ts's styles write them: no width of their own.
const ANSI = /\u001b\[[0-9;]*m/g;
/**
 * Simple text: printable ASCII and the letters, punctuation and symbols of European scripts that
 * take one column each and never join a neighbour into one character (Latin, Greek, Cyrillic,
 * general punctuation, currency, arrows, maths, box drawing; not the soft hyphen, not combining
 * marks, not what string-width counts as emoji). Its width is its length, exactly as string-width
 * measures it (tests/terminal.test.ts checks every one of these characters against it).
 */
const SIMPLE = /^[\x20-\x7e\xa0-\xa8\xaa-\xac\xaf-\u02ff\u0370-\u0377\u037a-\u037f\u0384-\u038a\u038c\u038e-\u03a1\u03a3-\u0482\u048a-\u052f\u1e00-\u1eff\u2010-\u2027\u2030-\u203b\u20a0-\u20c0\u2190-\u2193\u219a-\u21a8\u21ab-\u21ff\u2200-\u22ff\u2500-\u257f]*$/;

/** Measuring text that is not simple before the width library was loaded (loadWidthLibrary). */
export class WidthLibraryNeeded extends Error {
  constructor() {
    super('the width library was not loaded before measuring text that is not simple');
  }
}

/** The width output is fitted to: the terminal's, else $COLUMNS, else 80. */
export function terminalColumns(stream: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv): number {
  if (stream.isTTY === true && stream.columns !== undefined && stream.columns > 0) return stream.columns;
  const given = Number(env.COLUMNS);
  return Number.isInteger(given) && given > 0 ? given : 80;
}

/** Whether measuring `text` needs the width library (it is not simple text). */
export function needsWidthLibrary(text: string): boolean {
  return !SIMPLE.test(text.replace(ANSI, ''));
}

/** Whether `text` can be measured now: it is simple, or the width library is loaded. */
export function canMeasure(text: string): boolean {
  return measure !== undefined || !needsWidthLibrary(text);
}

/** Loads the width library (once); call before measuring text that needsWidthLibrary. */
export async function loadWidthLibrary(): Promise<void> {
  measure ??= (await import('string-width')).default;
}

/** Loads the width library only when one of `texts` needs it. */
export async function loadWidthLibraryFor(texts: readonly string[]): Promise<void> {
  if (measure === undefined && texts.some(needsWidthLibrary)) await loadWidthLibrary();
}

/** Columns `text` takes on a terminal (colour sequences count for nothing). */
export function displayWidth(text: string): number {
  const visible = text.replace(ANSI, '');
  if (SIMPLE.test(visible)) return visible.length;
  if (measure === undefined) throw new WidthLibraryNeeded();
  return measure(visible);
}

/** `text` padded with spaces to `width` columns. */
export function padDisplay(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

// Colour sequences and single characters (whole graphemes when the text is not plain ASCII).
function pieces(text: string): string[] {
  const out: string[] = [];
  const segmenter = needsWidthLibrary(text) ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : undefined;
  let at = 0;
  for (const match of text.matchAll(ANSI)) {
    out.push(...chars(text.slice(at, match.index), segmenter), match[0]);
    at = match.index + match[0].length;
  }
  out.push(...chars(text.slice(at), segmenter));
  return out;
}

function chars(text: string, segmenter: Intl.Segmenter | undefined): string[] {
  return segmenter === undefined ? [...text] : [...segmenter.segment(text)].map((s) => s.segment);
}

/** `text` cut to at most `width` columns, with an ellipsis when cut. */
export function truncateDisplay(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const piece of pieces(text)) {
    const w = displayWidth(piece);
    if (used + w > width - 1) break;
    out += piece;
    used += w;
  }
  return `${out}…`;
}

/**
 * One line wrapped at spaces to `width` columns; continuation lines start with `hang` spaces (4
 * when `hang` would take more than half the width). A word longer than a line (CJK text has no
 * spaces) is cut where the line ends.
 */
export function wrapLine(line: string, width: number, hang = 0): string[] {
  if (displayWidth(line) <= width) return [line];
  const lead = /^ */.exec(line)![0];
  const indent = ' '.repeat(hang <= width / 2 ? hang : 4);
  const out: string[] = [];
  let [current, used, fresh] = [lead, lead.length, true];
  const flush = (): void => {
    out.push(current.trimEnd());
    [current, used, fresh] = [indent, indent.length, true];
  };
  const add = (text: string, w: number): void => {
    current += text;
    used += w;
    fresh = false;
  };
  for (const word of line.slice(lead.length).split(' ')) {
    // A run of spaces (table padding) is kept inside a line and dropped at a line's start.
    if (fresh && word === '') continue;
    const w = displayWidth(word);
    const space = fresh ? 0 : 1;
    if (used + space + w <= width) {
      add(fresh ? word : ` ${word}`, space + w);
      continue;
    }
    if (w <= width - indent.length) {
      flush();
      add(word, w);
      continue;
    }
    if (!fresh && used + 2 <= width) add(' ', 1);
    for (const piece of pieces(word)) {
      const pw = displayWidth(piece);
      if (used + pw > width && !fresh) flush();
      add(piece, pw);
    }
  }
  if (!fresh) out.push(current.trimEnd());
  return out;
}

/** Every line of `text` wrapped to `width`, continuation lines indented two past the line's own indent. */
export function wrapText(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => wrapLine(line, width, /^ */.exec(line)![0].length + 2))
    .join('\n');
}

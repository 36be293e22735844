// What a change adds, decided by lore rather than by git's diff (works on strings): a line of the
// new version is added when the old version (or, for a merge, every parent's version) does not
// hold that text as often. No diff driver, attribute, algorithm or setting can change the answer,
// and a file that git would call binary is read like any other.

export type ChangeStatus = 'added' | 'modified' | 'renamed' | 'copied' | 'typechange';

export interface AddedLine {
  /** 1-based line number in the new version of the file. */
  line: number;
  text: string;
}

export interface ChangedFile {
  path: string;
  /** For renames and copies: where it came from. */
  oldPath?: string;
  status: ChangeStatus;
  /** The new content's blob id, when it is in git. */
  blob?: string;
  /** Set when the new content is not valid UTF-8 (its bad bytes read as U+FFFD). */
  notUtf8?: true;
  added: AddedLine[];
}

/** The lines of a text: split at LF, a CR before it dropped, no empty line after a final newline. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.endsWith('\r')) lines[i] = line.slice(0, -1);
  }
  return lines;
}

function counts(lines: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of lines) map.set(line, (map.get(line) ?? 0) + 1);
  return map;
}

/**
 * The lines of `text` that none of the `before` versions holds as often. With no earlier version
 * every line is added. A line repeated more often than before counts from its first extra copy.
 *
 * @example
 * addedLines('a\nkey=AKIA\na\n', ['a\n']); // → [{ line: 2, text: 'key=AKIA' }, { line: 3, text: 'a' }]
 */
export function addedLines(text: string, before: readonly string[]): AddedLine[] {
  const lines = splitLines(text);
  const added: AddedLine[] = [];
  if (before.length === 0) {
    for (let i = 0; i < lines.length; i++) added.push({ line: i + 1, text: lines[i]! });
    return added;
  }
  // How many copies of each line some earlier version already had: the most any one had.
  const budget = counts(splitLines(before[0]!));
  for (const other of before.slice(1)) {
    for (const [line, n] of counts(splitLines(other))) if (n > (budget.get(line) ?? 0)) budget.set(line, n);
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const left = budget.get(line);
    if (left === undefined || left === 0) added.push({ line: i + 1, text: line });
    else budget.set(line, left - 1);
  }
  return added;
}

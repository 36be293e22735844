// Markdown for the reference pages: GitHub's heading anchors, table cells, inline code.

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchor(heading: string): string {
  return heading.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
}

/** Text as inline code, fenced with more backticks than it holds. */
export function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return longest === 0 ? `${fence}${text}${fence}` : `${fence} ${text} ${fence}`;
}

/** Text made safe for one table cell: no line breaks, pipes escaped. */
export function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

/** A table; columns that are empty in every row are left out. */
export function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const keep = headers.map((_, i) => i === 0 || rows.some((row) => (row[i] ?? '') !== ''));
  const pick = (row: readonly string[]): string[] => row.filter((_, i) => keep[i]);
  const line = (row: readonly string[]): string => `| ${pick(row).map((text) => cell(text)).join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

/** A summary fragment as a sentence: capital first letter, full stop. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?:]$/.test(capital) ? capital : `${capital}.`;
}

/** A page: blocks separated by one blank line, ending with a newline. */
export function page(blocks: ReadonlyArray<string | undefined>): string {
  return `${blocks.filter((b): b is string => b !== undefined && b !== '').join('\n\n')}\n`;
}

/** Every heading's anchor must be unique on a page, or links would land on the wrong one. */
export function assertUniqueAnchors(markdown: string, file: string): void {
  const seen = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (heading === null) continue;
    const id = anchor(heading[1]!);
    if (seen.has(id)) throw new Error(`${file}: two headings have the anchor #${id}`);
    seen.add(id);
  }
}

// `npm run docs`: writes docs/reference/ from the code and the schemas (the command table and help,
// the store's layout tables, schemas/, the operations' table and the adapters' routes), so the
// reference cannot drift from what lore does. tests/docs-reference.test.ts fails when a page is stale.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertUniqueAnchors } from './docs/_markdown.js';
import { renderCommands } from './docs/commands.js';
import { renderFormat } from './docs/format.js';
import { renderOperations } from './docs/operations.js';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every generated page, by its path relative to the repository's root. */
export async function renderReference(): Promise<Map<string, string>> {
  const pages = new Map([
    ['docs/reference/commands.md', await renderCommands()],
    ['docs/reference/format.md', renderFormat()],
    ['docs/reference/operations.md', await renderOperations()],
  ]);
  for (const [file, text] of pages) assertUniqueAnchors(text, file);
  return pages;
}

/** Why a committed page differs from the generated one (the first differing line, both ways), or undefined. */
export function staleness(file: string, committed: string | undefined, generated: string): string | undefined {
  if (committed === generated) return undefined;
  if (committed === undefined) return `${file} is missing: run npm run docs`;
  const [a, b] = [committed.split('\n'), generated.split('\n')];
  let line = 0;
  while (line < a.length && line < b.length && a[line] === b[line]) line++;
  const show = (text: string | undefined): string => (text === undefined ? '(end of file)' : JSON.stringify(text.length > 160 ? `${text.slice(0, 160)}...` : text));
  return `${file} is stale: run npm run docs\nfirst difference at line ${line + 1}:\n- committed: ${show(a[line])}\n+ generated: ${show(b[line])}`;
}

async function main(): Promise<void> {
  for (const [file, text] of await renderReference()) {
    mkdirSync(dirname(join(ROOT, file)), { recursive: true });
    writeFileSync(join(ROOT, file), text);
    process.stdout.write(`wrote ${file}\n`);
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();

// The documentation's examples, read out of Markdown so that the test suite can run them.
//
// A ```console block is a terminal session: each `$ ` line is a command (`> ` lines continue it,
// as a shell shows a here-document, and so does the line after one ending in `\`); the lines up to
// the next command are what it prints, stdout and stderr together. In expected output a line
// `...` stands for any number of lines and `...` inside a line for any text; a command that exits
// non-zero ends with `[exit N]`.
// HTML comments steer the runner and stay invisible on GitHub:
//   <!-- example: fresh -->           the next block starts in a new repository
//   <!-- example: file PATH -->       the next code block is written to PATH (a .ts file is also type-checked)
//   <!-- example: setup               hidden commands, run before the next block
//   $ command
//   -->
// Other fenced blocks (sh, yaml, json...) are not run, but every `lore ...` command line in a sh
// block must name a real command and real options.

export interface Command {
  /** The shell text, continuation lines joined with newlines. */
  text: string;
  /** Expected output lines (the `[exit N]` line included). */
  expected: string[];
  /** 0-based line numbers in the file of the first and last expected line (last < first when none). */
  from: number;
  to: number;
}

export type Step =
  | { kind: 'fresh'; line: number }
  | { kind: 'setup'; line: number; commands: string[] }
  | { kind: 'file'; line: number; path: string; content: string }
  | { kind: 'console'; line: number; /** The fence's indentation (a block inside a list item). */ indent: string; commands: Command[] };

export interface ShellLine {
  line: number;
  text: string;
}

export interface DocExamples {
  steps: Step[];
  /** `lore` command lines of sh/bash/console blocks (console ones too: they run, but help checks them early). */
  loreLines: ShellLine[];
}

const FENCE = /^( *)(`{3,}|~{3,})\s*([\w-]*)[^`]*$/;
const DIRECTIVE = /^\s*<!-- example: (fresh|file|setup)\b\s*(.*?)\s*(-->)?$/;

/** Splits a console block's lines into commands with their expected output. */
function consoleCommands(lines: string[], firstLine: number, file: string): Command[] {
  const commands: Command[] = [];
  let current: Command | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('$ ')) {
      current = { text: line.slice(2), expected: [], from: firstLine + i + 1, to: firstLine + i };
      commands.push(current);
    } else if (current && current.expected.length === 0 && (current.text.endsWith('\\') || line.startsWith('> ') || line === '>')) {
      current.text += '\n' + (current.text.endsWith('\\') ? line : line.slice(2));
      current.from = firstLine + i + 1;
      current.to = firstLine + i;
    } else if (current) {
      current.expected.push(line);
      current.to = firstLine + i;
    } else {
      throw new Error(`${file}:${firstLine + i + 1}: a console block must start with a "$ " command line`);
    }
  }
  return commands;
}

/** Every `lore ...` invocation in shell text (after `$ `, `&&`, `|`, `;`, `npx`, or at a line's start). */
export function loreInvocations(text: string): string[] {
  const found: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^\$ /, '').replace(/\s+#.*$/, '');
    for (const part of line.split(/&&|\|\||[|;]|\$\(/)) {
      const match = /^\s*(?:npx\s+)?lore(?:\s+(.*))?$/.exec(part);
      if (match) found.push((match[1] ?? '').trim());
    }
  }
  return found;
}

export function parseDocExamples(markdown: string, file: string): DocExamples {
  const lines = markdown.split('\n');
  const steps: Step[] = [];
  const loreLines: ShellLine[] = [];
  let pendingFile: { path: string; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const directive = DIRECTIVE.exec(line);
    if (directive) {
      const [, kind, arg, closed] = directive;
      if (kind === 'fresh') steps.push({ kind: 'fresh', line: i + 1 });
      else if (kind === 'file') {
        if (!arg) throw new Error(`${file}:${i + 1}: "example: file" needs a path`);
        pendingFile = { path: arg, line: i + 1 };
      } else {
        if (closed) throw new Error(`${file}:${i + 1}: "example: setup" takes its commands on the lines below`);
        const body: string[] = [];
        for (i++; i < lines.length && lines[i]!.trim() !== '-->'; i++) body.push(lines[i]!.trim());
        if (i === lines.length) throw new Error(`${file}: "example: setup" is never closed with -->`);
        const commands = consoleCommands(body, i - body.length, file);
        if (commands.some((c) => c.expected.length > 0)) throw new Error(`${file}:${i + 1}: a setup comment holds commands only`);
        steps.push({ kind: 'setup', line: i + 1, commands: commands.map((c) => c.text) });
        loreLines.push(...commands.flatMap((c) => loreInvocations(c.text).map((text) => ({ line: i + 1, text }))));
      }
      continue;
    }
    const fence = FENCE.exec(line);
    if (!fence) continue;
    const [, indent, marks, lang] = fence;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]!.trim() !== marks; i++) body.push(lines[i]!.startsWith(indent!) ? lines[i]!.slice(indent!.length) : lines[i]!);
    if (pendingFile) {
      steps.push({ kind: 'file', line: pendingFile.line, path: pendingFile.path, content: body.join('\n') + '\n' });
      pendingFile = undefined;
      continue;
    }
    if (lang === 'console') {
      const commands = consoleCommands(body, start + 1, file);
      steps.push({ kind: 'console', line: start + 1, indent: indent!, commands });
      for (const c of commands) loreLines.push(...loreInvocations(c.text.split('\n')[0]!).map((text) => ({ line: c.from, text })));
    } else if (lang === 'sh' || lang === 'bash') {
      body.forEach((text, k) => loreLines.push(...loreInvocations(text).map((t) => ({ line: start + k + 2, text: t }))));
    }
  }
  if (pendingFile) throw new Error(`${file}:${pendingFile.line}: "example: file" is not followed by a code block`);
  return { steps, loreLines };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether actual output lines match expected ones, with `...` lines and `...` inside lines as wildcards. */
export function outputMatches(expected: readonly string[], actual: readonly string[]): boolean {
  const patterns = expected.map((line) =>
    line === '...' ? null : new RegExp('^' + line.split('...').map(escapeRegExp).join('.*') + '$'),
  );
  const memo = new Map<string, boolean>();
  const match = (e: number, a: number): boolean => {
    const key = `${e},${a}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (e === patterns.length) result = a === actual.length;
    else if (patterns[e] === null) result = match(e + 1, a) || (a < actual.length && match(e, a + 1));
    else result = a < actual.length && patterns[e]!.test(actual[a]!) && match(e + 1, a + 1);
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
}

/** Output as the docs show it: no trailing spaces, no trailing blank lines. */
export function outputLines(text: string): string[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n').map((l) => l.replace(/\s+$/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

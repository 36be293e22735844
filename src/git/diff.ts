// Parsing `git diff -U0` output (works on strings): which files a change adds or modifies, and
// the lines it adds with their line numbers in the new file.

export type ChangeStatus = 'added' | 'modified' | 'renamed' | 'copied';

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
  /** Binary files are checked by path only. */
  binary: boolean;
  added: AddedLine[];
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** Reads git's C-style quoted path ("a\tb", "\303\274.txt") back into the real name. */
export function unquotePath(text: string): string {
  if (!text.startsWith('"')) return text;
  const bytes: number[] = [];
  for (let i = 1; i < text.length - 1; i++) {
    const char = text[i]!;
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const next = text[++i]!;
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(text.slice(i, i + 3), 8));
      i += 2;
    } else {
      bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The path in a `+++ b/...`, `rename to ...` or `a/... b/...` position: unquoted, without the prefix. */
function cleanPath(raw: string, prefix: string): string {
  const path = unquotePath(raw.replace(/\t$/, ''));
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** The new path from a `diff --git a/X b/Y` header (used when there is no `+++` line, e.g. binaries). */
function pathFromHeader(header: string): string {
  const rest = header.slice('diff --git '.length);
  if (rest.endsWith('"')) return cleanPath(rest.slice(rest.lastIndexOf(' "') + 1), 'b/');
  // Unquoted and not renamed: "a/P b/P", so the two halves have the same length.
  return rest.slice((rest.length + 1) / 2 + 2);
}

/** Parses `git diff -U0` (or `git log -p -U0`) text for one commit or the index. */
export function parseDiff(text: string): ChangedFile[] {
  const files: ChangedFile[] = [];
  let file: ChangedFile | undefined;
  let cursor = 0;
  let inHunk = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) {
      file = { path: pathFromHeader(line), status: 'modified', binary: false, added: [] };
      files.push(file);
      inHunk = false;
      continue;
    }
    if (file === undefined) continue;
    if (inHunk) {
      if (line.startsWith('+')) file.added.push({ line: cursor++, text: line.slice(1) });
      else if (line.startsWith(' ')) cursor++;
      else if (!line.startsWith('-') && !line.startsWith('\\')) inHunk = false;
      if (inHunk) continue;
    }
    if (line.startsWith('@@ ')) {
      const match = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
      cursor = match === null ? 0 : Number(match[1]);
      inHunk = true;
    } else if (line.startsWith('new file mode')) {
      file.status = 'added';
    } else if (line.startsWith('rename from ') || line.startsWith('copy from ')) {
      file.status = line.startsWith('rename') ? 'renamed' : 'copied';
      file.oldPath = cleanPath(line.slice(line.indexOf(' from ') + 6), '');
    } else if (line.startsWith('rename to ') || line.startsWith('copy to ')) {
      file.path = cleanPath(line.slice(line.indexOf(' to ') + 4), '');
    } else if (line.startsWith('+++ ')) {
      const target = line.slice(4);
      if (target !== '/dev/null') file.path = cleanPath(target, 'b/');
    } else if (line.startsWith('Binary files ') || line === 'GIT binary patch') {
      file.binary = true;
    }
  }
  return files;
}
